# shellcheck shell=bash
# websockify from Debian: WebSocket -> TCP to our PostgreSQL, the stand-in
# for Neon's wsproxy (the serverless driver's Pool/Client mode). The target
# is fixed; websockify ignores the driver's ?address= parameter.
WEBSOCKIFY_DIR="$TB_DIR/websockify"

websockify_packages() { echo websockify; }

websockify_running() { pid_alive "$WEBSOCKIFY_DIR/websockify.pid" websockify; }

websockify_up() {
  local cfg="port=$WEBSOCKIFY_PORT pg=$PG_PORT"
  mkdir -p "$WEBSOCKIFY_DIR"
  if websockify_running && cfg_matches "$WEBSOCKIFY_DIR" "$cfg"; then
    log "websockify: reusing running proxy on port $WEBSOCKIFY_PORT"
  else
    websockify_running && websockify_down
    assert_port_free websockify "$WEBSOCKIFY_PORT" DBPROBE_TESTBED_WEBSOCKIFY_PORT
    log "websockify: starting on $TB_HOST:$WEBSOCKIFY_PORT -> $TB_HOST:$PG_PORT"
    start_daemon "$WEBSOCKIFY_DIR/websockify.pid" "$WEBSOCKIFY_DIR/websockify.log" root \
      /usr/bin/websockify "$TB_HOST:$WEBSOCKIFY_PORT" "$TB_HOST:$PG_PORT" ||
      die_with_log "$WEBSOCKIFY_DIR/websockify.log" "websockify: failed to start"
    printf '%s\n' "$cfg" >"$WEBSOCKIFY_DIR/config"
  fi
  wait_alive websockify "$WEBSOCKIFY_DIR/websockify.log" "$WEBSOCKIFY_DIR/websockify.pid" websockify port_open "$WEBSOCKIFY_PORT"
  write_env_lines "$WEBSOCKIFY_DIR" "$(env_line DBPROBE_TEST_WEBSOCKIFY_PORT "$WEBSOCKIFY_PORT")"
}

websockify_down() {
  websockify_running || return 0
  stop_pidfile "$WEBSOCKIFY_DIR/websockify.pid" websockify websockify TERM
}

# shellcheck shell=bash
# websockify from Debian: WebSocket -> TCP to our PostgreSQL, the stand-in
# for Neon's wsproxy (the serverless driver's Pool/Client mode). The target
# is fixed; websockify ignores the driver's ?address= parameter. Two
# instances: plain ws on WEBSOCKIFY_PORT and wss only (the testbed
# certificate) on WEBSOCKIFY_TLS_PORT, as Neon's proxy serves.
WEBSOCKIFY_DIR="$TB_DIR/websockify"

websockify_packages() { echo websockify; }

websockify_running() {
  pid_alive "$WEBSOCKIFY_DIR/websockify.pid" websockify &&
    pid_alive "$WEBSOCKIFY_DIR/websockify-tls.pid" websockify
}

websockify_up() {
  local cfg="port=$WEBSOCKIFY_PORT tls-port=$WEBSOCKIFY_TLS_PORT tls=$(tls_id) pg=$PG_PORT"
  mkdir -p "$WEBSOCKIFY_DIR"
  if websockify_running && cfg_matches "$WEBSOCKIFY_DIR" "$cfg"; then
    log "websockify: reusing running proxies on ports $WEBSOCKIFY_PORT and $WEBSOCKIFY_TLS_PORT (wss)"
  else
    websockify_down
    assert_port_free websockify "$WEBSOCKIFY_PORT" DBPROBE_TESTBED_WEBSOCKIFY_PORT
    assert_port_free websockify-tls "$WEBSOCKIFY_TLS_PORT" DBPROBE_TESTBED_WEBSOCKIFY_TLS_PORT
    log "websockify: starting on $TB_HOST:$WEBSOCKIFY_PORT and $TB_HOST:$WEBSOCKIFY_TLS_PORT (wss) -> $TB_HOST:$PG_PORT"
    start_daemon "$WEBSOCKIFY_DIR/websockify.pid" "$WEBSOCKIFY_DIR/websockify.log" root \
      /usr/bin/websockify "$TB_HOST:$WEBSOCKIFY_PORT" "$TB_HOST:$PG_PORT" ||
      die_with_log "$WEBSOCKIFY_DIR/websockify.log" "websockify: failed to start"
    start_daemon "$WEBSOCKIFY_DIR/websockify-tls.pid" "$WEBSOCKIFY_DIR/websockify-tls.log" root \
      /usr/bin/websockify --cert="$TB_TLS_CERT" --key="$TB_TLS_KEY" --ssl-only \
      "$TB_HOST:$WEBSOCKIFY_TLS_PORT" "$TB_HOST:$PG_PORT" ||
      die_with_log "$WEBSOCKIFY_DIR/websockify-tls.log" "websockify: the wss instance failed to start"
    printf '%s\n' "$cfg" >"$WEBSOCKIFY_DIR/config"
  fi
  wait_alive websockify "$WEBSOCKIFY_DIR/websockify.log" "$WEBSOCKIFY_DIR/websockify.pid" websockify port_open "$WEBSOCKIFY_PORT"
  wait_alive websockify-tls "$WEBSOCKIFY_DIR/websockify-tls.log" "$WEBSOCKIFY_DIR/websockify-tls.pid" websockify \
    port_open "$WEBSOCKIFY_TLS_PORT"
  write_env_lines "$WEBSOCKIFY_DIR" "$(env_line DBPROBE_TEST_WEBSOCKIFY_PORT "$WEBSOCKIFY_PORT")" \
    "$(env_line DBPROBE_TEST_WEBSOCKIFY_TLS_PORT "$WEBSOCKIFY_TLS_PORT")"
}

websockify_down() {
  stop_pidfile "$WEBSOCKIFY_DIR/websockify-tls.pid" websockify websockify-tls TERM
  stop_pidfile "$WEBSOCKIFY_DIR/websockify.pid" websockify websockify TERM
}

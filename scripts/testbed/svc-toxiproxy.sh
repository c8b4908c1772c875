# shellcheck shell=bash
# toxiproxy: latency and fault injection (kernel netem is not available on
# these machines). Only the API server starts here; tests create their own
# proxies and toxics over its HTTP API, and should delete them when done,
# since a reused server keeps the proxies of earlier runs.
TOXIPROXY_DIR="$TB_DIR/toxiproxy"
TOXIPROXY_BIN=""

toxiproxy_packages() { command -v curl >/dev/null 2>&1 || echo curl; }
toxiproxy_build() { TOXIPROXY_BIN=$(bash "$HERE/build-go.sh" toxiproxy); }

toxiproxy_running() { pid_alive "$TOXIPROXY_DIR/toxiproxy.pid" toxiproxy-server; }

toxiproxy_up() {
  local cfg="port=$TOXIPROXY_PORT bin=$TOXIPROXY_BIN"
  mkdir -p "$TOXIPROXY_DIR"
  if toxiproxy_running && cfg_matches "$TOXIPROXY_DIR" "$cfg"; then
    log "toxiproxy: reusing running API server on port $TOXIPROXY_PORT"
  else
    toxiproxy_running && toxiproxy_down
    assert_port_free toxiproxy "$TOXIPROXY_PORT" DBPROBE_TESTBED_TOXIPROXY_PORT
    log "toxiproxy: starting API on $TB_HOST:$TOXIPROXY_PORT"
    start_daemon "$TOXIPROXY_DIR/toxiproxy.pid" "$TOXIPROXY_DIR/toxiproxy.log" root "$TOXIPROXY_BIN" \
      -host "$TB_HOST" -port "$TOXIPROXY_PORT" ||
      die_with_log "$TOXIPROXY_DIR/toxiproxy.log" "toxiproxy: failed to start"
    printf '%s\n' "$cfg" >"$TOXIPROXY_DIR/config"
  fi
  wait_alive toxiproxy "$TOXIPROXY_DIR/toxiproxy.log" "$TOXIPROXY_DIR/toxiproxy.pid" toxiproxy-server \
    curl -fsS --max-time 2 "http://$TB_HOST:$TOXIPROXY_PORT/version"
  write_env_lines "$TOXIPROXY_DIR" \
    "$(env_line DBPROBE_TEST_TOXIPROXY_URL "http://$TB_HOST:$TOXIPROXY_PORT")"
}

toxiproxy_down() {
  toxiproxy_running || return 0
  stop_pidfile "$TOXIPROXY_DIR/toxiproxy.pid" toxiproxy-server toxiproxy TERM
}

# shellcheck shell=bash
# FerretDB v1 (MongoDB wire protocol) with its SQLite handler, built from the
# pinned module by build-go.sh. No authentication: FerretDB v1 with SQLite
# accepts any client, so the URL carries no credentials.
FERRETDB_DIR="$TB_DIR/ferretdb"
FERRETDB_BIN=""

ferretdb_packages() { :; }
ferretdb_build() { FERRETDB_BIN=$(bash "$HERE/build-go.sh" ferretdb); }

ferretdb_running() { pid_alive "$FERRETDB_DIR/ferretdb.pid" ferretdb; }

ferretdb_up() {
  local cfg="port=$FERRETDB_PORT debug=$FERRETDB_DEBUG_PORT tls-port=$FERRETDB_TLS_PORT tls=$(tls_id) bin=$FERRETDB_BIN"
  mkdir -p "$FERRETDB_DIR/data" "$FERRETDB_DIR/state"
  if ferretdb_running && cfg_matches "$FERRETDB_DIR" "$cfg"; then
    log "ferretdb: reusing running server on port $FERRETDB_PORT"
  else
    ferretdb_running && ferretdb_down
    assert_port_free ferretdb "$FERRETDB_PORT" DBPROBE_TESTBED_FERRETDB_PORT
    assert_port_free ferretdb-debug "$FERRETDB_DEBUG_PORT" DBPROBE_TESTBED_FERRETDB_DEBUG_PORT
    assert_port_free ferretdb-tls "$FERRETDB_TLS_PORT" DBPROBE_TESTBED_FERRETDB_TLS_PORT
    log "ferretdb: starting on $TB_HOST:$FERRETDB_PORT, TLS on $FERRETDB_TLS_PORT (sqlite in $FERRETDB_DIR/data)"
    start_daemon "$FERRETDB_DIR/ferretdb.pid" "$FERRETDB_DIR/ferretdb.log" root "$FERRETDB_BIN" \
      --handler=sqlite --sqlite-url="file:$FERRETDB_DIR/data/" --state-dir="$FERRETDB_DIR/state" \
      --listen-addr="$TB_HOST:$FERRETDB_PORT" --debug-addr="$TB_HOST:$FERRETDB_DEBUG_PORT" \
      --listen-tls="$TB_HOST:$FERRETDB_TLS_PORT" --listen-tls-cert-file="$TB_TLS_CERT" \
      --listen-tls-key-file="$TB_TLS_KEY" --telemetry=disable --log-level=ERROR ||
      die_with_log "$FERRETDB_DIR/ferretdb.log" "ferretdb: failed to start"
    printf '%s\n' "$cfg" >"$FERRETDB_DIR/config"
  fi
  wait_alive ferretdb "$FERRETDB_DIR/ferretdb.log" "$FERRETDB_DIR/ferretdb.pid" ferretdb port_open "$FERRETDB_PORT"
  wait_for_port ferretdb-tls "$FERRETDB_DIR/ferretdb.log" "$FERRETDB_TLS_PORT"
  write_env_lines "$FERRETDB_DIR" \
    "$(env_line DBPROBE_TEST_MONGO_URL "mongodb://$TB_HOST:$FERRETDB_PORT/dbprobe")" \
    "$(env_line DBPROBE_TEST_FERRETDB_METRICS_URL "http://$TB_HOST:$FERRETDB_DEBUG_PORT/debug/metrics")" \
    "$(env_line DBPROBE_TEST_MONGO_TLS_URL "mongodb://$TB_HOST:$FERRETDB_TLS_PORT/dbprobe?tls=true")"
}

ferretdb_down() {
  ferretdb_running || return 0
  stop_pidfile "$FERRETDB_DIR/ferretdb.pid" ferretdb ferretdb TERM
}

# shellcheck shell=bash
# FerretDB v1 (MongoDB wire protocol), built from the pinned module by
# build-go.sh, twice:
# - with its SQLite handler: no authentication (FerretDB v1 with SQLite accepts
#   any client), so the URL carries no credentials; every Mongo test uses it;
# - with its PostgreSQL handler in front of the testbed pg (database ferretdb):
#   it authenticates (PLAIN, checked by PostgreSQL on the first command), so a
#   wrong password is refused, as Atlas refuses one.
FERRETDB_DIR="$TB_DIR/ferretdb"
FERRETDB_BIN=""

ferretdb_packages() { :; }
ferretdb_build() { FERRETDB_BIN=$(bash "$HERE/build-go.sh" ferretdb); }

ferretdb_running() { pid_alive "$FERRETDB_DIR/ferretdb.pid" ferretdb; }
ferretdb_auth_running() { pid_alive "$FERRETDB_DIR/ferretdb-auth.pid" handler=postgresql; }

ferretdb_auth_up() {
  local cfg="port=$FERRETDB_AUTH_PORT debug=$FERRETDB_AUTH_DEBUG_PORT pg=$PG_PORT bin=$FERRETDB_BIN"
  mkdir -p "$FERRETDB_DIR/auth-state"
  if ferretdb_auth_running && [ "$(cat "$FERRETDB_DIR/auth-config" 2>/dev/null)" = "$cfg" ]; then
    log "ferretdb-auth: reusing running server on port $FERRETDB_AUTH_PORT"
  else
    ferretdb_auth_running && stop_pidfile "$FERRETDB_DIR/ferretdb-auth.pid" handler=postgresql ferretdb-auth TERM
    assert_port_free ferretdb-auth "$FERRETDB_AUTH_PORT" DBPROBE_TESTBED_FERRETDB_AUTH_PORT
    assert_port_free ferretdb-auth-debug "$FERRETDB_AUTH_DEBUG_PORT" DBPROBE_TESTBED_FERRETDB_AUTH_DEBUG_PORT
    log "ferretdb-auth: starting on $TB_HOST:$FERRETDB_AUTH_PORT (PostgreSQL handler, database ferretdb)"
    # No credentials in the PostgreSQL URL: each client's own user and password log in.
    start_daemon "$FERRETDB_DIR/ferretdb-auth.pid" "$FERRETDB_DIR/ferretdb-auth.log" root "$FERRETDB_BIN" \
      --handler=postgresql --postgresql-url="postgres://$TB_HOST:$PG_PORT/ferretdb" \
      --state-dir="$FERRETDB_DIR/auth-state" \
      --listen-addr="$TB_HOST:$FERRETDB_AUTH_PORT" --debug-addr="$TB_HOST:$FERRETDB_AUTH_DEBUG_PORT" \
      --telemetry=disable --log-level=ERROR ||
      die_with_log "$FERRETDB_DIR/ferretdb-auth.log" "ferretdb-auth: failed to start"
    printf '%s\n' "$cfg" >"$FERRETDB_DIR/auth-config"
  fi
  wait_alive ferretdb-auth "$FERRETDB_DIR/ferretdb-auth.log" "$FERRETDB_DIR/ferretdb-auth.pid" handler=postgresql \
    port_open "$FERRETDB_AUTH_PORT"
}

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
  ferretdb_auth_up
  write_env_lines "$FERRETDB_DIR" \
    "$(env_line DBPROBE_TEST_MONGO_AUTH_URL "mongodb://dbprobe:$TB_PASSWORD@$TB_HOST:$FERRETDB_AUTH_PORT/dbprobe?authMechanism=PLAIN&authSource=%24external")" \
    "$(env_line DBPROBE_TEST_MONGO_URL "mongodb://$TB_HOST:$FERRETDB_PORT/dbprobe")" \
    "$(env_line DBPROBE_TEST_FERRETDB_METRICS_URL "http://$TB_HOST:$FERRETDB_DEBUG_PORT/debug/metrics")" \
    "$(env_line DBPROBE_TEST_MONGO_TLS_URL "mongodb://$TB_HOST:$FERRETDB_TLS_PORT/dbprobe?tls=true")"
}

ferretdb_down() {
  ferretdb_auth_running && stop_pidfile "$FERRETDB_DIR/ferretdb-auth.pid" handler=postgresql ferretdb-auth TERM
  ferretdb_running || return 0
  stop_pidfile "$FERRETDB_DIR/ferretdb.pid" ferretdb ferretdb TERM
}

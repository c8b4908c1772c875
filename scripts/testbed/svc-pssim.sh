# shellcheck shell=bash
# ps-http-sim: PlanetScale's HTTP API (what @planetscale/database speaks) in
# front of our MariaDB. The user and password of each request's basic auth go
# through to MariaDB, so the dbprobe user's password is the real check.
PSSIM_DIR="$TB_DIR/pssim"
PSSIM_BIN=""

pssim_packages() { :; }
pssim_build() { PSSIM_BIN=$(bash "$HERE/build-go.sh" pssim); }

pssim_running() { pid_alive "$PSSIM_DIR/ps-http-sim.pid" ps-http-sim; }

pssim_up() {
  local cfg="port=$PSSIM_PORT mysql=$MYSQL_PORT bin=$PSSIM_BIN"
  mkdir -p "$PSSIM_DIR"
  if pssim_running && cfg_matches "$PSSIM_DIR" "$cfg"; then
    log "pssim: reusing running server on port $PSSIM_PORT"
  else
    pssim_running && pssim_down
    assert_port_free pssim "$PSSIM_PORT" DBPROBE_TESTBED_PSSIM_PORT
    # -log-level info: one line per query (its default, debug, says more).
    log "pssim: starting on $TB_HOST:$PSSIM_PORT -> mysql $TB_HOST:$MYSQL_PORT"
    start_daemon "$PSSIM_DIR/ps-http-sim.pid" "$PSSIM_DIR/ps-http-sim.log" root "$PSSIM_BIN" \
      -listen-addr "$TB_HOST" -listen-port "$PSSIM_PORT" \
      -mysql-addr "$TB_HOST" -mysql-port "$MYSQL_PORT" -mysql-dbname dbprobe \
      -log-level info ||
      die_with_log "$PSSIM_DIR/ps-http-sim.log" "pssim: failed to start"
    printf '%s\n' "$cfg" >"$PSSIM_DIR/config"
  fi
  wait_alive pssim "$PSSIM_DIR/ps-http-sim.log" "$PSSIM_DIR/ps-http-sim.pid" ps-http-sim port_open "$PSSIM_PORT"
  write_env_lines "$PSSIM_DIR" \
    "$(env_line DBPROBE_TEST_PS_URL "http://dbprobe:$TB_PASSWORD@$TB_HOST:$PSSIM_PORT")"
}

pssim_down() {
  pssim_running || return 0
  stop_pidfile "$PSSIM_DIR/ps-http-sim.pid" ps-http-sim pssim TERM
}

# shellcheck shell=bash
# pgbouncer from Debian in front of our PostgreSQL ("pooled vs direct").
# pool_mode = transaction, the mode hosted poolers (Supabase, Neon, ...) use;
# override with DBPROBE_TESTBED_PGBOUNCER_POOL_MODE=session.
PGBOUNCER_DIR="$TB_DIR/pgbouncer"
PGBOUNCER_POOL_MODE="${DBPROBE_TESTBED_PGBOUNCER_POOL_MODE:-transaction}"

pgbouncer_packages() { echo pgbouncer; }

pgbouncer_running() { pid_alive "$PGBOUNCER_DIR/pgbouncer.pid" pgbouncer; }

pgbouncer_up() {
  local cfg="port=$PGBOUNCER_PORT pg=$PG_PORT mode=$PGBOUNCER_POOL_MODE small=2"
  # pgbouncer refuses to run as root; it runs as postgres, like the server.
  mkdir -p "$PGBOUNCER_DIR"
  chown postgres:postgres "$PGBOUNCER_DIR"
  chmod 700 "$PGBOUNCER_DIR"
  if pgbouncer_running && cfg_matches "$PGBOUNCER_DIR" "$cfg"; then
    log "pgbouncer: reusing running pooler on port $PGBOUNCER_PORT"
  else
    pgbouncer_running && pgbouncer_down
    assert_port_free pgbouncer "$PGBOUNCER_PORT" DBPROBE_TESTBED_PGBOUNCER_PORT
    # Plain-text passwords in auth_file: pgbouncer can then do SCRAM both
    # with the client and with the server. dbprobe may run SHOW STATS/POOLS
    # on the admin console (stats_users), postgres may run everything.
    install -o postgres -g postgres -m 600 /dev/null "$PGBOUNCER_DIR/userlist.txt"
    printf '"dbprobe" "%s"\n"postgres" "%s"\n' "$TB_PASSWORD" "$TB_PASSWORD" >"$PGBOUNCER_DIR/userlist.txt"
    install -o postgres -g postgres -m 600 /dev/null "$PGBOUNCER_DIR/pgbouncer.ini"
    cat >"$PGBOUNCER_DIR/pgbouncer.ini" <<EOF
[databases]
dbprobe = host=$TB_HOST port=$PG_PORT dbname=dbprobe
postgres = host=$TB_HOST port=$PG_PORT dbname=postgres
; a pool of 2 server connections: load sweeps show clients queueing behind it
dbprobe_small = host=$TB_HOST port=$PG_PORT dbname=dbprobe pool_size=2

[pgbouncer]
listen_addr = $TB_HOST
listen_port = $PGBOUNCER_PORT
unix_socket_dir = $PGBOUNCER_DIR
auth_type = scram-sha-256
auth_file = $PGBOUNCER_DIR/userlist.txt
admin_users = postgres
stats_users = dbprobe
pool_mode = $PGBOUNCER_POOL_MODE
max_client_conn = 200
default_pool_size = 20
; drivers (JDBC, some ORMs) send these; pgbouncer would refuse the login
ignore_startup_parameters = extra_float_digits,options
logfile = $PGBOUNCER_DIR/pgbouncer.log
pidfile = $PGBOUNCER_DIR/pgbouncer.pid
EOF
    log "pgbouncer: starting on $TB_HOST:$PGBOUNCER_PORT ($PGBOUNCER_POOL_MODE pooling -> pg $PG_PORT)"
    runuser -u postgres -- pgbouncer -d -q "$PGBOUNCER_DIR/pgbouncer.ini" </dev/null >&2 9>&- ||
      die_with_log "$PGBOUNCER_DIR/pgbouncer.log" "pgbouncer: failed to start"
    printf '%s\n' "$cfg" >"$PGBOUNCER_DIR/config"
  fi
  # A real query through the pooler proves the whole auth chain.
  wait_until pgbouncer "$PGBOUNCER_DIR/pgbouncer.log" pgbouncer_select1
  write_env_lines "$PGBOUNCER_DIR" \
    "$(env_line DBPROBE_TEST_PGBOUNCER_URL "postgres://dbprobe:$TB_PASSWORD@$TB_HOST:$PGBOUNCER_PORT/dbprobe")"
}

pgbouncer_select1() {
  PGPASSWORD="$TB_PASSWORD" PGCONNECT_TIMEOUT=3 psql -X -q -At -h "$TB_HOST" -p "$PGBOUNCER_PORT" \
    -U dbprobe -d dbprobe -c 'select 1' </dev/null | grep -qx 1
}

pgbouncer_down() {
  pgbouncer_running || return 0
  # INT = safe shutdown (waits for queries); TERM would drop them at once.
  stop_pidfile "$PGBOUNCER_DIR/pgbouncer.pid" pgbouncer pgbouncer INT
}

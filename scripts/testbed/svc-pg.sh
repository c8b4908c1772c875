# shellcheck shell=bash
# PostgreSQL 15 from Debian, our own cluster (not the packaged 15/main), run
# as user postgres because postgres refuses to run as root.
PG_DIR="$TB_DIR/pg"

pg_packages() { echo postgresql postgresql-client; }

# Debian's binaries, by full path: /usr/local/bin may hold other postgres
# builds on a developer machine, and CI must behave the same.
pg_bin() {
  local d
  for d in /usr/lib/postgresql/15/bin $(printf '%s\n' /usr/lib/postgresql/*/bin | sort -rV); do
    [ -x "$d/postgres" ] && {
      printf '%s\n' "$d"
      return 0
    }
  done
  return 1
}

as_pg() { runuser -u postgres -- "$@"; }

pg_running() { pid_alive "$PG_DIR/data/postmaster.pid" postgres; }

pg_up() {
  local bin cfg="port=$PG_PORT tls=$(tls_id)"
  bin=$(pg_bin) || die "PostgreSQL server binaries not found under /usr/lib/postgresql"
  mkdir -p "$PG_DIR"
  chown postgres:postgres "$PG_DIR"
  chmod 700 "$PG_DIR"
  runuser -u postgres -- test -w "$PG_DIR" ||
    die "user postgres cannot reach $PG_DIR: put DBPROBE_TESTBED_DIR where every user can traverse"

  if pg_running && cfg_matches "$PG_DIR" "$cfg"; then
    log "pg: reusing running server on port $PG_PORT"
  else
    pg_running && pg_down
    if [ ! -s "$PG_DIR/data/PG_VERSION" ]; then
      log "pg: initdb in $PG_DIR/data"
      rm -rf "$PG_DIR/data"
      # Superuser postgres gets the testbed password too; scram everywhere,
      # so clients really do the SCRAM exchange a cloud server would ask for.
      install -o postgres -g postgres -m 600 /dev/null "$PG_DIR/pwfile"
      printf '%s\n' "$TB_PASSWORD" >"$PG_DIR/pwfile"
      as_pg "$bin/initdb" -D "$PG_DIR/data" -U postgres --auth=scram-sha-256 \
        --pwfile="$PG_DIR/pwfile" --locale=C.UTF-8 --encoding=UTF8 \
        </dev/null >"$PG_DIR/initdb.log" 2>&1 || {
        rm -f "$PG_DIR/pwfile"
        die_with_log "$PG_DIR/initdb.log" "pg: initdb failed"
      }
      rm -f "$PG_DIR/pwfile"
      cat >>"$PG_DIR/data/postgresql.conf" <<EOF

# dbprobe testbed: loopback only, socket inside the state dir
listen_addresses = '$TB_HOST'
unix_socket_directories = '$PG_DIR/run'
max_connections = 200
EOF
    fi
    assert_port_free pg "$PG_PORT" DBPROBE_TESTBED_PG_PORT
    install -d -o postgres -g postgres -m 700 "$PG_DIR/run"
    # TLS on the same port (clients ask for it with SSLRequest; plaintext logins still work). The
    # key must belong to postgres with mode 600, so the server gets its own copy.
    install -o postgres -g postgres -m 644 "$TB_TLS_CERT" "$PG_DIR/server.pem"
    tls_key_for postgres "$PG_DIR/server.key"
    log "pg: starting on $TB_HOST:$PG_PORT (TLS on)"
    # Port and TLS go on the command line so a changed port or an older data dir needs no conf edit.
    as_pg "$bin/pg_ctl" -D "$PG_DIR/data" -l "$PG_DIR/postgres.log" \
      -o "-p $PG_PORT -c ssl=on -c ssl_cert_file=$PG_DIR/server.pem -c ssl_key_file=$PG_DIR/server.key" \
      -w -t "$TB_TIMEOUT" start </dev/null >&2 9>&- ||
      die_with_log "$PG_DIR/postgres.log" "pg: pg_ctl start failed"
    printf '%s\n' "$cfg" >"$PG_DIR/config"
  fi
  wait_until pg "$PG_DIR/postgres.log" "$bin/pg_isready" -q -h "$TB_HOST" -p "$PG_PORT"

  # Neon's proxy asks a client for its password in clear text (over TLS), not for SCRAM: role
  # dbprobe_neon logs in that way, for the neon-ws targets that stand in for Neon. Its line goes first
  # (the first line that matches wins) and stays across restarts; a reload makes it count.
  local hba="$PG_DIR/data/pg_hba.conf" neon_line="host all dbprobe_neon $TB_HOST/32 password"
  if ! grep -qxF "$neon_line" "$hba"; then
    { printf '%s\n' "$neon_line"; cat "$hba"; } >"$hba.new"
    install -o postgres -g postgres -m 600 "$hba.new" "$hba"
    rm -f "$hba.new"
    as_pg "$bin/pg_ctl" -D "$PG_DIR/data" reload </dev/null >&2 9>&- || die "pg: reloading pg_hba.conf failed"
  fi

  # Idempotent provisioning, run every time (cheap) so the role always has
  # the current password. The password goes through stdin, not argv.
  PGPASSWORD="$TB_PASSWORD" "$bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$PG_DIR/run" -p "$PG_PORT" \
    -U postgres -d postgres >/dev/null 2>"$PG_DIR/provision.log" <<EOF || die_with_log "$PG_DIR/provision.log" "pg: provisioning failed"
\\set pw '$TB_PASSWORD'
SELECT 'CREATE ROLE dbprobe LOGIN' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'dbprobe') \\gexec
ALTER ROLE dbprobe WITH LOGIN PASSWORD :'pw';
SELECT 'CREATE ROLE dbprobe_neon LOGIN' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'dbprobe_neon') \\gexec
ALTER ROLE dbprobe_neon WITH LOGIN PASSWORD :'pw';
ALTER ROLE postgres WITH PASSWORD :'pw';
-- lets the probe read pg_stat_activity rows of other sessions
GRANT pg_read_all_stats TO dbprobe;
SELECT 'CREATE DATABASE dbprobe OWNER dbprobe' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'dbprobe') \\gexec
-- FerretDB's authenticating instance (svc-ferretdb.sh) keeps its data here, away from dbprobe's counts
SELECT 'CREATE DATABASE ferretdb OWNER dbprobe' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'ferretdb') \\gexec
EOF

  write_env_lines "$PG_DIR" \
    "$(env_line DBPROBE_TEST_PG_URL "postgres://dbprobe:$TB_PASSWORD@$TB_HOST:$PG_PORT/dbprobe")" \
    "$(env_line DBPROBE_TEST_PG_ADMIN_URL "postgres://postgres:$TB_PASSWORD@$TB_HOST:$PG_PORT/postgres")" \
    "$(env_line DBPROBE_TEST_PG_TLS_URL "postgres://dbprobe:$TB_PASSWORD@$TB_HOST:$PG_PORT/dbprobe?sslmode=verify-full")" \
    "$(env_line DBPROBE_TEST_PG_NEON_URL "postgres://dbprobe_neon:$TB_PASSWORD@$TB_HOST:$PG_PORT/dbprobe")"
}

pg_down() {
  pg_running || return 0
  local bin
  log "pg: stopping"
  if bin=$(pg_bin); then
    as_pg "$bin/pg_ctl" -D "$PG_DIR/data" -m fast -w -t 60 stop </dev/null >&2 && return 0
  fi
  stop_pidfile "$PG_DIR/data/postmaster.pid" postgres pg INT
}

# shellcheck shell=bash
# A PostgreSQL that can be cold, as a Neon compute: its own cluster (never
# `pg`'s), listening only on a unix socket, behind test/fixtures/neonColdMain.ts
# run as a daemon. The daemon serves a TCP front on PGCOLD_PORT that starts
# the cluster on the first connection and holds the client until it accepts,
# and Neon's endpoint API (suspend = pg_ctl stop) on PGCOLD_API_PORT.
PGCOLD_DIR="$TB_DIR/pgcold"
PGCOLD_ROOT=$(cd "$HERE/../.." && pwd)
PGCOLD_PROJECT_ID=dbprobe-cold-project
PGCOLD_ENDPOINT_ID=ep-dbprobe-cold-000001

pgcold_packages() { echo postgresql postgresql-client; }

pgcold_running() { pid_alive "$PGCOLD_DIR/fixture.pid" neon-cold-fixture; }

# One generated key per testbed, like the password; tests assert it never reaches any output.
pgcold_api_key() {
  local f="$PGCOLD_DIR/neon-api-key"
  if [ ! -s "$f" ]; then
    (
      umask 077
      printf 'neon-key-sentinel-%s\n' "$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')" >"$f.tmp"
    )
    mv "$f.tmp" "$f"
  fi
  head -n 1 "$f"
}

pgcold_up() {
  local bin key cfg data="$PGCOLD_DIR/data"
  bin=$(pg_bin) || die "PostgreSQL server binaries not found under /usr/lib/postgresql"
  mkdir -p "$PGCOLD_DIR"
  chown postgres:postgres "$PGCOLD_DIR"
  chmod 711 "$PGCOLD_DIR"
  key=$(pgcold_api_key)
  # The fixture is TypeScript: bundle it to plain JS with the repo's esbuild (about 0.1 s), so the
  # daemon needs nothing but node; a changed fixture changes the config, so it is restarted.
  "$PGCOLD_ROOT/node_modules/.bin/esbuild" "$PGCOLD_ROOT/test/fixtures/neonColdMain.ts" --bundle \
    --platform=node --format=cjs --log-level=warning --outfile="$PGCOLD_DIR/neon-cold-fixture.next.cjs" \
    >&2 || die "pgcold: could not bundle test/fixtures/neonColdMain.ts (run npm ci first)"
  cfg="port=$PGCOLD_PORT api=$PGCOLD_API_PORT bin=$bin fixture=$(sha256sum <"$PGCOLD_DIR/neon-cold-fixture.next.cjs" | cut -c1-16)"

  if pgcold_running && cfg_matches "$PGCOLD_DIR" "$cfg"; then
    log "pgcold: reusing running fixture on port $PGCOLD_PORT (API $PGCOLD_API_PORT)"
  else
    pgcold_running && pgcold_down
    if [ ! -s "$data/PG_VERSION" ]; then
      log "pgcold: initdb in $data"
      rm -rf "$data"
      install -o postgres -g postgres -m 600 /dev/null "$PGCOLD_DIR/pwfile"
      printf '%s\n' "$TB_PASSWORD" >"$PGCOLD_DIR/pwfile"
      as_pg "$bin/initdb" -D "$data" -U postgres --auth=scram-sha-256 \
        --pwfile="$PGCOLD_DIR/pwfile" --locale=C.UTF-8 --encoding=UTF8 \
        </dev/null >"$PGCOLD_DIR/initdb.log" 2>&1 || {
        rm -f "$PGCOLD_DIR/pwfile"
        die_with_log "$PGCOLD_DIR/initdb.log" "pgcold: initdb failed"
      }
      rm -f "$PGCOLD_DIR/pwfile"
      cat >>"$data/postgresql.conf" <<CONF

# dbprobe testbed (pgcold): no TCP at all; the fixture's front is the only way in
listen_addresses = ''
unix_socket_directories = '$PGCOLD_DIR/run'
max_connections = 50
CONF
      # Clients come through the front over the unix socket: scram there too.
      printf 'local all all scram-sha-256\n' >"$data/pg_hba.conf"
    fi
    assert_port_free pgcold "$PGCOLD_PORT" DBPROBE_TESTBED_PGCOLD_PORT
    assert_port_free pgcold-api "$PGCOLD_API_PORT" DBPROBE_TESTBED_PGCOLD_API_PORT
    install -d -o postgres -g postgres -m 755 "$PGCOLD_DIR/run"
    if ! pid_alive "$data/postmaster.pid" postgres; then
      as_pg "$bin/pg_ctl" -D "$data" -l "$PGCOLD_DIR/postgres.log" -o "-p $PGCOLD_PORT" \
        -w -t "$TB_TIMEOUT" start </dev/null >&2 9>&- ||
        die_with_log "$PGCOLD_DIR/postgres.log" "pgcold: pg_ctl start failed"
    fi
    PGPASSWORD="$TB_PASSWORD" "$bin/psql" -X -q -v ON_ERROR_STOP=1 -h "$PGCOLD_DIR/run" -p "$PGCOLD_PORT" \
      -U postgres -d postgres >/dev/null 2>"$PGCOLD_DIR/provision.log" <<SQL || die_with_log "$PGCOLD_DIR/provision.log" "pgcold: provisioning failed"
\\set pw '$TB_PASSWORD'
SELECT 'CREATE ROLE dbprobe LOGIN' WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'dbprobe') \\gexec
ALTER ROLE dbprobe WITH LOGIN PASSWORD :'pw';
ALTER ROLE postgres WITH PASSWORD :'pw';
SELECT 'CREATE DATABASE dbprobe OWNER dbprobe' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'dbprobe') \\gexec
SQL
    mv "$PGCOLD_DIR/neon-cold-fixture.next.cjs" "$PGCOLD_DIR/neon-cold-fixture.cjs"
    log "pgcold: starting fixture: front $TB_HOST:$PGCOLD_PORT, Neon API $TB_HOST:$PGCOLD_API_PORT"
    PGCOLD_BIN_DIR="$bin" PGCOLD_DATA_DIR="$data" PGCOLD_PORT="$PGCOLD_PORT" \
      PGCOLD_LOG_FILE="$PGCOLD_DIR/postgres.log" PGCOLD_NEON_API_KEY="$key" \
      PGCOLD_NEON_PROJECT_ID="$PGCOLD_PROJECT_ID" PGCOLD_NEON_ENDPOINT_ID="$PGCOLD_ENDPOINT_ID" \
      PGCOLD_NEON_API_PORT="$PGCOLD_API_PORT" \
      start_daemon "$PGCOLD_DIR/fixture.pid" "$PGCOLD_DIR/fixture.log" root "$(command -v node)" \
      "$PGCOLD_DIR/neon-cold-fixture.cjs" ||
      die_with_log "$PGCOLD_DIR/fixture.log" "pgcold: fixture failed to start"
    printf '%s\n' "$cfg" >"$PGCOLD_DIR/config"
  fi
  rm -f "$PGCOLD_DIR/neon-cold-fixture.next.cjs"
  wait_alive pgcold "$PGCOLD_DIR/fixture.log" "$PGCOLD_DIR/fixture.pid" neon-cold-fixture port_open "$PGCOLD_API_PORT"
  write_env_lines "$PGCOLD_DIR" \
    "$(env_line DBPROBE_TEST_PG_COLD_URL "postgres://dbprobe:$TB_PASSWORD@$TB_HOST:$PGCOLD_PORT/dbprobe")" \
    "$(env_line DBPROBE_TEST_NEON_API_URL "http://$TB_HOST:$PGCOLD_API_PORT/api/v2")" \
    "$(env_line DBPROBE_TEST_NEON_API_KEY "$key")" \
    "$(env_line DBPROBE_TEST_NEON_PROJECT_ID "$PGCOLD_PROJECT_ID")" \
    "$(env_line DBPROBE_TEST_NEON_ENDPOINT_ID "$PGCOLD_ENDPOINT_ID")" \
    "$(env_line DBPROBE_TEST_PG_COLD_DATA_DIR "$PGCOLD_DIR/data")"
}

pgcold_down() {
  if pgcold_running; then stop_pidfile "$PGCOLD_DIR/fixture.pid" neon-cold-fixture pgcold TERM; fi
  # The fixture stops the cluster on TERM; make sure, in case it was killed.
  if pid_alive "$PGCOLD_DIR/data/postmaster.pid" postgres; then
    local bin
    if bin=$(pg_bin); then
      as_pg "$bin/pg_ctl" -D "$PGCOLD_DIR/data" -m fast -w -t 60 stop </dev/null >&2 && return 0
    fi
    stop_pidfile "$PGCOLD_DIR/data/postmaster.pid" postgres pgcold-postgres INT
  fi
}

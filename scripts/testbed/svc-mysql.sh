# shellcheck shell=bash
# MariaDB from Debian (the MySQL wire protocol), run as user mysql.
MYSQL_DIR="$TB_DIR/mysql"
MYSQL_SOCK="$MYSQL_DIR/run/mysqld.sock"

mysql_packages() { echo mariadb-server mariadb-client; }

mysql_running() { pid_alive "$MYSQL_DIR/mariadbd.pid" mariadbd; }

# Admin client over the unix socket as OS root: root@localhost uses
# unix_socket authentication (mariadb-install-db's default), so root has no
# password and cannot log in over TCP at all.
# shellcheck disable=SC2120
mysql_root() { mariadb --no-defaults --protocol=socket --socket="$MYSQL_SOCK" -uroot "$@"; }

mysql_up() {
  # ps-http-sim holds a MySQL session for each HTTP session it saw until its client goes away: a
  # test of 50 new connections to each of 4 targets (test/integration/projection.test.ts) reaches
  # 212 at once, past MariaDB's 151 and our old 200 ("Too many connections" as HTTP 500s).
  local max_connections=1000
  local cfg="port=$MYSQL_PORT tls=$(tls_id) max_connections=$max_connections"
  id mysql >/dev/null 2>&1 || die "mysql: no user mysql (is mariadb-server installed?)"
  mkdir -p "$MYSQL_DIR"
  chown mysql:mysql "$MYSQL_DIR"
  chmod 750 "$MYSQL_DIR"
  runuser -u mysql -- test -w "$MYSQL_DIR" ||
    die "user mysql cannot reach $MYSQL_DIR: put DBPROBE_TESTBED_DIR where every user can traverse"

  if mysql_running && cfg_matches "$MYSQL_DIR" "$cfg"; then
    log "mysql: reusing running server on port $MYSQL_PORT"
  else
    mysql_running && mysql_down
    if [ ! -d "$MYSQL_DIR/data/mysql" ]; then
      log "mysql: mariadb-install-db in $MYSQL_DIR/data"
      rm -rf "$MYSQL_DIR/data"
      mariadb-install-db --no-defaults --user=mysql --datadir="$MYSQL_DIR/data" --skip-test-db \
        </dev/null >"$MYSQL_DIR/install-db.log" 2>&1 ||
        die_with_log "$MYSQL_DIR/install-db.log" "mysql: mariadb-install-db failed"
    fi
    assert_port_free mysql "$MYSQL_PORT" DBPROBE_TESTBED_MYSQL_PORT
    install -d -o mysql -g mysql -m 755 "$MYSQL_DIR/run" "$MYSQL_DIR/tmp"
    # TLS offered on the same port (clients choose; plaintext logins keep working).
    install -o mysql -g mysql -m 644 "$TB_TLS_CERT" "$MYSQL_DIR/server.pem"
    install -o mysql -g mysql -m 644 "$TB_CA_FILE" "$MYSQL_DIR/ca.pem"
    tls_key_for mysql "$MYSQL_DIR/server.key"
    log "mysql: starting on $TB_HOST:$MYSQL_PORT (TLS offered)"
    # --no-defaults: ignore /etc/mysql so the machine's config cannot leak in.
    # --skip-name-resolve: no reverse DNS on connect, which would add to the
    # very latency we measure; users exist for 127.0.0.1 and localhost.
    start_daemon "$MYSQL_DIR/mariadbd.pid" "$MYSQL_DIR/mariadbd.out" mysql /usr/sbin/mariadbd \
      --no-defaults --datadir="$MYSQL_DIR/data" --socket="$MYSQL_SOCK" \
      --pid-file="$MYSQL_DIR/run/mariadbd.pid" --tmpdir="$MYSQL_DIR/tmp" \
      --log-error="$MYSQL_DIR/mariadb.log" --bind-address="$TB_HOST" --port="$MYSQL_PORT" \
      --skip-name-resolve --max-connections="$max_connections" \
      --ssl-ca="$MYSQL_DIR/ca.pem" --ssl-cert="$MYSQL_DIR/server.pem" --ssl-key="$MYSQL_DIR/server.key" ||
      die_with_log "$MYSQL_DIR/mariadbd.out" "mysql: start-stop-daemon failed"
    printf '%s\n' "$cfg" >"$MYSQL_DIR/config"
  fi
  wait_alive mysql "$MYSQL_DIR/mariadb.log" "$MYSQL_DIR/mariadbd.pid" mariadbd \
    mariadb-admin --no-defaults --protocol=socket --socket="$MYSQL_SOCK" -uroot ping
  wait_for_port mysql "$MYSQL_DIR/mariadb.log" "$MYSQL_PORT"

  # Idempotent, every time. PROCESS lets the app user see other sessions in
  # the process list; SHOW GLOBAL STATUS needs no privilege in MariaDB.
  local u
  {
    echo "CREATE DATABASE IF NOT EXISTS dbprobe;"
    for u in "'dbprobe'@'127.0.0.1'" "'dbprobe'@'localhost'"; do
      echo "CREATE USER IF NOT EXISTS $u IDENTIFIED BY '$TB_PASSWORD';"
      echo "ALTER USER $u IDENTIFIED BY '$TB_PASSWORD';"
      echo "GRANT ALL PRIVILEGES ON dbprobe.* TO $u;"
      echo "GRANT PROCESS ON *.* TO $u;"
    done
  } | mysql_root >/dev/null 2>"$MYSQL_DIR/provision.log" ||
    die_with_log "$MYSQL_DIR/provision.log" "mysql: provisioning failed"

  write_env_lines "$MYSQL_DIR" \
    "$(env_line DBPROBE_TEST_MYSQL_URL "mysql://dbprobe:$TB_PASSWORD@$TB_HOST:$MYSQL_PORT/dbprobe")" \
    "$(env_line DBPROBE_TEST_MYSQL_TLS_URL "mysqls://dbprobe:$TB_PASSWORD@$TB_HOST:$MYSQL_PORT/dbprobe")"
}

mysql_down() {
  mysql_running || return 0
  # TERM = clean shutdown for mariadbd.
  stop_pidfile "$MYSQL_DIR/mariadbd.pid" mariadbd mysql TERM
}

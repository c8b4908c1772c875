# shellcheck shell=bash
# Redis from Debian, with requirepass set to the testbed password so that
# a wrong password is testable.
REDIS_DIR="$TB_DIR/redis"

redis_packages() { echo redis-server redis-tools; }

redis_running() { pid_alive "$REDIS_DIR/redis.pid" redis-server; }

redis_up() {
  local cfg="port=$REDIS_PORT tls-port=$REDIS_TLS_PORT tls=$(tls_id)"
  mkdir -p "$REDIS_DIR"
  chmod 700 "$REDIS_DIR"
  if redis_running && cfg_matches "$REDIS_DIR" "$cfg"; then
    log "redis: reusing running server on port $REDIS_PORT"
  else
    redis_running && redis_down
    assert_port_free redis "$REDIS_PORT" DBPROBE_TESTBED_REDIS_PORT
    assert_port_free redis-tls "$REDIS_TLS_PORT" DBPROBE_TESTBED_REDIS_TLS_PORT
    # Config in a file, not argv, so the password does not show in `ps`.
    # No persistence: the testbed is throwaway and fsyncs would add noise.
    (
      umask 077
      cat >"$REDIS_DIR/redis.conf" <<EOF
bind $TB_HOST
port $REDIS_PORT
protected-mode yes
daemonize yes
pidfile $REDIS_DIR/redis.pid
logfile $REDIS_DIR/redis.log
dir $REDIS_DIR
save ""
appendonly no
requirepass $TB_PASSWORD
# TLS on its own port (Redis cannot mix plaintext and TLS on one); no client certificates.
tls-port $REDIS_TLS_PORT
tls-cert-file $TB_TLS_CERT
tls-key-file $TB_TLS_KEY
tls-ca-cert-file $TB_CA_FILE
tls-auth-clients no
EOF
    )
    log "redis: starting on $TB_HOST:$REDIS_PORT (TLS on $REDIS_TLS_PORT)"
    redis-server "$REDIS_DIR/redis.conf" </dev/null >&2 9>&- ||
      die_with_log "$REDIS_DIR/redis.log" "redis: redis-server failed to start"
    printf '%s\n' "$cfg" >"$REDIS_DIR/config"
  fi
  wait_until redis "$REDIS_DIR/redis.log" redis_ping
  write_env_lines "$REDIS_DIR" \
    "$(env_line DBPROBE_TEST_REDIS_URL "redis://:$TB_PASSWORD@$TB_HOST:$REDIS_PORT")" \
    "$(env_line DBPROBE_TEST_REDIS_TLS_URL "rediss://:$TB_PASSWORD@$TB_HOST:$REDIS_TLS_PORT")"
}

# REDISCLI_AUTH keeps the password off the command line.
redis_ping() {
  [ "$(REDISCLI_AUTH="$TB_PASSWORD" redis-cli --no-auth-warning -h "$TB_HOST" -p "$REDIS_PORT" ping 2>/dev/null)" = PONG ]
}

redis_down() {
  redis_running || return 0
  stop_pidfile "$REDIS_DIR/redis.pid" redis-server redis TERM
}

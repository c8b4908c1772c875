# shellcheck shell=bash
# A provider's edge: nginx (Debian's nginx-light) as a TLS + HTTP/2 front, with the testbed's
# certificate, before ps-http-sim and the HTTP stand-ins of test/fixtures/ (Neon's SQL over HTTP,
# Hrana, Upstash REST, a PostgREST-like API), which run as one daemon
# (test/fixtures/httpFrontStandIns.ts, bundled like pgcold's fixture) on ports it picks. Each
# upstream gets its own TLS port; a client offering h2 in ALPN speaks HTTP/2, one offering only
# http/1.1 speaks HTTP/1.1 on the same port. Every server writes an access log with nginx's
# connection serial number and protocol, and a plain status port (nginx's stub_status) counts the
# TCP connections the fronts accepted, so tests check both at the server side.
H2FRONT_DIR="$TB_DIR/h2front"
H2FRONT_ROOT=$(cd "$HERE/../.." && pwd)

h2front_packages() { echo nginx-light; }

h2front_running() {
  pid_alive "$H2FRONT_DIR/standins.pid" http-front-standins && pid_alive "$H2FRONT_DIR/nginx.pid" nginx
}

# name:port of each front, in a fixed order (the env below and the nginx servers follow it).
h2front_fronts() {
  echo "ps:$H2FRONT_PS_PORT neonHttp:$H2FRONT_NEON_HTTP_PORT hrana:$H2FRONT_LIBSQL_PORT upstash:$H2FRONT_UPSTASH_PORT rest:$H2FRONT_REST_PORT"
}

# The stand-ins' daemon: bundled to plain JS (its native modules, libsql's, load from the repo's
# node_modules through NODE_PATH); restarted when the bundle or its backends change.
h2front_standins_up() {
  local cfg
  "$H2FRONT_ROOT/node_modules/.bin/esbuild" "$H2FRONT_ROOT/test/fixtures/httpFrontStandIns.ts" --bundle \
    --platform=node --format=cjs --log-level=warning --outfile="$H2FRONT_DIR/http-front-standins.next.cjs" \
    >&2 || die "h2front: could not bundle test/fixtures/httpFrontStandIns.ts (run npm ci first)"
  cfg="pg=$PG_PORT redis=$REDIS_PORT fixture=$(sha256sum <"$H2FRONT_DIR/http-front-standins.next.cjs" | cut -c1-16)"
  if pid_alive "$H2FRONT_DIR/standins.pid" http-front-standins && [ -s "$H2FRONT_DIR/ports.json" ] &&
    [ "$(cat "$H2FRONT_DIR/standins.config" 2>/dev/null)" = "$cfg" ]; then
    rm -f "$H2FRONT_DIR/http-front-standins.next.cjs"
    log "h2front: reusing running HTTP stand-ins"
    return 0
  fi
  stop_pidfile "$H2FRONT_DIR/standins.pid" http-front-standins h2front-standins TERM
  rm -f "$H2FRONT_DIR/ports.json"
  mv "$H2FRONT_DIR/http-front-standins.next.cjs" "$H2FRONT_DIR/http-front-standins.cjs"
  log "h2front: starting the HTTP stand-ins (backed by pg and redis)"
  NODE_PATH="$H2FRONT_ROOT/node_modules" H2FRONT_PORTS_FILE="$H2FRONT_DIR/ports.json" \
    H2FRONT_PG_URL="postgres://dbprobe:$TB_PASSWORD@$TB_HOST:$PG_PORT/dbprobe" \
    H2FRONT_REDIS_URL="redis://:$TB_PASSWORD@$TB_HOST:$REDIS_PORT" H2FRONT_TOKEN="$TB_PASSWORD" \
    H2FRONT_SQLITE_FILE="$H2FRONT_DIR/libsql.db" \
    start_daemon "$H2FRONT_DIR/standins.pid" "$H2FRONT_DIR/standins.log" root "$(command -v node)" \
    "$H2FRONT_DIR/http-front-standins.cjs" ||
    die_with_log "$H2FRONT_DIR/standins.log" "h2front: the HTTP stand-ins failed to start"
  wait_alive h2front-standins "$H2FRONT_DIR/standins.log" "$H2FRONT_DIR/standins.pid" http-front-standins \
    test -s "$H2FRONT_DIR/ports.json"
  printf '%s\n' "$cfg" >"$H2FRONT_DIR/standins.config"
}

# The upstream port of one front, from the stand-ins' ports.json (ps-http-sim's is fixed).
h2front_upstream() { # NAME
  if [ "$1" = ps ]; then
    echo "$PSSIM_PORT"
  else
    node -e 'process.stdout.write(String(JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"))[process.argv[2]]))' \
      "$H2FRONT_DIR/ports.json" "$1"
  fi
}

h2front_conf() {
  local front name port upstream
  cat <<CONF
# written by scripts/testbed/svc-h2front.sh
daemon off;
user root root;
worker_processes 1;
pid $H2FRONT_DIR/nginx.pid;
error_log $H2FRONT_DIR/error.log warn;
events { worker_connections 1024; }
http {
  client_body_temp_path $H2FRONT_DIR/tmp/body;
  proxy_temp_path $H2FRONT_DIR/tmp/proxy;
  fastcgi_temp_path $H2FRONT_DIR/tmp/fastcgi;
  uwsgi_temp_path $H2FRONT_DIR/tmp/uwsgi;
  scgi_temp_path $H2FRONT_DIR/tmp/scgi;
  # \$connection: the serial number of the client's TCP connection; \$uri has no query string.
  log_format dbprobe '\$connection \$connection_requests \$server_protocol \$ssl_protocol \$status \$request_method \$uri';
  ssl_certificate $TB_TLS_CERT;
  ssl_certificate_key $TB_TLS_KEY;
  ssl_protocols TLSv1.2 TLSv1.3;
  keepalive_timeout 60s;
CONF
  for front in $(h2front_fronts); do
    name=${front%%:*}
    port=${front##*:}
    upstream=$(h2front_upstream "$name")
    cat <<CONF
  upstream $name { server $TB_HOST:$upstream; keepalive 8; }
  server {
    listen $TB_HOST:$port ssl http2;
    access_log $H2FRONT_DIR/$name.access.log dbprobe;
    location / {
      proxy_pass http://$name;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host \$host;
      proxy_buffering off;
    }
  }
CONF
  done
  # Accepted client connections of every front (stub_status "accepts"): a connection that never
  # sent a request is in no access log, but it is counted here.
  cat <<CONF
  server {
    listen $TB_HOST:$H2FRONT_STATUS_PORT;
    access_log off;
    location = /status { stub_status; }
  }
}
CONF
}

h2front_up() {
  local cfg front
  mkdir -p "$H2FRONT_DIR/tmp"
  h2front_standins_up
  h2front_conf >"$H2FRONT_DIR/nginx.conf.next"
  cfg="nginx=$(sha256sum <"$H2FRONT_DIR/nginx.conf.next" | cut -c1-16) tls=$(tls_id)"
  if pid_alive "$H2FRONT_DIR/nginx.pid" nginx && cfg_matches "$H2FRONT_DIR" "$cfg"; then
    log "h2front: reusing running nginx"
    rm -f "$H2FRONT_DIR/nginx.conf.next"
  else
    stop_pidfile "$H2FRONT_DIR/nginx.pid" nginx h2front-nginx QUIT
    for front in $(h2front_fronts) "status:$H2FRONT_STATUS_PORT"; do
      assert_port_free "h2front ${front%%:*}" "${front##*:}" DBPROBE_TESTBED_H2FRONT_PORTS
    done
    mv "$H2FRONT_DIR/nginx.conf.next" "$H2FRONT_DIR/nginx.conf"
    /usr/sbin/nginx -t -q -c "$H2FRONT_DIR/nginx.conf" -p "$H2FRONT_DIR" >"$H2FRONT_DIR/nginx-t.log" 2>&1 ||
      die_with_log "$H2FRONT_DIR/nginx-t.log" "h2front: nginx refused its config"
    log "h2front: starting nginx (TLS + HTTP/2) on ports $(h2front_fronts)"
    # nginx writes its own pid file (master process); start-stop-daemon only detaches it.
    printf '=== %s dbprobe testbed: starting nginx\n' "$(date -u +%FT%TZ)" >>"$H2FRONT_DIR/nginx.log"
    start-stop-daemon --start --quiet --background --output "$H2FRONT_DIR/nginx.log" \
      --exec /usr/sbin/nginx -- -c "$H2FRONT_DIR/nginx.conf" -p "$H2FRONT_DIR" </dev/null >&2 9>&- ||
      die_with_log "$H2FRONT_DIR/error.log" "h2front: nginx failed to start"
    wait_until h2front "$H2FRONT_DIR/nginx.log" pid_of "$H2FRONT_DIR/nginx.pid"
    printf '%s\n' "$cfg" >"$H2FRONT_DIR/config"
  fi
  for front in $(h2front_fronts); do
    wait_alive h2front "$H2FRONT_DIR/nginx.log" "$H2FRONT_DIR/nginx.pid" nginx port_open "${front##*:}"
  done
  local base="$TB_HOST"
  write_env_lines "$H2FRONT_DIR" \
    "$(env_line DBPROBE_TEST_H2_PS_URL "https://dbprobe:$TB_PASSWORD@$base:$H2FRONT_PS_PORT")" \
    "$(env_line DBPROBE_TEST_H2_NEON_HTTP_ENDPOINT "https://$base:$H2FRONT_NEON_HTTP_PORT/sql")" \
    "$(env_line DBPROBE_TEST_H2_LIBSQL_URL "https://$base:$H2FRONT_LIBSQL_PORT?authToken=$TB_PASSWORD")" \
    "$(env_line DBPROBE_TEST_H2_UPSTASH_URL "https://default:$TB_PASSWORD@$base:$H2FRONT_UPSTASH_PORT")" \
    "$(env_line DBPROBE_TEST_H2_REST_URL "https://apikey:$TB_PASSWORD@$base:$H2FRONT_REST_PORT/rest/v1")" \
    "$(env_line DBPROBE_TEST_H2_FRONT_LOG_DIR "$H2FRONT_DIR")" \
    "$(env_line DBPROBE_TEST_H2_FRONT_STATUS_URL "http://$base:$H2FRONT_STATUS_PORT/status")"
}

h2front_down() {
  stop_pidfile "$H2FRONT_DIR/nginx.pid" nginx h2front-nginx QUIT
  stop_pidfile "$H2FRONT_DIR/standins.pid" http-front-standins h2front-standins TERM
}

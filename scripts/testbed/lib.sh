# shellcheck shell=bash
# shellcheck disable=SC2034 # the settings below are used by the scripts that source this file
# Shared helpers for scripts/testbed/*.sh. Sourced, never run on its own.
#
# Rule for every script here: stdout carries ONLY `export NAME='value'` lines
# (so callers can `eval "$(bash scripts/testbed/up.sh)"`); everything a human
# should read goes to stderr through log/die.

TB_DIR="${DBPROBE_TESTBED_DIR:-/tmp/dbprobe-testbed}"
TB_CACHE="${DBPROBE_CACHE_DIR:-${HOME:-/root}/.cache/dbprobe}"
# Seconds to wait for one server to answer after it was started.
TB_TIMEOUT="${DBPROBE_TESTBED_TIMEOUT:-60}"
TB_HOST=127.0.0.1

# Fixed ports, far from the defaults so a packaged server on 5432/3306/6379
# never gets in the way, and below Linux's ephemeral range (32768-60999 by
# default): a port in that range can be held by an outgoing connection's
# TIME-WAIT socket after a day of runs, and a server then cannot bind it.
# Each can be moved with DBPROBE_TESTBED_<SVC>_PORT; up.sh warns of a port the
# machine's own range (net.ipv4.ip_local_port_range) covers.
PG_PORT="${DBPROBE_TESTBED_PG_PORT:-24432}"
MYSQL_PORT="${DBPROBE_TESTBED_MYSQL_PORT:-22306}"
REDIS_PORT="${DBPROBE_TESTBED_REDIS_PORT:-25379}"
PGBOUNCER_PORT="${DBPROBE_TESTBED_PGBOUNCER_PORT:-25432}"
WEBSOCKIFY_PORT="${DBPROBE_TESTBED_WEBSOCKIFY_PORT:-24433}"
FERRETDB_PORT="${DBPROBE_TESTBED_FERRETDB_PORT:-26017}"
FERRETDB_DEBUG_PORT="${DBPROBE_TESTBED_FERRETDB_DEBUG_PORT:-26018}"
FERRETDB_AUTH_PORT="${DBPROBE_TESTBED_FERRETDB_AUTH_PORT:-26020}"
FERRETDB_AUTH_DEBUG_PORT="${DBPROBE_TESTBED_FERRETDB_AUTH_DEBUG_PORT:-26021}"
PSSIM_PORT="${DBPROBE_TESTBED_PSSIM_PORT:-27080}"
TOXIPROXY_PORT="${DBPROBE_TESTBED_TOXIPROXY_PORT:-27474}"
PGCOLD_PORT="${DBPROBE_TESTBED_PGCOLD_PORT:-24435}"
PGCOLD_API_PORT="${DBPROBE_TESTBED_PGCOLD_API_PORT:-27476}"
# jaeger (an OTLP receiver): OTLP over HTTP, the query API, its gRPC twin (bound so it takes no
# default port), the Prometheus exporter of the metrics it receives, and its health check.
JAEGER_OTLP_PORT="${DBPROBE_TESTBED_JAEGER_OTLP_PORT:-23318}"
JAEGER_QUERY_PORT="${DBPROBE_TESTBED_JAEGER_QUERY_PORT:-25686}"
JAEGER_QUERY_GRPC_PORT="${DBPROBE_TESTBED_JAEGER_QUERY_GRPC_PORT:-25685}"
JAEGER_METRICS_PORT="${DBPROBE_TESTBED_JAEGER_METRICS_PORT:-27889}"
JAEGER_HEALTH_PORT="${DBPROBE_TESTBED_JAEGER_HEALTH_PORT:-22133}"
# TLS ports of the servers that cannot take TLS and plaintext on one port (PostgreSQL and MariaDB
# negotiate TLS on their usual port, so they need none).
REDIS_TLS_PORT="${DBPROBE_TESTBED_REDIS_TLS_PORT:-25380}"
WEBSOCKIFY_TLS_PORT="${DBPROBE_TESTBED_WEBSOCKIFY_TLS_PORT:-24434}"
FERRETDB_TLS_PORT="${DBPROBE_TESTBED_FERRETDB_TLS_PORT:-26019}"
# The nginx TLS + HTTP/2 front (h2front): one port per upstream, from DBPROBE_TESTBED_H2FRONT_PORTS
# on (ps-http-sim, Neon HTTP, libSQL HTTP, Upstash, REST, then nginx's plain status port).
H2FRONT_PS_PORT="${DBPROBE_TESTBED_H2FRONT_PORTS:-27443}"
H2FRONT_NEON_HTTP_PORT=$((H2FRONT_PS_PORT + 1))
H2FRONT_LIBSQL_PORT=$((H2FRONT_PS_PORT + 2))
H2FRONT_UPSTASH_PORT=$((H2FRONT_PS_PORT + 3))
H2FRONT_REST_PORT=$((H2FRONT_PS_PORT + 4))
H2FRONT_STATUS_PORT=$((H2FRONT_PS_PORT + 5))

# Every port setting above, by name: for the ephemeral-range check and its test.
tb_port_names() {
  compgen -v | grep -E '_PORTS?$' | grep -vE '^(DBPROBE_)' || true
}

# A port inside the machine's ephemeral range can be held by an outgoing connection's TIME-WAIT
# socket (Linux reuses local ports per destination), and a server then cannot bind it: say which.
warn_ephemeral_ports() {
  local range low high name port
  range=$(cat /proc/sys/net/ipv4/ip_local_port_range 2>/dev/null) || return 0
  read -r low high <<<"$range"
  for name in $(tb_port_names); do
    port=${!name}
    if [ "$port" -ge "$low" ] && [ "$port" -le "$high" ]; then
      log "warning: $name $port is inside this machine's ephemeral port range ($low-$high): an outgoing connection can hold it; move it below $low"
    fi
  done
}

# Canonical order = start order (dependencies first); down.sh walks it backwards.
TB_ALL_SERVICES="pg mysql redis pgbouncer websockify ferretdb pssim toxiproxy pgcold h2front jaeger"

log() { printf '[testbed] %s\n' "$*" >&2; }
die() {
  printf '[testbed] ERROR: %s\n' "$*" >&2
  exit 1
}

# Show the end of a log file on stderr, then fail naming it.
die_with_log() { # LOGFILE MESSAGE
  if [ -s "$1" ]; then
    printf '[testbed] --- last lines of %s ---\n' "$1" >&2
    tail -n 25 "$1" >&2 || true
    printf '[testbed] ---\n' >&2
  fi
  die "$2 (log: $1)"
}

require_root() {
  [ "$(id -u)" -eq 0 ] || die "the testbed scripts run as root (apt-get, runuser, chown); got uid $(id -u)"
}

# ---------------------------------------------------------------- apt

pkg_installed() {
  dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q '^install ok installed$'
}

TB_POLICY_CREATED=0
# Remove the temporary policy-rc.d if we are interrupted mid-install.
tb_apt_cleanup() {
  if [ "$TB_POLICY_CREATED" = 1 ]; then
    rm -f /usr/sbin/policy-rc.d
    TB_POLICY_CREATED=0
  fi
}

# Install the Debian packages that are missing, in ONE apt-get run, and run
# `apt-get update` only when something has to be installed.
ensure_apt() {
  local missing=() p rc=0
  for p in "$@"; do pkg_installed "$p" || missing+=("$p"); done
  [ "${#missing[@]}" -eq 0 ] && return 0
  mkdir -p "$TB_DIR"
  local aptlog="$TB_DIR/apt.log"
  log "installing Debian packages: ${missing[*]} (about 20-40 s; log: $aptlog)"
  export DEBIAN_FRONTEND=noninteractive
  # The packages' postinst scripts would start their own servers on the
  # default ports (mariadb on 3306, redis on 6379, ...). We run our own
  # instances, so forbid service starts during the install, the usual
  # container trick, unless such a policy is already in place.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\n# temporary, from dbprobe scripts/testbed\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod 755 /usr/sbin/policy-rc.d
    TB_POLICY_CREATED=1
  fi
  {
    apt-get update -q &&
      apt-get install -y -q --no-install-recommends \
        -o DPkg::Lock::Timeout=300 \
        -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold \
        "${missing[@]}"
  } </dev/null >"$aptlog" 2>&1 || rc=$?
  tb_apt_cleanup
  [ "$rc" -eq 0 ] || die_with_log "$aptlog" "apt-get install ${missing[*]} failed (exit $rc)"
}

# ---------------------------------------------------------------- processes

# First line of a pid file, digits only; fails when there is none.
pid_of() {
  local pid
  [ -s "$1" ] || return 1
  pid=$(head -n 1 "$1" | tr -dc '0-9')
  [ -n "$pid" ] && printf '%s\n' "$pid"
}

# True when the pid file names a live process whose command line contains
# PATTERN (so a stale pid reused by some other program is not mistaken for
# our server after a reboot).
pid_alive() { # PIDFILE PATTERN
  local pid
  pid=$(pid_of "$1") || return 1
  [ -r "/proc/$pid/cmdline" ] || return 1
  tr '\0' ' ' <"/proc/$pid/cmdline" 2>/dev/null | grep -q -- "$2"
}

# Gone, or a zombie waiting for a slow reaper (PID 1 in a container).
proc_gone() {
  local state
  state=$(sed -n 's/^State:[[:space:]]*\([A-Z]\).*/\1/p' "/proc/$1/status" 2>/dev/null) || return 0
  [ -z "$state" ] || [ "$state" = Z ]
}

# Stop the process of a pid file: TERM (or SIG), wait, then KILL. Idempotent.
stop_pidfile() { # PIDFILE PATTERN NAME [SIG]
  local pidfile=$1 pattern=$2 name=$3 sig=${4:-TERM} pid i
  if ! pid_alive "$pidfile" "$pattern"; then
    rm -f "$pidfile"
    return 0
  fi
  pid=$(pid_of "$pidfile")
  log "stopping $name (pid $pid)"
  kill "-$sig" "$pid" 2>/dev/null || true
  for _ in $(seq 1 150); do
    proc_gone "$pid" && break
    sleep 0.1
  done
  if ! proc_gone "$pid"; then
    log "$name did not stop in 15 s, killing it"
    kill -KILL "$pid" 2>/dev/null || true
    sleep 0.5
  fi
  rm -f "$pidfile"
}

# Start a foreground program as a daemon: detached, stdin from /dev/null and
# stdout/stderr to LOG (so no caller's pipe is held open), pid in PIDFILE.
start_daemon() { # PIDFILE LOG USER PROGRAM [ARGS...]
  local pidfile=$1 logfile=$2 user=$3
  shift 3
  local chuid=()
  [ "$user" = root ] || chuid=(--chuid "$user")
  # The log is appended to across restarts; mark where this start begins.
  printf '=== %s dbprobe testbed: starting %s\n' "$(date -u +%FT%TZ)" "$1" >>"$logfile"
  start-stop-daemon --start --quiet --background --make-pidfile \
    --pidfile "$pidfile" --output "$logfile" "${chuid[@]}" \
    --startas "$1" -- "${@:2}" </dev/null >&2 9>&- || return 1
  # start-stop-daemon may return before the child has written the pid file.
  local _
  for _ in $(seq 1 50); do
    pid_of "$pidfile" >/dev/null && return 0
    sleep 0.1
  done
  log "no pid in $pidfile after 5 s"
  return 1
}

# ---------------------------------------------------------------- waiting

port_open() { # PORT
  timeout 2 bash -c "exec 3<>/dev/tcp/$TB_HOST/$1" 2>/dev/null
}

# Retry CMD until it succeeds, at most TB_TIMEOUT seconds; fail naming LOG.
wait_until() { # NAME LOG CMD [ARGS...]
  local name=$1 logfile=$2
  shift 2
  local deadline=$((SECONDS + TB_TIMEOUT))
  until "$@" >/dev/null 2>&1; do
    if [ "$SECONDS" -ge "$deadline" ]; then
      die_with_log "$logfile" "$name did not answer within ${TB_TIMEOUT}s"
    fi
    sleep 0.2
  done
}

wait_for_port() { # NAME LOG PORT
  wait_until "$1" "$2" port_open "$3"
}

# Like wait_until, but fail at once if the daemon has already exited (a bad
# flag, a port taken): no point in waiting the whole timeout.
wait_alive() { # NAME LOG PIDFILE PATTERN CMD [ARGS...]
  local name=$1 logfile=$2 pidfile=$3 pattern=$4 pid
  shift 4
  pid_alive "$pidfile" "$pattern" || sleep 0.5 # let exec() replace the command line
  pid_alive "$pidfile" "$pattern" || die_with_log "$logfile" "$name exited during start-up"
  pid=$(pid_of "$pidfile")
  local deadline=$((SECONDS + TB_TIMEOUT))
  until "$@" >/dev/null 2>&1; do
    proc_gone "$pid" && die_with_log "$logfile" "$name exited during start-up"
    if [ "$SECONDS" -ge "$deadline" ]; then
      die_with_log "$logfile" "$name did not answer within ${TB_TIMEOUT}s"
    fi
    sleep 0.2
  done
}

# Refuse to start on a port some other program already holds: a test talking
# to a stranger would give nonsense results.
assert_port_free() { # NAME PORT ENVVAR
  if port_open "$2"; then
    die "$1: port $TB_HOST:$2 is already in use by a program this testbed did not start; stop it or set $3"
  fi
}

# ---------------------------------------------------------------- state

# One generated password per testbed, kept in the state dir. It doubles as a
# sentinel: tests assert that no probe output ever contains it.
tb_password() {
  local f="$TB_DIR/password"
  if [ ! -s "$f" ]; then
    local d
    for d in pg/data mysql/data; do
      [ -e "$TB_DIR/$d" ] &&
        die "$TB_DIR/$d exists but $f is gone, so its password is unknown; run scripts/testbed/down.sh --wipe"
    done
    (
      umask 077
      printf 'dbprobe-sentinel-%s\n' "$(od -An -N8 -tx1 /dev/urandom | tr -d ' \n')" >"$f.tmp"
    )
    mv "$f.tmp" "$f"
  fi
  TB_PASSWORD=$(head -n 1 "$f")
  [[ "$TB_PASSWORD" =~ ^dbprobe-sentinel-[0-9a-f]{16}$ ]] || die "unexpected content in $f; run down.sh --wipe"
}

# The state dir must be traversable by the postgres and mysql users, who own
# the data dirs below it.
tb_init_dir() {
  umask 022
  mkdir -p "$TB_DIR"
  chmod 755 "$TB_DIR"
}

# Serialise up.sh/down.sh runs on one state dir (fd 9 stays open until exit).
# Every server is started with `9>&-`: a daemon that inherited fd 9 would
# hold the lock for as long as it runs and block every later up.sh/down.sh.
tb_lock() {
  exec 9>>"$TB_DIR/.lock"
  if ! flock -n 9; then
    log "waiting for another up.sh/down.sh on $TB_DIR"
    flock -w 900 9 || die "could not lock $TB_DIR/.lock in 900 s; open in:$(lock_holders)"
  fi
}

lock_holders() {
  local fd pids=""
  for fd in /proc/[0-9]*/fd/*; do
    [ "$(readlink "$fd" 2>/dev/null)" = "$TB_DIR/.lock" ] || continue
    fd=${fd#/proc/}
    fd=${fd%%/*}
    # ourselves (and this subshell) hold fd 9 too, without the lock
    [ "$fd" = "$$" ] || [ "$fd" = "$BASHPID" ] || pids="$pids $fd($(cat "/proc/$fd/comm" 2>/dev/null))"
  done
  printf '%s\n' "${pids:- none found}"
}

# Record what a service was started with; a running server is reused only
# when the configuration asked for now is the same.
cfg_matches() { [ -f "$1/config" ] && [ "$(cat "$1/config")" = "$2" ]; }

# export lines of one service, kept in its folder so that env.sh can list
# every service that is running, whichever up.sh call started it.
write_env_lines() { # SVCDIR LINE...
  local dir=$1
  shift
  printf '%s\n' "$@" >"$dir/env.lines"
}

# What every up.sh prints: the password and the TLS files (the server certificate and key too, for
# the HTTP stand-ins and TLS fronts that tests start themselves).
tb_common_env() {
  env_line DBPROBE_TEST_PASSWORD "$TB_PASSWORD"
  echo
  env_line DBPROBE_TEST_CA_FILE "$TB_CA_FILE"
  echo
  env_line DBPROBE_TEST_WRONG_CA_FILE "$TB_WRONG_CA_FILE"
  echo
  env_line DBPROBE_TEST_TLS_CERT_FILE "$TB_TLS_CERT"
  echo
  env_line DBPROBE_TEST_TLS_KEY_FILE "$TB_TLS_KEY"
  echo
}

env_line() { printf "export %s='%s'" "$1" "$2"; }

# ---------------------------------------------------------------- TLS

# A local CA and one server certificate (subjectAltName 127.0.0.1 and localhost) that every server
# uses, made once per state dir with openssl and reused while present and valid for 30 more days.
# Also a second, unrelated CA: tests point clients at it to see a wrong CA fail as class tls.
# Sets TB_TLS_DIR, TB_CA_FILE, TB_WRONG_CA_FILE, TB_TLS_CERT, TB_TLS_KEY.
tb_tls() {
  TB_TLS_DIR="$TB_DIR/tls"
  TB_CA_FILE="$TB_TLS_DIR/ca.pem"
  TB_WRONG_CA_FILE="$TB_TLS_DIR/wrong-ca.pem"
  TB_TLS_CERT="$TB_TLS_DIR/server.pem"
  TB_TLS_KEY="$TB_TLS_DIR/server.key"
  if [ -s "$TB_CA_FILE" ] && [ -s "$TB_WRONG_CA_FILE" ] && [ -s "$TB_TLS_KEY" ] &&
    openssl x509 -noout -checkend 2592000 -in "$TB_TLS_CERT" >/dev/null 2>&1 &&
    openssl verify -CAfile "$TB_CA_FILE" "$TB_TLS_CERT" >/dev/null 2>&1; then
    return 0
  fi
  log "tls: making a local CA and a server certificate for $TB_HOST and localhost in $TB_TLS_DIR"
  local tmp="$TB_TLS_DIR/.new" ossl="$TB_TLS_DIR/openssl.log"
  rm -rf "$tmp"
  mkdir -p "$tmp"
  chmod 755 "$TB_TLS_DIR"
  (
    set -e
    umask 077
    cd "$tmp"
    # P-256 keys: what most hosted databases and Let's Encrypt serve, and quick to make.
    for ca in ca wrong-ca; do
      openssl req -x509 -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -sha256 -days 3650 \
        -subj "/CN=dbprobe testbed $ca $(date -u +%FT%TZ)" -keyout "$ca.key" -out "$ca.pem" \
        -addext "basicConstraints=critical,CA:TRUE" -addext "keyUsage=critical,keyCertSign,cRLSign"
    done
    openssl req -new -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -sha256 \
      -subj "/CN=localhost" -keyout server.key -out server.csr
    printf '%s\n' "basicConstraints=critical,CA:FALSE" "keyUsage=critical,digitalSignature" \
      "extendedKeyUsage=serverAuth" "subjectAltName=IP:$TB_HOST,DNS:localhost" >server.ext
    openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -sha256 -days 825 \
      -extfile server.ext -out server.pem
    openssl verify -CAfile ca.pem server.pem
    chmod 644 ca.pem wrong-ca.pem server.pem
  ) </dev/null >"$ossl" 2>&1 || die_with_log "$ossl" "tls: openssl could not make the testbed certificates"
  mv -f "$tmp"/ca.pem "$tmp"/ca.key "$tmp"/wrong-ca.pem "$tmp"/server.pem "$tmp"/server.key "$TB_TLS_DIR/"
  rm -rf "$tmp"
}

# Short id of the server certificate, recorded in each server's config so a new certificate restarts it.
tls_id() { sha256sum "$TB_TLS_CERT" | cut -c1-16; }

# A copy of the server key owned by USER with mode 600 (PostgreSQL insists; MariaDB runs as mysql).
tls_key_for() { # USER DEST
  install -o "$1" -g "$1" -m 600 "$TB_TLS_KEY" "$2"
}

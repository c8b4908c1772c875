#!/usr/bin/env bash
# Start the real servers the tests use, all on 127.0.0.1.
#   bash scripts/testbed/up.sh [SERVICE...]     (default: all of them)
#   eval "$(bash scripts/testbed/up.sh pg redis)"
# Services: pg mysql redis pgbouncer websockify ferretdb pssim toxiproxy pgcold h2front jaeger
# (pgbouncer, websockify and ferretdb bring pg, pssim brings mysql, h2front brings
# pg, redis, mysql and pssim).
#
# Idempotent: installs only missing Debian packages, builds the Go servers
# once per machine (cached in $DBPROBE_CACHE_DIR), and reuses servers a
# previous up.sh started. stdout: only `export NAME='value'` lines, for the
# services asked for; the same plus any other running testbed service go to
# $DBPROBE_TESTBED_DIR/env.sh. Everything else goes to stderr.
set -euo pipefail
# Close what the caller left open (fd 255 is bash reading this script): the servers started here
# outlive it, and one that inherited a caller's lock, as `flock LOCK bash -c '...; up.sh'` passes
# its lock file, would hold that lock until the server stops (seen: every other flock waited).
for fd in /proc/$$/fd/*; do
  fd=${fd##*/}
  if [ "$fd" -gt 2 ] && [ "$fd" -ne 255 ]; then eval "exec $fd>&-" 2>/dev/null || true; fi
done
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$HERE/lib.sh"
for s in $TB_ALL_SERVICES; do
  # shellcheck source=/dev/null
  . "$HERE/svc-$s.sh"
done
warn_ephemeral_ports

usage() { sed -n '2,7s/^# \{0,1\}//p' "$0" >&2; }

requested=()
for a in "$@"; do
  case "$a" in
    -h | --help)
      usage
      exit 0
      ;;
    *)
      [[ " $TB_ALL_SERVICES " == *" $a "* ]] || {
        usage
        die "unknown service '$a'"
      }
      requested+=("$a")
      ;;
  esac
done
[ "${#requested[@]}" -gt 0 ] || read -r -a requested <<<"$TB_ALL_SERVICES"

# Add the dependencies, then order everything by TB_ALL_SERVICES.
declare -A want=()
for s in "${requested[@]}"; do
  want[$s]=1
  case "$s" in
    pgbouncer | websockify | ferretdb) want[pg]=1 ;;
    pssim) want[mysql]=1 ;;
    h2front) want[pg]=1 want[redis]=1 want[mysql]=1 want[pssim]=1 ;;
  esac
done
services=()
for s in $TB_ALL_SERVICES; do
  [ -n "${want[$s]:-}" ] && services+=("$s")
done

require_root
trap 'rc=$?; tb_apt_cleanup; [ "$rc" -eq 0 ] || log "up.sh failed (exit $rc); state and logs are in $TB_DIR"' EXIT
started_at=$SECONDS
tb_init_dir
tb_lock
tb_password
log "testbed in $TB_DIR, cache in $TB_CACHE: ${services[*]}"

# 1. Debian packages, in one apt-get run. prometheus is installed, never started here: the
# watch-mode test starts its own instance (/usr/bin/prometheus) with a private config and data dir.
pkgs=(openssl prometheus)
for s in "${services[@]}"; do
  read -r -a p <<<"$("${s}_packages")"
  pkgs+=("${p[@]}")
done
ensure_apt "${pkgs[@]}"
tb_tls

# 2. Go servers (slow only the first time on a machine).
for s in "${services[@]}"; do
  if declare -F "${s}_build" >/dev/null; then "${s}_build"; fi
done

# 3. Servers, dependencies first.
for s in "${services[@]}"; do "${s}_up"; done

# 4. Environment: stdout for the services asked for (and their deps) ...
{
  tb_common_env
  for s in "${services[@]}"; do cat "$TB_DIR/$s/env.lines"; done
} >"$TB_DIR/env.out.tmp"
# ... env.sh for every testbed service that is running now.
{
  echo "# written by scripts/testbed/up.sh; source it to reach the running testbed"
  tb_common_env
  for s in $TB_ALL_SERVICES; do
    if [ -f "$TB_DIR/$s/env.lines" ] && "${s}_running"; then cat "$TB_DIR/$s/env.lines"; fi
  done
} >"$TB_DIR/env.sh.tmp"
chmod 600 "$TB_DIR/env.sh.tmp"
mv "$TB_DIR/env.sh.tmp" "$TB_DIR/env.sh"
cat "$TB_DIR/env.out.tmp"
rm -f "$TB_DIR/env.out.tmp"
log "ready in $((SECONDS - started_at)) s (env also in $TB_DIR/env.sh)"

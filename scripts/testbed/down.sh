#!/usr/bin/env bash
# Stop every server scripts/testbed/up.sh started (found by their pid files).
#   bash scripts/testbed/down.sh          stop; keep data, password and cache
#   bash scripts/testbed/down.sh --wipe   stop and delete $DBPROBE_TESTBED_DIR
# Idempotent. Never touches the build cache ($DBPROBE_CACHE_DIR).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=lib.sh
. "$HERE/lib.sh"
for s in $TB_ALL_SERVICES; do
  # shellcheck source=/dev/null
  . "$HERE/svc-$s.sh"
done

wipe=0
for a in "$@"; do
  case "$a" in
    --wipe) wipe=1 ;;
    -h | --help)
      sed -n '2,5s/^# \{0,1\}//p' "$0" >&2
      exit 0
      ;;
    *) die "down.sh: unknown argument '$a' (only --wipe)" ;;
  esac
done

if [ ! -d "$TB_DIR" ]; then
  log "nothing to stop: $TB_DIR does not exist"
  exit 0
fi
require_root
tb_lock

# Reverse of the start order: poolers and proxies before their servers.
read -r -a all <<<"$TB_ALL_SERVICES"
for ((i = ${#all[@]} - 1; i >= 0; i--)); do "${all[i]}_down"; done
rm -f "$TB_DIR/env.sh"

if [ "$wipe" = 1 ]; then
  case "$TB_DIR" in
    "" | / | /tmp | /root | "${HOME:-/root}") die "refusing to wipe '$TB_DIR'" ;;
  esac
  log "wiping $TB_DIR"
  rm -rf "$TB_DIR"
fi
log "down"

#!/usr/bin/env bash
# Runs a benchmark with testbed services up (starting them if needed) and their URLs exported:
# PostgreSQL, or the services named in BENCH_SERVICES (e.g. "pg redis"; "all" for every one).
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -d node_modules ] || npm ci
read -r -a services <<<"${BENCH_SERVICES:-pg}"
[ "${services[*]}" != all ] || services=()
testbed_env=$(bash scripts/testbed/up.sh "${services[@]}")
eval "$testbed_env"
exec "$@"

#!/usr/bin/env bash
# Runs a benchmark with testbed servers up (starting them if needed) and their URLs exported.
# DBPROBE_BENCH_SERVICES names them (default: pg); set it empty for every testbed server.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -d node_modules ] || npm ci
# shellcheck disable=SC2086 # a list of service names, split on purpose
testbed_env=$(bash scripts/testbed/up.sh ${DBPROBE_BENCH_SERVICES-pg})
eval "$testbed_env"
exec "$@"

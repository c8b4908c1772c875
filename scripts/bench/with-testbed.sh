#!/usr/bin/env bash
# Runs a benchmark with the testbed's PostgreSQL (and BENCH_SERVICES) up (starting it if needed) and its URLs exported.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -d node_modules ] || npm ci
# BENCH_SERVICES: the testbed services the benchmark needs (default: pg).
# shellcheck disable=SC2086
testbed_env=$(bash scripts/testbed/up.sh ${BENCH_SERVICES:-pg})
eval "$testbed_env"
exec "$@"

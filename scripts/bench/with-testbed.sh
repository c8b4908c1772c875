#!/usr/bin/env bash
# Runs a benchmark with the testbed's PostgreSQL up (starting it if needed) and its URLs exported.
set -euo pipefail
cd "$(dirname "$0")/../.."
[ -d node_modules ] || npm ci
testbed_env=$(bash scripts/testbed/up.sh pg)
eval "$testbed_env"
exec "$@"

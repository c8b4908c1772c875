#!/usr/bin/env bash
# Runs a command with the testbed's servers up and their URLs exported (`npm run test:integration`):
#   bash scripts/testbed/with-env.sh COMMAND [ARG...]
# Starts only what is not running yet (scripts/testbed/up.sh is idempotent and locked) and leaves
# the servers up afterwards for the next run; `npm run testbed:down` stops them.
set -euo pipefail
cd "$(dirname "$0")/../.."
# Assign first: `eval "$(...)"` alone would hide a failed set-up behind eval's own success.
testbed_env=$(bash scripts/testbed/up.sh)
eval "$testbed_env"
exec "$@"

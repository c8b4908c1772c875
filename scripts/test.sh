#!/usr/bin/env bash
# `npm test`: every test, on a fresh machine too. Installs what is missing (node_modules, Debian
# servers, Go-built servers, code-server + Chromium), starts the real servers on 127.0.0.1, runs
# checks, unit, CLI, integration and end-to-end tests in one node:test run, and stops the servers.
set -euo pipefail
cd "$(dirname "$0")/.."
export CI="${CI:-}"

step() { printf '\n== %s\n' "$*" >&2; }

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  step "npm ci"
  npm ci --no-audit --no-fund
fi

step "libSQL native packages for the VSIX packages (fetched and compressed once into ~/.cache/dbprobe/native)"
# The package tests build every platform's VSIX; this is the only step of theirs that needs the network.
node --import tsx scripts/package/natives.ts

step "typecheck, lint, format"
npm run --silent check

step "build"
node esbuild.js

step "testbed (real servers on 127.0.0.1)"
# Assign first: `eval "$(...)"` alone would hide a failed set-up behind eval's own success.
testbed_env=$(bash scripts/testbed/up.sh)
eval "$testbed_env"
# Stop what this run started, whatever happens next.
trap 'bash scripts/testbed/down.sh >&2 || true' EXIT

files=(test/unit/*.test.ts test/cli/*.test.ts test/integration/*.test.ts)
if [ "${DBPROBE_SKIP_E2E:-}" != "1" ] && [ -f scripts/e2e/setup.sh ] && compgen -G "test/e2e/*.test.ts" >/dev/null; then
  step "end-to-end set-up (code-server, Chromium)"
  e2e_env=$(bash scripts/e2e/setup.sh)
  eval "$e2e_env"
  files+=(test/e2e/*.test.ts)
fi

step "tests"
# One at a time: integration tests count server connections and time latencies, so files must not
# overlap. Every file reports into one summary.
node --import tsx --test --test-concurrency=1 --test-reporter=spec "${files[@]}"

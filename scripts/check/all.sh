#!/usr/bin/env bash
# `npm run check`: typecheck, lint, format check and the import-cycle check, side by side (each is one
# single-threaded process, and tsc and ESLint's type-aware rules each take tens of seconds on a fresh
# clone). Each step's output is printed whole when all have ended, in a fixed order, with its time;
# the exit code is non-zero if any step failed.
set -uo pipefail
cd "$(dirname "$0")/../.."
steps=(typecheck lint format:check check:cycles)
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
pids=()
for step in "${steps[@]}"; do
  (
    start=$(date +%s%N)
    npm run --silent "$step" >"$out/$step.log" 2>&1
    rc=$?
    echo "$rc $(( ($(date +%s%N) - start) / 1000000 ))" >"$out/$step.status"
  ) &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid"; done
failed=()
for step in "${steps[@]}"; do
  read -r rc ms <"$out/$step.status" || { rc=1; ms=0; }
  # npm's own notice about this machine's ~/.npmrc is not the step's output.
  grep -v '^npm warn Unknown user config' "$out/$step.log" || true
  printf 'check: %s %s in %s.%s s\n' "$step" "$([ "$rc" -eq 0 ] && echo passed || echo FAILED)" "$((ms / 1000))" "$(printf '%03d' $((ms % 1000)) | cut -c1)"
  [ "$rc" -eq 0 ] || failed+=("$step")
done
if [ "${#failed[@]}" -gt 0 ]; then
  echo "check: failed: ${failed[*]}" >&2
  exit 1
fi

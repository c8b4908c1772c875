#!/usr/bin/env bash
# The action's first step: installs the dbprobe CLI into a folder of its own (the project and its
# package.json stay untouched) and writes `bin=PATH` to $GITHUB_OUTPUT for the probe step.
# INPUT_PACKAGE: empty = build the package from the action's own source (npm ci + esbuild + npm pack);
# a path to a dbprobe-X.tgz (relative to the workspace); or an npm spec such as dbprobe@0.1.0.
set -euo pipefail

action_path="${GITHUB_ACTION_PATH:-$(cd "$(dirname "$0")/../../.." && pwd)}"
temp="${RUNNER_TEMP:-${TMPDIR:-/tmp}}"
tool_dir="$temp/dbprobe-action-tool"
spec="${INPUT_PACKAGE:-}"

if [ -z "$spec" ]; then
  echo "dbprobe action: building the CLI package from $action_path" >&2
  (
    cd "$action_path"
    [ -d node_modules ] || npm ci --no-audit --no-fund >&2
    node esbuild.js --only=cli-package >&2
  )
  mkdir -p "$temp/dbprobe-action-pack"
  tarball=$(cd "$action_path/packages/cli" && npm pack --silent --pack-destination "$temp/dbprobe-action-pack" | tail -n 1)
  spec="$temp/dbprobe-action-pack/$tarball"
elif [ -f "${GITHUB_WORKSPACE:-.}/$spec" ]; then
  spec="$(cd "$(dirname "${GITHUB_WORKSPACE:-.}/$spec")" && pwd)/$(basename "$spec")"
elif [ -f "$spec" ]; then
  spec="$(cd "$(dirname "$spec")" && pwd)/$(basename "$spec")"
fi

mkdir -p "$tool_dir"
[ -f "$tool_dir/package.json" ] || echo '{ "name": "dbprobe-action-tool", "private": true }' >"$tool_dir/package.json"
echo "dbprobe action: installing $spec" >&2
npm install --prefix "$tool_dir" --no-audit --no-fund "$spec" >&2
bin="$tool_dir/node_modules/.bin/dbprobe"
echo "dbprobe action: dbprobe $("$bin" --version) at $bin" >&2
echo "bin=$bin" >>"${GITHUB_OUTPUT:?GITHUB_OUTPUT is not set: run this as a GitHub Actions step}"

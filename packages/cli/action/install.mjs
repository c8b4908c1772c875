#!/usr/bin/env node
/**
 * The action's first step: the prebuilt dbprobe CLI, pinned to this action's version, from the
 * runner's tool cache ($RUNNER_TOOL_CACHE/dbprobe/VERSION/ARCH, the layout @actions/tool-cache
 * uses). Only a version the cache lacks is installed, once, with npm, from the package tarball the
 * repository's release script produces (`npm run release:cli`; `npm publish` uploads that same
 * file). A cached version runs no npm and opens no connection: that keeps the step in seconds.
 * Writes `bin=PATH`, `version` and `cache-hit` to $GITHUB_OUTPUT; the project's own package.json
 * and node_modules are never touched. Plain Node, no dependencies.
 *
 * INPUT_PACKAGE: empty = dbprobe@VERSION from the npm registry, VERSION being packages/cli's of the
 * action's own checkout (the action at tag v0.1.0 installs dbprobe 0.1.0); a path to a
 * dbprobe-VERSION.tgz (relative to the workspace), cached by its version and content; or an npm
 * spec (dbprobe@0.1.0 is cached by version; a range, tag or URL is installed for this job only).
 */
import { spawnSync } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { tarballManifest } from './tarballManifest.mjs';

const PACKAGE = 'dbprobe';
const EXACT_SPEC = /^dbprobe@(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)$/;
const startedMs = performance.now();
const here = path.dirname(fileURLToPath(import.meta.url));

function say(line) {
  process.stderr.write(`dbprobe action: ${line}\n`);
}

function fail(line) {
  // An annotation GitHub shows on the run, and the step fails.
  process.stdout.write(
    `::error title=dbprobe install::${line.replace(/%/g, '%25').replace(/\r?\n/g, '%0A')}\n`,
  );
  process.exit(1);
}

/** Where the CLI comes from: an npm spec to install, and the version the cache knows it by. */
function resolveSource(input, workspace, pinned) {
  if (input === '')
    return {
      spec: `${PACKAGE}@${pinned}`,
      version: pinned,
      from: `the npm registry (${PACKAGE}@${pinned}, this action's pinned version)`,
    };
  const file = [path.resolve(workspace, input), path.resolve(input)].find((f) => existsSync(f));
  if (file) {
    let manifest;
    try {
      manifest = tarballManifest(file);
    } catch (error) {
      fail(
        `the package input ${input}: ${error.message}. Give a dbprobe-VERSION.tgz made by \`npm run release:cli\`.`,
      );
    }
    if (manifest.name !== PACKAGE)
      fail(`the package input ${input} is the package "${manifest.name}", not ${PACKAGE}`);
    const sha256 = createHash('sha256').update(readFileSync(file)).digest('hex');
    return { spec: file, version: manifest.version, sha256, from: file };
  }
  if (/\.(tgz|tar\.gz)$/.test(input))
    fail(`the package input ${input} names no file (looked in ${workspace} and ${process.cwd()})`);
  const exact = EXACT_SPEC.exec(input);
  return { spec: input, version: exact?.[1], from: `npm (${input})` };
}

function binIn(dir) {
  // Windows has no shebangs: run.mjs starts a .js entry with node.
  return process.platform === 'win32'
    ? path.join(dir, 'node_modules', PACKAGE, 'dist', 'cli.js')
    : path.join(dir, 'node_modules', '.bin', PACKAGE);
}

/** The version the installed bin reports, or undefined when it does not start. */
function versionOf(bin) {
  if (!existsSync(bin)) return undefined;
  const command = bin.endsWith('.js') ? [process.execPath, bin] : [bin];
  const done = spawnSync(command[0], [...command.slice(1), '--version'], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  return done.status === 0 ? done.stdout.trim() : undefined;
}

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

/** The version of the package installed in dir, from its manifest (no process started). */
function installedVersion(dir) {
  const manifest = readJson(path.join(dir, 'node_modules', PACKAGE, 'package.json'));
  return existsSync(binIn(dir)) ? manifest?.version : undefined;
}

/**
 * The cached install is this source's: same version and, for a local tarball, the same bytes. The
 * marker is written only after an install whose bin ran, so a hit starts no process: it stays fast
 * on a loaded runner.
 */
function isCached(dir, marker, source) {
  const recorded = readJson(marker);
  if (!recorded || recorded.version !== source.version) return false;
  if (source.sha256 && recorded.sha256 !== source.sha256) return false;
  return installedVersion(dir) === source.version;
}

function npmInstall(dir, spec) {
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'package.json'), '{ "name": "dbprobe-action-tool", "private": true }\n');
  const args = [
    'install',
    '--no-audit',
    '--no-fund',
    '--no-package-lock',
    '--omit=dev',
    '--prefer-offline',
    spec,
  ];
  say(`npm ${args.join(' ')} (in ${dir})`);
  const done = spawnSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', args, {
    cwd: dir,
    stdio: ['ignore', 2, 2],
    shell: process.platform === 'win32',
    timeout: 600_000,
  });
  if (done.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    fail(
      `npm could not install ${spec} (exit ${done.status ?? done.signal}); the lines above say why. ` +
        'Check that the runner reaches the npm registry, or give the package input a dbprobe-VERSION.tgz.',
    );
  }
}

/** Installs into a folder beside the cache entry, then renames it into place: a job never sees half an install. */
function installIntoCache(dir, marker, source) {
  const staging = `${dir}.partial-${randomUUID().slice(0, 8)}`;
  npmInstall(staging, source.spec);
  const installed = versionOf(binIn(staging));
  if (installed !== source.version) {
    rmSync(staging, { recursive: true, force: true });
    fail(
      `${source.spec} installed, but its bin reports ${installed ?? 'nothing'} instead of ${source.version}`,
    );
  }
  // Another job on this runner may have put the same install in place meanwhile: keep theirs.
  if (isCached(dir, marker, source)) {
    rmSync(staging, { recursive: true, force: true });
    return;
  }
  rmSync(marker, { force: true });
  rmSync(dir, { recursive: true, force: true });
  try {
    renameSync(staging, dir);
  } catch (error) {
    // Another job on this runner put the same version in place first: use theirs.
    rmSync(staging, { recursive: true, force: true });
    if (!existsSync(dir)) throw error;
  }
  writeFileSync(
    marker,
    `${JSON.stringify({ version: source.version, ...(source.sha256 ? { sha256: source.sha256 } : {}), from: source.from, installedAt: new Date().toISOString() })}\n`,
  );
}

function main() {
  const outputFile = process.env.GITHUB_OUTPUT;
  if (!outputFile) fail('GITHUB_OUTPUT is not set: run this as a GitHub Actions step');
  const actionPath = process.env.GITHUB_ACTION_PATH || path.resolve(here, '..', '..', '..');
  const pinned = JSON.parse(
    readFileSync(path.join(actionPath, 'packages', 'cli', 'package.json'), 'utf8'),
  ).version;
  const workspace = process.env.GITHUB_WORKSPACE || process.cwd();
  const source = resolveSource((process.env.INPUT_PACKAGE ?? '').trim(), workspace, pinned);

  let dir;
  let hit = false;
  if (source.version) {
    const toolCache = process.env.RUNNER_TOOL_CACHE || path.join(os.tmpdir(), 'dbprobe-tool-cache');
    const versionDir = path.join(toolCache, PACKAGE, source.version);
    dir = path.join(versionDir, process.arch);
    const marker = `${dir}.complete`;
    hit = isCached(dir, marker, source);
    if (!hit) {
      say(`dbprobe ${source.version} is not in the tool cache (${dir}): installing it from ${source.from}`);
      mkdirSync(versionDir, { recursive: true });
      installIntoCache(dir, marker, source);
    }
  } else {
    dir = path.join(
      process.env.RUNNER_TEMP || os.tmpdir(),
      `dbprobe-action-tool-${randomUUID().slice(0, 8)}`,
    );
    say(`${source.spec} names no exact version, so it is installed for this job only (not cached)`);
    npmInstall(dir, source.spec);
  }
  const bin = binIn(dir);
  const version = hit ? source.version : versionOf(bin);
  if (!version) fail(`the installed dbprobe at ${bin} does not start`);
  const seconds = ((performance.now() - startedMs) / 1000).toFixed(1);
  say(`dbprobe ${version} ${hit ? 'from the tool cache' : 'installed'} at ${bin} in ${seconds} s`);
  appendFileSync(outputFile, `bin=${bin}\nversion=${version}\ncache-hit=${hit}\n`);
}

main();

/**
 * The VSIX packages of `npm run package`, built by the test itself when they are missing or older
 * than what goes into them (dist/vsix/ is gitignored). Needs no network once the libSQL native
 * packages are in their cache (scripts/test.sh fetches them before any test runs).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ROOT, VSIX_INDEX, readVsixIndex, type VsixIndex } from '../../scripts/package/targets';
import { withDirLock } from './dirLock';

/** What a package is made of: a change to any of these makes the packages stale. */
const INPUTS = [
  'src',
  'webview',
  'media',
  'schema',
  'scripts/package',
  'scripts/build',
  'esbuild.js',
  'package.json',
  'README.md',
  'CHANGELOG.md',
  '.vscodeignore',
];
/** Bounds the wait for another process's build (a build itself is bounded at 20 minutes). */
const LOCK_WAIT_MS = 25 * 60_000;
const LOCK = path.join(ROOT, 'dist', '.vsix-build.lock');
/** Bounds the walk: the repo's sources are a few hundred files. */
const MAX_FILES = 20_000;

function newestInput(): number {
  let newest = 0;
  let seen = 0;
  const visit = (file: string): void => {
    if (++seen > MAX_FILES) throw new Error(`more than ${MAX_FILES} files under ${INPUTS.join(', ')}`);
    const stat = fs.statSync(file);
    newest = Math.max(newest, stat.mtimeMs);
    if (stat.isDirectory()) for (const name of fs.readdirSync(file)) visit(path.join(file, name));
  };
  for (const input of INPUTS) if (fs.existsSync(path.join(ROOT, input))) visit(path.join(ROOT, input));
  return newest;
}

function isFresh(): boolean {
  if (!fs.existsSync(VSIX_INDEX)) return false;
  const index = readVsixIndex();
  if (!index.packages.every((p) => fs.existsSync(p.file))) return false;
  return fs.statSync(VSIX_INDEX).mtimeMs >= newestInput();
}

/** The packages, after `npm run package` if they were missing or stale; says how long that took. */
export function builtVsixPackages(log: (line: string) => void): VsixIndex {
  // One check-and-build at a time: end-to-end files side by side (or a package test beside them)
  // would otherwise each see stale packages and rebuild dist/vsix/ over one another.
  return withDirLock(LOCK, LOCK_WAIT_MS, () => freshOrBuilt(log));
}

function freshOrBuilt(log: (line: string) => void): VsixIndex {
  if (isFresh()) {
    log(`VSIX packages are up to date (${path.relative(ROOT, VSIX_INDEX)})`);
    return readVsixIndex();
  }
  const started = Date.now();
  const out = execFileSync('npm', ['run', '--silent', 'package'], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    timeout: 20 * 60_000,
    maxBuffer: 16 << 20,
  });
  for (const line of out.trim().split('\n')) log(line);
  log(`built the VSIX packages in ${((Date.now() - started) / 1000).toFixed(1)} s (npm run package)`);
  return readVsixIndex();
}

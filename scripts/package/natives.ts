/**
 * libSQL's native packages for every target, fetched once with `npm pack` into a cache outside the
 * repo (~/.cache/dbprobe/native, or $DBPROBE_NATIVE_CACHE) and unpacked there, with the engine
 * brotli-compressed beside it. Idempotent: a package already there is not fetched again, so only the
 * first run on a machine needs the npm registry. `node --import tsx scripts/package/natives.ts`
 * fetches them all (scripts/test.sh does, before any test runs).
 */
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants } from 'node:zlib';
import { describeNativeBinary } from './nativeBinary';
import { libsqlManifest, vsixTargets, type NativeTarget } from './targets';

const compress = promisify(brotliCompress);

export const NATIVE_CACHE =
  process.env.DBPROBE_NATIVE_CACHE ?? path.join(os.homedir(), '.cache', 'dbprobe', 'native');

export interface CachedNative {
  /** The unpacked package folder (package.json, README.md, index.node). */
  dir: string;
  /** index.node compressed with brotli at its highest quality. */
  packedEngine: string;
}

/**
 * Fetches (if missing), checks and compresses one native package; returns where it lies. Brotli at
 * its highest quality takes a minute or more per engine: zlib runs it on libuv's thread pool, so
 * the engines compress in parallel (see cachedNatives).
 */
export async function cachedNative(
  native: NativeTarget,
  version = libsqlManifest().version,
): Promise<CachedNative> {
  const base = cacheName(native, version);
  const dir = path.join(NATIVE_CACHE, base, 'package');
  const packedEngine = path.join(NATIVE_CACHE, base, 'index.node.br');
  if (fs.existsSync(packedEngine)) return { dir, packedEngine };
  // Synchronous up to here: called together, the packages are fetched one at a time.
  const tarball = fetchTarball(native, version);
  fs.rmSync(path.join(NATIVE_CACHE, base), { recursive: true, force: true });
  fs.mkdirSync(path.join(NATIVE_CACHE, base), { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', path.join(NATIVE_CACHE, base)], { stdio: 'inherit' });
  const engine = fs.readFileSync(path.join(dir, 'index.node'));
  assertBuiltFor(engine, native);
  const packed = await compress(engine, {
    params: {
      [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
      [constants.BROTLI_PARAM_LGWIN]: constants.BROTLI_MAX_WINDOW_BITS,
      [constants.BROTLI_PARAM_SIZE_HINT]: engine.length,
    },
  });
  // Written last and whole: its presence means the entry is complete.
  fs.writeFileSync(`${packedEngine}.partial`, packed);
  fs.renameSync(`${packedEngine}.partial`, packedEngine);
  return { dir, packedEngine };
}

function cacheName(native: NativeTarget, version: string): string {
  return `${native.packageName.slice(1).replace('/', '-')}-${version}`;
}

/** The package's tarball, from the npm registry the first time. */
function fetchTarball(native: NativeTarget, version: string): string {
  const tarball = path.join(NATIVE_CACHE, `${cacheName(native, version)}.tgz`);
  if (fs.existsSync(tarball)) return tarball;
  fs.mkdirSync(NATIVE_CACHE, { recursive: true });
  process.stderr.write(`fetching ${native.packageName}@${version} into ${NATIVE_CACHE}\n`);
  execFileSync(
    'npm',
    ['pack', '--silent', `${native.packageName}@${version}`, '--pack-destination', NATIVE_CACHE],
    { stdio: ['ignore', 'ignore', 'inherit'], timeout: 300_000, shell: process.platform === 'win32' },
  );
  return tarball;
}

/** A package whose machine code is not what its name says must never be shipped. */
export function assertBuiltFor(engine: Buffer, native: NativeTarget): void {
  const built = describeNativeBinary(engine);
  if (built.platform !== native.platform || built.arch !== native.arch || built.abi !== native.abi)
    throw new Error(
      `${native.packageName}: index.node is built for ${JSON.stringify(built)}, expected ${JSON.stringify(native)}`,
    );
}

/** Every target's native package, by package name. */
export async function cachedNatives(): Promise<Map<string, CachedNative>> {
  const natives = vsixTargets().flatMap((t) => (t.native ? [t.native] : []));
  const version = libsqlManifest().version;
  const cached = await Promise.all(natives.map((native) => cachedNative(native, version)));
  return new Map(natives.map((native, i) => [native.packageName, cached[i]!]));
}

if (require.main === module) {
  cachedNatives().then(
    () => process.stderr.write(`libSQL native packages ready in ${NATIVE_CACHE}\n`),
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exit(1);
    },
  );
}

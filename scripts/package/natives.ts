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
import { brotliCompressSync, constants } from 'node:zlib';
import { describeNativeBinary } from './nativeBinary';
import { libsqlManifest, vsixTargets, type NativeTarget } from './targets';

export const NATIVE_CACHE =
  process.env.DBPROBE_NATIVE_CACHE ?? path.join(os.homedir(), '.cache', 'dbprobe', 'native');

export interface CachedNative {
  /** The unpacked package folder (package.json, README.md, index.node). */
  dir: string;
  /** index.node compressed with brotli at its highest quality. */
  packedEngine: string;
}

/** Fetches (if missing), checks and compresses one native package; returns where it lies. */
export function cachedNative(native: NativeTarget, version = libsqlManifest().version): CachedNative {
  const base = `${native.packageName.slice(1).replace('/', '-')}-${version}`;
  const tarball = path.join(NATIVE_CACHE, `${base}.tgz`);
  const dir = path.join(NATIVE_CACHE, base, 'package');
  const packedEngine = path.join(NATIVE_CACHE, base, 'index.node.br');
  if (fs.existsSync(packedEngine)) return { dir, packedEngine };
  fs.mkdirSync(NATIVE_CACHE, { recursive: true });
  if (!fs.existsSync(tarball)) {
    process.stderr.write(`fetching ${native.packageName}@${version} into ${NATIVE_CACHE}\n`);
    execFileSync(
      'npm',
      ['pack', '--silent', `${native.packageName}@${version}`, '--pack-destination', NATIVE_CACHE],
      {
        stdio: ['ignore', 'ignore', 'inherit'],
        timeout: 300_000,
        shell: process.platform === 'win32',
      },
    );
  }
  fs.rmSync(path.join(NATIVE_CACHE, base), { recursive: true, force: true });
  fs.mkdirSync(path.join(NATIVE_CACHE, base), { recursive: true });
  execFileSync('tar', ['-xzf', tarball, '-C', path.join(NATIVE_CACHE, base)], { stdio: 'inherit' });
  const engine = fs.readFileSync(path.join(dir, 'index.node'));
  assertBuiltFor(engine, native);
  const packed = brotliCompressSync(engine, {
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

/** A package whose machine code is not what its name says must never be shipped. */
export function assertBuiltFor(engine: Buffer, native: NativeTarget): void {
  const built = describeNativeBinary(engine);
  if (built.platform !== native.platform || built.arch !== native.arch || built.abi !== native.abi)
    throw new Error(
      `${native.packageName}: index.node is built for ${JSON.stringify(built)}, expected ${JSON.stringify(native)}`,
    );
}

if (require.main === module) {
  for (const { native } of vsixTargets()) if (native) cachedNative(native);
  process.stderr.write(`libSQL native packages ready in ${NATIVE_CACHE}\n`);
}

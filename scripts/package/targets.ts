/**
 * The VSIX packages `npm run package` builds: one per VS Code target with the libSQL native package
 * (@libsql/<name>) that target's extension host loads, plus a universal one with none. The names
 * come from libsql's own optionalDependencies, so a libsql upgrade that renames one fails here.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';

export const ROOT = path.resolve(__dirname, '..', '..');
/** Where the packages are written (dist/ is gitignored). */
export const VSIX_DIR = path.join(ROOT, 'dist', 'vsix');
/** What the last `npm run package` built: read by the tests instead of guessing file names. */
export const VSIX_INDEX = path.join(VSIX_DIR, 'packages.json');

/** Each package's budget: the Marketplace takes larger ones, but installs should stay quick. */
export const MAX_VSIX_BYTES = 5_000_000;

/** What a platform's native package is built for, as VS Code names it (process.platform/arch). */
export interface NativeTarget {
  /** The npm package, e.g. @libsql/linux-x64-musl. */
  packageName: string;
  platform: NodeJS.Platform;
  arch: string;
  /** gnu or musl on Linux; undefined elsewhere. */
  abi?: 'gnu' | 'musl';
}

export interface VsixTarget {
  /** vsce's --target, or 'universal' for the package without one. */
  target: string;
  native?: NativeTarget;
  /** Why a platform package ships no native engine (it then behaves like the universal one). */
  noNativeReason?: string;
}

const LIBSQL_FOR_TARGET: Record<string, string | undefined> = {
  'win32-x64': 'win32-x64-msvc',
  // libSQL publishes no Windows-on-Arm engine (no @libsql/win32-arm64-msvc on the npm registry).
  'win32-arm64': undefined,
  'darwin-x64': 'darwin-x64',
  'darwin-arm64': 'darwin-arm64',
  'linux-x64': 'linux-x64-gnu',
  'linux-arm64': 'linux-arm64-gnu',
  'alpine-x64': 'linux-x64-musl',
  'alpine-arm64': 'linux-arm64-musl',
};

interface LibsqlManifest {
  version: string;
  optionalDependencies?: Record<string, string>;
}

export function libsqlManifest(): LibsqlManifest {
  return JSON.parse(
    fs.readFileSync(path.join(ROOT, 'node_modules', 'libsql', 'package.json'), 'utf8'),
  ) as LibsqlManifest;
}

/** Every package to build, universal first. */
export function vsixTargets(): VsixTarget[] {
  const published = libsqlManifest().optionalDependencies ?? {};
  const targets: VsixTarget[] = [{ target: 'universal' }];
  for (const [target, libsqlName] of Object.entries(LIBSQL_FOR_TARGET)) {
    if (!libsqlName) {
      targets.push({ target, noNativeReason: `libSQL publishes no native engine for ${target}` });
      continue;
    }
    const packageName = `@libsql/${libsqlName}`;
    if (!(packageName in published))
      throw new Error(
        `libsql ${libsqlManifest().version} no longer lists ${packageName}: update LIBSQL_FOR_TARGET`,
      );
    const [platform, arch, abi] = libsqlName.split('-') as [NodeJS.Platform, string, string | undefined];
    targets.push({
      target,
      native: {
        packageName,
        platform,
        arch,
        ...(platform === 'linux' ? { abi: abi as 'gnu' | 'musl' } : {}),
      },
    });
  }
  return targets;
}

/** The VS Code target of this machine (alpine-* on musl Linux), or undefined if none is built. */
export function thisMachineTarget(): string | undefined {
  const musl =
    process.platform === 'linux' &&
    !(process.report?.getReport() as { header?: { glibcVersionRuntime?: string } } | undefined)?.header
      ?.glibcVersionRuntime;
  const target = `${musl ? 'alpine' : process.platform}-${process.arch}`;
  return target in LIBSQL_FOR_TARGET ? target : undefined;
}

export function vsixFileName(target: string, version: string): string {
  return target === 'universal' ? `dbprobe-${version}.vsix` : `dbprobe-${target}-${version}.vsix`;
}

export interface BuiltVsix {
  target: string;
  file: string;
  bytes: number;
  /** The native package inside, if any. */
  nativePackage?: string;
}

export interface VsixIndex {
  version: string;
  builtAt: string;
  packages: BuiltVsix[];
}

export function readVsixIndex(): VsixIndex {
  return JSON.parse(fs.readFileSync(VSIX_INDEX, 'utf8')) as VsixIndex;
}

/**
 * `npm run package` (after `node esbuild.js --production`): one .vsix per VS Code target, each with
 * the libSQL native package its extension host loads, plus a universal one with none, in dist/vsix/.
 * Prints one line per package with its size and fails if any is over MAX_VSIX_BYTES.
 *
 * Each package is staged in its own folder (dist/vsix-stage/<target>/) from the same bundles, so a
 * target's native package can never leak into another's. The engine goes in as index.node.br
 * (brotli, about 30% smaller than zip's deflate); src/drivers/libsqlEmbedded.ts unpacks it on first use.
 */
import { execFile } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { promisify } from 'node:util';
import { cachedNatives, type CachedNative } from './natives';
import {
  MAX_VSIX_BYTES,
  ROOT,
  VSIX_DIR,
  VSIX_INDEX,
  vsixFileName,
  vsixTargets,
  type BuiltVsix,
  type NativeTarget,
  type VsixIndex,
  type VsixTarget,
} from './targets';

const STAGE_DIR = path.join(ROOT, 'dist', 'vsix-stage');
const run = promisify(execFile);

/** What every package holds besides native code (.vscodeignore then picks from it). */
// package.nls.json: the contributed titles and descriptions that package.json names by %key%.
const SHARED_FILES = [
  'package.json',
  'package.nls.json',
  'README.md',
  '.vscodeignore',
  'media',
  'schema/dbprobe.schema.json',
  // The Marketplace shows it on the extension's Changelog tab.
  'CHANGELOG.md',
];
const OPTIONAL_FILES = ['LICENSE', 'LICENSE.md'];

async function main(): Promise<void> {
  const started = Date.now();
  const { version } = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  const bundles = bundleFiles();
  const natives = await cachedNatives();
  fs.rmSync(STAGE_DIR, { recursive: true, force: true });
  fs.rmSync(VSIX_DIR, { recursive: true, force: true });
  fs.mkdirSync(VSIX_DIR, { recursive: true });
  const built: BuiltVsix[] = [];
  // Two at a time: vsce spends most of its time compressing, and these machines have two cores.
  const queue = vsixTargets();
  const worker = async (): Promise<void> => {
    for (let next = queue.shift(); next; next = queue.shift())
      built.push(await buildOne(next, version, bundles, natives));
  };
  await Promise.all([worker(), worker()]);
  fs.rmSync(STAGE_DIR, { recursive: true, force: true });
  const order = vsixTargets().map((t) => t.target);
  built.sort((a, b) => order.indexOf(a.target) - order.indexOf(b.target));
  const index: VsixIndex = { version, builtAt: new Date().toISOString(), packages: built };
  fs.writeFileSync(VSIX_INDEX, `${JSON.stringify(index, null, 2)}\n`);

  for (const p of built) {
    const size = `${(p.bytes / 1e6).toFixed(2)} MB`.padStart(8);
    console.log(
      `${path.relative(ROOT, p.file).padEnd(44)} ${size}  ${p.target.padEnd(12)} ${p.nativePackage ?? '(no native engine)'}`,
    );
  }
  console.log(`${built.length} packages in ${((Date.now() - started) / 1000).toFixed(1)} s`);
  const over = built.filter((p) => p.bytes > MAX_VSIX_BYTES);
  if (over.length > 0) {
    console.error(
      `over the ${MAX_VSIX_BYTES / 1e6} MB budget: ${over.map((p) => path.basename(p.file)).join(', ')}. ` +
        `Look at what grew with \`unzip -lv <file>\` (driver bundles, the native engine).`,
    );
    process.exitCode = 1;
  }
}

/**
 * The production bundles (no source maps): every top-level dist/*.js, the lazy driver bundles and the
 * shared packages. .vscodeignore then keeps what the extension loads (not cli.js or runner.js), so a
 * new bundle needs only its line there.
 */
function bundleFiles(): string[] {
  const dist = path.join(ROOT, 'dist');
  const scripts = (dir: string): string[] =>
    fs.existsSync(path.join(dist, dir))
      ? fs
          .readdirSync(path.join(dist, dir))
          .filter((f) => f.endsWith('.js'))
          .map((f) => path.posix.join('dist', dir, f))
      : [];
  const files = [
    ...scripts('.'),
    ...scripts('drivers'),
    ...sharedPackages().map((name) => `dist/node_modules/${name}`),
  ];
  for (const file of ['dist/extension.js', 'dist/extensionBody.js', 'dist/webview.js'])
    if (!files.includes(file)) throw new Error(`${file} is missing: run node esbuild.js --production first`);
  return files;
}

/**
 * Packages esbuild.js bundled once for all drivers (dist/node_modules/<name>, marked dbprobeShared),
 * as opposed to dist/node_modules/libsql, this machine's copy for development builds.
 */
function sharedPackages(): string[] {
  const modules = path.join(ROOT, 'dist', 'node_modules');
  const names = fs.existsSync(modules) ? fs.readdirSync(modules) : [];
  return names.filter((name) => {
    const manifest = path.join(modules, name, 'package.json');
    return (
      fs.existsSync(manifest) &&
      (JSON.parse(fs.readFileSync(manifest, 'utf8')) as { dbprobeShared?: boolean }).dbprobeShared === true
    );
  });
}

async function buildOne(
  target: VsixTarget,
  version: string,
  bundles: string[],
  natives: Map<string, CachedNative>,
): Promise<BuiltVsix> {
  const stage = path.join(STAGE_DIR, target.target);
  for (const file of [...SHARED_FILES, ...bundles, ...OPTIONAL_FILES]) {
    const from = path.join(ROOT, file);
    if (!fs.existsSync(from)) {
      if (OPTIONAL_FILES.includes(file)) continue;
      throw new Error(`${file} is missing`);
    }
    // A development build's source maps (dist/node_modules/undici/index.js.map, 1.4 MB) may still lie
    // beside the production bundles: they never ship.
    fs.cpSync(from, path.join(stage, file), { recursive: true, filter: (src) => !src.endsWith('.map') });
  }
  if (target.native) stageLibsql(stage, target.native, natives.get(target.native.packageName)!);
  const out = path.join(VSIX_DIR, vsixFileName(target.target, version));
  const args = [
    path.join(ROOT, 'node_modules', '@vscode', 'vsce', 'vsce'),
    'package',
    ...(target.target === 'universal' ? [] : ['--target', target.target]),
    '--out',
    out,
    '--no-dependencies',
    '--allow-missing-repository',
    '--skip-license',
    '--no-rewrite-relative-links',
  ];
  try {
    await run(process.execPath, args, { cwd: stage, timeout: 300_000, maxBuffer: 16 << 20 });
  } catch (error) {
    const { stdout = '', stderr = '' } = error as { stdout?: string; stderr?: string };
    throw new Error(
      `vsce package for ${target.target} failed: ${(error as Error).message}\n${stdout}${stderr}`,
      { cause: error },
    );
  }
  return {
    target: target.target,
    file: out,
    bytes: fs.statSync(out).size,
    ...(target.native ? { nativePackage: target.native.packageName } : {}),
  };
}

/**
 * dist/node_modules/: libsql's JavaScript with its own dependencies (found from this install) and the
 * target's native package, whose engine is the compressed one. The driver bundle
 * (dist/drivers/libsql.js) requires `libsql`, which requires `@libsql/<platform>` by
 * process.platform/arch/libc: both resolve here.
 */
function stageLibsql(stage: string, native: NativeTarget, cached: CachedNative): void {
  const modules = path.join(stage, 'dist', 'node_modules');
  for (const name of javascriptDependencies('libsql'))
    fs.cpSync(path.join(ROOT, 'node_modules', name), path.join(modules, name), {
      recursive: true,
      dereference: true,
    });
  const into = path.join(modules, native.packageName);
  fs.mkdirSync(into, { recursive: true });
  for (const file of ['package.json', 'README.md'])
    fs.copyFileSync(path.join(cached.dir, file), path.join(into, file));
  fs.copyFileSync(cached.packedEngine, path.join(into, 'index.node.br'));
}

/** A package and its (non-optional) dependencies, recursively: optional ones are the natives. */
function javascriptDependencies(name: string, into = new Set<string>()): Set<string> {
  if (into.has(name)) return into;
  into.add(name);
  const manifest = JSON.parse(
    fs.readFileSync(path.join(ROOT, 'node_modules', name, 'package.json'), 'utf8'),
  ) as {
    dependencies?: Record<string, string>;
  };
  for (const dep of Object.keys(manifest.dependencies ?? {})) javascriptDependencies(dep, into);
  return into;
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}

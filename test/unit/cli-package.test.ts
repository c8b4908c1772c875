/** packages/cli/package.json: the installable CLI's manifest stays in step with the extension's. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { DRIVER_CATALOG } from '../../src/drivers/catalog';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) =>
  JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;

test('the CLI package: bins, engines, drivers as optional peers, its own packages as dependencies', () => {
  const root = read('package.json');
  const cli = read('packages/cli/package.json');
  assert.equal(cli.name, 'dbprobe');
  assert.equal(cli.version, root.version);
  assert.deepEqual(cli.bin, { dbprobe: 'dist/cli.js', 'dbprobe-runner': 'dist/runner.js' });
  assert.deepEqual(cli.engines, { node: (root.engines as { node: string }).node });
  // Every database client a driver loads is an optional peer: installing the CLI never adds or
  // changes the app's own driver (npm installs no optional peer, and takes the app's version).
  const clients = [...new Set(DRIVER_CATALOG.map((info) => info.packageName))].filter(
    (name) => name !== 'undici',
  );
  const peers = cli.peerDependencies as Record<string, string>;
  const meta = cli.peerDependenciesMeta as Record<string, { optional?: boolean }>;
  assert.deepEqual(Object.keys(peers).sort(), clients.sort());
  for (const name of clients) assert.equal(meta[name]?.optional, true, `${name} is an optional peer`);
  // dbprobe's own packages stay dependencies, at the root's versions; the embedded libSQL engine
  // (native) is one too, so the bundled @libsql/client opens file: databases (the demo).
  const rootDeps = root.dependencies as Record<string, string>;
  const deps = cli.dependencies as Record<string, string>;
  for (const name of clients) assert.equal(deps[name], undefined, `${name} is not a dependency`);
  for (const [name, range] of Object.entries(deps))
    if (name !== 'libsql') assert.equal(range, rootDeps[name], `${name} as at the root`);
  assert.deepEqual(
    Object.keys(rootDeps).sort(),
    [...clients, ...Object.keys(deps).filter((name) => name !== 'libsql')].sort(),
  );
  assert.equal(cli.private, undefined, 'the package is publishable');
  const all = JSON.stringify([
    cli.dependencies,
    cli.devDependencies,
    cli.peerDependencies,
    cli.optionalDependencies,
  ]);
  assert.doesNotMatch(all, /vscode/);
});

test('the CLI package: license, where it comes from, what it ships, a prepack that builds it', () => {
  const root = read('package.json');
  const cli = read('packages/cli/package.json');
  assert.equal(cli.license, 'MIT');
  assert.equal(cli.license, root.license);
  assert.match(readFileSync(path.join(ROOT, 'LICENSE'), 'utf8'), /^MIT License\n/);
  const repository = cli.repository as { url: string; directory: string };
  assert.equal(repository.url, (root.repository as { url: string }).url);
  assert.equal(repository.directory, 'packages/cli');
  assert.ok(typeof cli.homepage === 'string' && cli.homepage.startsWith('https://'));
  assert.equal((cli.bugs as { url: string }).url, (root.bugs as { url: string }).url);
  const files = cli.files as string[];
  for (const shipped of [
    'LICENSE',
    'CHANGELOG.md',
    'schema/dbprobe.schema.json',
    'schema/run-result.schema.json',
  ])
    assert.ok(files.includes(shipped), `files lists ${shipped}`);
  assert.deepEqual(cli.scripts, { prepack: 'node ../../scripts/package/cliPrepack.cjs' });
  // The root is the extension: its `npm pack` is refused (its package is the .vsix).
  assert.equal(
    (root.scripts as Record<string, string>).prepack,
    'node scripts/package/cliPrepack.cjs --root',
  );
});

test('esbuild builds the package from the CLI and runner entries, each driver a lazy file with its client', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { bundles } = require(path.join(ROOT, 'esbuild.js')) as {
    bundles: Record<string, Record<string, unknown>>;
  };
  const bundle = bundles['cli-package'];
  // The probing threads' entries (--threads) ship beside them.
  assert.deepEqual(bundle?.entryPoints, {
    cli: 'src/cli/main.ts',
    runner: 'src/runner/main.ts',
    cliThread: 'src/probeThread/probeThreadEntry.ts',
    runnerThread: 'src/probeThread/probeThreadEntry.ts',
  });
  assert.equal(bundle?.outdir, 'packages/cli/dist');
  // The clients are bundled (the fallback copies); only the package's dependencies stay external.
  const cli = read('packages/cli/package.json');
  for (const name of Object.keys(cli.dependencies as Record<string, string>))
    assert.ok((bundle?.external as string[]).includes(name), `${name} external`);
  for (const name of Object.keys(cli.peerDependencies as Record<string, string>))
    assert.ok(!(bundle?.external as string[]).includes(name), `${name} bundled`);
  const drivers = bundles['cli-package-drivers'];
  assert.equal(drivers?.outdir, 'packages/cli/dist');
  assert.deepEqual(
    Object.keys(drivers?.entryPoints as Record<string, string>).sort(),
    DRIVER_CATALOG.map((info) => `drivers/${info.module}`).sort(),
  );
  assert.ok((cli.files as string[]).includes('dist/drivers/*.js'), 'the driver files ship');
});

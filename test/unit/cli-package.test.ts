/** packages/cli/package.json: the installable CLI's manifest stays in step with the extension's. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';

const ROOT = path.resolve(__dirname, '../..');
const read = (file: string) =>
  JSON.parse(readFileSync(path.join(ROOT, file), 'utf8')) as Record<string, unknown>;

test('the CLI package: bins, engines, the root dependencies at the same versions, no vscode', () => {
  const root = read('package.json');
  const cli = read('packages/cli/package.json');
  assert.equal(cli.name, 'dbprobe');
  assert.equal(cli.version, root.version);
  assert.deepEqual(cli.bin, { dbprobe: 'dist/cli.js', 'dbprobe-runner': 'dist/runner.js' });
  assert.deepEqual(cli.engines, { node: (root.engines as { node: string }).node });
  assert.deepEqual(cli.dependencies, root.dependencies);
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
  for (const shipped of ['LICENSE', 'schema/dbprobe.schema.json', 'schema/run-result.schema.json'])
    assert.ok(files.includes(shipped), `files lists ${shipped}`);
  assert.deepEqual(cli.scripts, { prepack: 'node ../../scripts/package/cliPrepack.cjs' });
  // The root is the extension: its `npm pack` is refused (its package is the .vsix).
  assert.equal(
    (root.scripts as Record<string, string>).prepack,
    'node scripts/package/cliPrepack.cjs --root',
  );
});

test('esbuild builds the package from the CLI and runner entries, drivers left to npm', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { bundles } = require(path.join(ROOT, 'esbuild.js')) as {
    bundles: Record<string, Record<string, unknown>>;
  };
  const bundle = bundles['cli-package'];
  // The probing threads' entries (--threads) ship beside them.
  assert.deepEqual(bundle?.entryPoints, {
    cli: 'src/cli/main.ts',
    runner: 'src/runner/main.ts',
    cliThread: 'src/worker/probeWorker.ts',
    runnerThread: 'src/worker/probeWorker.ts',
  });
  assert.equal(bundle?.outdir, 'packages/cli/dist');
  assert.equal(bundle?.packages, 'external');
});

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

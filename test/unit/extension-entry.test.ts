/**
 * Activation loads a small entry bundle: dist/extension.js holds the registrations only,
 * and the stores, panels, engine, drivers and heartbeat stay in dist/extensionBody.js until first use.
 * Built here with esbuild.js's own extension options (the lazy-loading plugins, production minify)
 * and checked by what went into it, so a stray import fails this test rather than slowing every start.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import * as esbuild from 'esbuild';

const ROOT = path.resolve(__dirname, '..', '..');
// eslint-disable-next-line @typescript-eslint/no-require-imports -- esbuild.js is the build's CJS script
const { bundles } = require('../../esbuild.js') as { bundles: Record<string, esbuild.BuildOptions> };

/** The budget for what activation parses. */
const ENTRY_BUDGET_BYTES = 60 * 1024;
/** Loaded on first use, never at activation: the engine, drivers, places, reporters, panel, runs. */
const NOT_AT_ACTIVATION = [
  /^src\/core\//,
  /^src\/drivers\//,
  /^src\/places\//,
  /^src\/report\//,
  /^src\/worker\//,
  /node_modules\//,
  /^package\.json$/,
  /^src\/extension\/(panel\/panelManager|heartbeat\/|model\/|probe\/|commands\/|connections\/|config\/)/,
];

test('the entry bundle holds registrations only, within 60 KB', async () => {
  const options = bundles.extension;
  assert.ok(options);
  const lazy = (options.plugins ?? []).filter((p) => p.name === 'lazy-drivers' || p.name === 'lazy-body');
  assert.equal(lazy.length, 2, "esbuild.js's lazy-loading plugins");
  const result = await esbuild.build({
    ...options,
    absWorkingDir: ROOT,
    entryPoints: { extension: 'src/extension/main.ts' },
    outdir: path.join(ROOT, 'dist', 'entry-check'),
    plugins: lazy,
    bundle: true,
    minify: true,
    write: false,
    metafile: true,
    logLevel: 'silent',
  });
  const output = Object.entries(result.metafile.outputs).find(([file]) => file.endsWith('extension.js'));
  assert.ok(output, 'built dist/extension.js');
  const [, meta] = output;
  const inputs = Object.keys(meta.inputs);
  assert.ok(inputs.includes('src/extension/main.ts'));
  for (const input of inputs)
    for (const rule of NOT_AT_ACTIVATION)
      assert.doesNotMatch(input, rule, `${input} is bundled into the activation entry; load it on first use`);
  assert.ok(
    meta.imports.some((i) => i.path === './extensionBody.js' && i.external),
    'the core is a separate bundle',
  );
  assert.ok(meta.bytes <= ENTRY_BUDGET_BYTES, `entry bundle ${meta.bytes} bytes > ${ENTRY_BUDGET_BYTES}`);
});

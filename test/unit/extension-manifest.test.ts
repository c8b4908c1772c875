import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { opaque } from '../../webview/colour';

const ROOT = path.resolve(__dirname, '..', '..');
const manifest = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  main: string;
  icon: string;
  activationEvents: string[];
  contributes: {
    commands: { command: string }[];
    menus: Record<string, { command: string }[]>;
    jsonValidation: { url: string }[];
    views: Record<string, { id: string }[]>;
    walkthroughs: { steps: { media: { markdown?: string } }[] }[];
  };
};
const mainSource = fs.readFileSync(path.join(ROOT, 'src/extension/main.ts'), 'utf8');
const registered = [...mainSource.matchAll(/'(dbprobe\.[A-Za-z]+)': (async )?\(/g)].map((m) => m[1]);

test('every contributed command is registered at activation, and every registered one contributed', () => {
  const contributed = manifest.contributes.commands.map((c) => c.command).sort();
  assert.deepEqual([...registered].sort(), contributed);
});

test('menus name only contributed commands', () => {
  const contributed = new Set(manifest.contributes.commands.map((c) => c.command));
  for (const [menu, items] of Object.entries(manifest.contributes.menus)) {
    for (const item of items) assert.ok(contributed.has(item.command), `${menu}: ${item.command}`);
  }
});

test('activation is lazy: commands and views, restoring panels, query lenses and the heartbeat', () => {
  assert.deepEqual(manifest.activationEvents, [
    'onWebviewPanel:dbprobe.run',
    'onWebviewPanel:dbprobe.compare',
    // "Probe this query" lenses: the languages they are offered in (src/extension/queries/statements.ts).
    'onLanguage:sql',
    'onLanguage:typescript',
    'onLanguage:javascript',
    'onLanguage:typescriptreact',
    'onLanguage:javascriptreact',
    // The heartbeat (off by default) must start without a command; after start-up, never during it.
    'onStartupFinished',
  ]);
  const panels = fs.readFileSync(path.join(ROOT, 'src/extension/panel/panelManager.ts'), 'utf8');
  for (const event of manifest.activationEvents.filter((e) => e.startsWith('onWebviewPanel:')))
    assert.ok(panels.includes(`'${event.split(':')[1]}'`), event);
  assert.deepEqual(
    manifest.contributes.views.dbprobe?.map((v) => v.id),
    ['dbprobe.targets', 'dbprobe.runs'],
  );
});

test('files the manifest points at exist', () => {
  const files = [
    manifest.icon,
    ...manifest.contributes.jsonValidation.map((j) => j.url),
    ...manifest.contributes.walkthroughs.flatMap((w) => w.steps.map((s) => s.media.markdown ?? '')),
    'media/dbprobe.svg',
    'media/panel.css',
  ];
  for (const file of files) assert.ok(fs.existsSync(path.join(ROOT, file)), file);
  assert.equal(manifest.main, './dist/extension.js');
});

test('chart colours drop a theme alpha so lines stay readable', () => {
  assert.equal(opaque('rgba(234, 92, 0, 0.33)'), 'rgb(234, 92, 0)');
  assert.equal(opaque('rgb(1, 2, 3)'), 'rgb(1, 2, 3)');
  assert.equal(opaque('color(srgb 0.9 0.3 0 / 0.33)'), 'color(srgb 0.9 0.3 0)');
});

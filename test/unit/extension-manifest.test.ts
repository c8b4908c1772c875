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
const coreSource = fs.readFileSync(path.join(ROOT, 'src/extension/core.ts'), 'utf8');
/** The commands main.ts registers for the core (its CORE_COMMANDS list), and those it handles itself. */
const forCore = [
  ...(/const CORE_COMMANDS = \[([^\]]*)\]/.exec(mainSource)?.[1] ?? '').matchAll(/'(dbprobe\.[A-Za-z]+)'/g),
].map((m) => m[1]);
const ownHandlers = [...mainSource.matchAll(/registerCommand\('(dbprobe\.[A-Za-z]+)'/g)].map((m) => m[1]);
const registered = [...forCore, ...ownHandlers];
/** The core's command table (core.ts): what the commands registered for it find there. */
const coreHandlers = [...coreSource.matchAll(/'(dbprobe\.[A-Za-z]+)': (async )?\(/g)].map((m) => m[1]);

test('the core handles every command registered for it, and no other', () => {
  assert.ok(forCore.length > 10, 'main.ts lists the core commands');
  assert.deepEqual([...coreHandlers].sort(), [...forCore].sort());
});

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

test('activation is lazy: commands and views, restoring panels, the heartbeat and query lenses', () => {
  assert.deepEqual(manifest.activationEvents, [
    'onWebviewPanel:dbprobe.run',
    'onWebviewPanel:dbprobe.compare',
    // The heartbeat (off by default) and the last run in the status bar need no command; they start
    // after start-up, never during it. The "Probe this query" lenses come with it: an onLanguage
    // event would only pull the activation into the start-up of a window that restores a .sql file.
    'onStartupFinished',
  ]);
  const panels = fs.readFileSync(path.join(ROOT, 'src/extension/panel/viewTypes.ts'), 'utf8');
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

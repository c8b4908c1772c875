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
const bodySource = fs.readFileSync(path.join(ROOT, 'src/extension/body.ts'), 'utf8');
/** The commands main.ts registers for the body (its BODY_COMMANDS list), and those it handles itself. */
const forBody = [
  ...(/const BODY_COMMANDS = \[([^\]]*)\]/.exec(mainSource)?.[1] ?? '').matchAll(/'(dbprobe\.[A-Za-z]+)'/g),
].map((m) => m[1]);
const ownHandlers = [...mainSource.matchAll(/registerCommand\('(dbprobe\.[A-Za-z]+)'/g)].map((m) => m[1]);
const registered = [...forBody, ...ownHandlers];
/** The body's command table (body.ts): what the commands registered for it find there. */
const bodyHandlers = [...bodySource.matchAll(/'(dbprobe\.[A-Za-z]+)': (async )?\(/g)].map((m) => m[1]);

test('the body handles every command registered for it, and no other', () => {
  assert.ok(forBody.length > 10, 'main.ts lists the body commands');
  assert.deepEqual([...bodyHandlers].sort(), [...forBody].sort());
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

const raw = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
const nls = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.nls.json'), 'utf8')) as Record<
  string,
  string
>;
/** Manifest fields a user reads: each must be a %key% of package.nls.json. */
const USER_TEXT = new Set([
  'displayName',
  'description',
  'markdownDescription',
  'title',
  'category',
  'name',
  'contextualTitle',
  'contents',
  'patternErrorMessage',
  'markdownDeprecationMessage',
]);

/** Every string the manifest shows a user, with where it is; `name` only where it names a view. */
function userStrings(): { where: string; value: string }[] {
  const found: { where: string; value: string }[] = [];
  const walk = (node: unknown, where: string, key: string | undefined): void => {
    if (typeof node === 'string') {
      const isViewName = key === 'name' && /^contributes\.views\./.test(where);
      if ((key && USER_TEXT.has(key) && (key !== 'name' || isViewName)) || key === 'enumDescriptions[]')
        found.push({ where, value: node });
      return;
    }
    if (Array.isArray(node)) {
      node.forEach((item, i) =>
        walk(item, `${where}[${i}]`, key === 'enumDescriptions' ? 'enumDescriptions[]' : undefined),
      );
      return;
    }
    if (typeof node === 'object' && node !== null)
      for (const [k, v] of Object.entries(node)) walk(v, where ? `${where}.${k}` : k, k);
  };
  // The npm package's own name is not shown by VS Code; everything else of the manifest is walked.
  const { name: _packageName, ...rest } = raw;
  walk(rest, '', undefined);
  return found;
}

test('package.nls.json holds every contributed title and description, and nothing unused', () => {
  const strings = userStrings();
  assert.ok(strings.length > 100, `only ${strings.length} user strings found`);
  const used = new Set<string>();
  for (const { where, value } of strings) {
    const key = /^%([\w.-]+)%$/.exec(value)?.[1];
    assert.ok(
      key,
      `${where} is written in package.json ("${value.slice(0, 60)}"): move it to package.nls.json`,
    );
    assert.ok(
      typeof nls[key] === 'string' && nls[key] !== '',
      `${where}: %${key}% is not in package.nls.json`,
    );
    used.add(key);
  }
  const titles = manifest.contributes.commands as unknown as { command: string; title: string }[];
  for (const command of titles) assert.match(command.title, /^%command\.\w+\.title%$/, command.command);
  assert.deepEqual(
    Object.keys(nls).filter((key) => !used.has(key)),
    [],
    'keys of package.nls.json no manifest field uses',
  );
  assert.equal(nls['command.probe.title'], 'Probe Database Latency');
});

/** The context keys the extension sets (src/extension/contextKeys.ts), by constant name. */
const contextKeysSource = fs.readFileSync(path.join(ROOT, 'src/extension/contextKeys.ts'), 'utf8');
const CONTEXT_KEYS = Object.fromEntries(
  [...contextKeysSource.matchAll(/export const (\w+) = '(dbprobe\.\w+)'/g)].map((m) => [m[1]!, m[2]!]),
);
const menus = manifest.contributes.menus as unknown as Record<string, { command: string; when?: string }[]>;
const keybindings = (
  raw.contributes as { keybindings: { command: string; key: string; mac?: string; when?: string }[] }
).keybindings;
const PROBE_QUERY_WHEN = `editorLangId in ${CONTEXT_KEYS.QUERY_LANGUAGES_KEY} && ${CONTEXT_KEYS.CAN_PROBE_QUERY_KEY}`;

test('Probe This Query shows only over a supported editor; Stop Heartbeat only while one runs', () => {
  assert.deepEqual(Object.keys(CONTEXT_KEYS).sort(), [
    'CAN_PROBE_QUERY_KEY',
    'HEARTBEAT_RUNNING_KEY',
    'QUERY_LANGUAGES_KEY',
  ]);
  const whenOf = (menu: string, command: string) => menus[menu]?.find((m) => m.command === command)?.when;
  assert.equal(whenOf('editor/context', 'dbprobe.probeQuery'), PROBE_QUERY_WHEN);
  assert.equal(whenOf('commandPalette', 'dbprobe.probeQuery'), PROBE_QUERY_WHEN);
  assert.equal(whenOf('commandPalette', 'dbprobe.stopHeartbeat'), CONTEXT_KEYS.HEARTBEAT_RUNNING_KEY);
  // Every dbprobe.* key a clause reads is one the extension sets.
  const clauses = [...Object.values(menus).flat(), ...keybindings].flatMap((m) => (m.when ? [m.when] : []));
  const known = new Set(Object.values(CONTEXT_KEYS));
  for (const clause of clauses)
    for (const [key] of clause.matchAll(/\bdbprobe\.\w+/g))
      if (!/^dbprobe\.(targets|runs)$/.test(key)) assert.ok(known.has(key), `${clause}: ${key} is never set`);
  // ...and sets them: the query keys at activation (main.ts's QueryContext), the heartbeat's both ways.
  const queryContext = fs.readFileSync(
    path.join(ROOT, 'src/extension/editorContext/queryContext.ts'),
    'utf8',
  );
  assert.match(queryContext, /setContext', QUERY_LANGUAGES_KEY, QUERY_LANGUAGES\)/);
  assert.match(queryContext, /setContext', CAN_PROBE_QUERY_KEY, value\)/);
  assert.match(mainSource, /new QueryContext\(\)/);
  const heartbeat = fs.readFileSync(path.join(ROOT, 'src/extension/heartbeat/heartbeat.ts'), 'utf8');
  assert.match(heartbeat, /setContext', HEARTBEAT_RUNNING_KEY, true\)/);
  assert.match(heartbeat, /setContext', HEARTBEAT_RUNNING_KEY, false\)/);
});

test('keybindings for Probe Database Latency and Probe This Query, the latter only where it applies', () => {
  const probe = keybindings.find((k) => k.command === 'dbprobe.probe');
  const query = keybindings.find((k) => k.command === 'dbprobe.probeQuery');
  assert.ok(probe?.key && probe.mac, 'dbprobe.probe has a key and a macOS key');
  assert.ok(query?.key && query.mac, 'dbprobe.probeQuery has a key and a macOS key');
  assert.equal(query.when, `editorTextFocus && ${PROBE_QUERY_WHEN}`);
  assert.notEqual(probe.key, query.key);
});

test('timeouts, schedule, load and cold are flat settings, field for field those of dbprobe.json', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { FLAT_SECTIONS } = require('../../src/extension/config/planSettings') as {
    FLAT_SECTIONS: Record<string, readonly string[]>;
  };
  const settings = (raw.contributes as { configuration: { properties: Record<string, { type: unknown }> } })
    .configuration.properties;
  const schema = JSON.parse(fs.readFileSync(path.join(ROOT, 'schema/dbprobe.schema.json'), 'utf8')) as {
    properties: Record<string, { properties?: Record<string, unknown> }>;
  };
  for (const [section, fields] of Object.entries(FLAT_SECTIONS)) {
    assert.equal(settings[`dbprobe.${section}`], undefined, `dbprobe.${section} is declared as an object`);
    const flat = Object.keys(settings)
      .filter((key) => key.startsWith(`dbprobe.${section}.`))
      .map((key) => key.slice(`dbprobe.${section}.`.length));
    assert.deepEqual(flat, [...fields], `the dbprobe.${section}.* settings`);
    // The same fields as dbprobe.json's object, so a settings.json object in the old form still fits.
    assert.deepEqual(
      Object.keys(schema.properties[section]?.properties ?? {}).sort(),
      [...fields].sort(),
      `dbprobe.json's ${section}`,
    );
  }
});

/** Files whose user-facing strings go through vscode.l10n.t (more follow as their owners free them). */
const LOCALIZED_FILES = ['src/extension/main.ts', 'src/extension/commands/probeQuery.ts'];

test('localized files hand messages, titles and prompts to VS Code through vscode.l10n.t', () => {
  // A literal (or a template that does not start by composing localized parts) where VS Code shows it.
  const literal =
    /(show(Information|Warning|Error)Message\(\s*|\b(title|placeHolder|prompt|detail):\s*)(['"]|`(?!\$\{))/g;
  for (const file of LOCALIZED_FILES) {
    const source = fs.readFileSync(path.join(ROOT, file), 'utf8');
    const found = [...source.matchAll(literal)].map((m) => source.slice(m.index, m.index + 80));
    assert.deepEqual(found, [], `${file}: strings shown to the user without vscode.l10n.t`);
    assert.match(source, /vscode\.l10n\.t\(/, file);
  }
});

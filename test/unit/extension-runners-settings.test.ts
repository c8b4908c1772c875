import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import {
  checkRunnerUrl,
  isLoopback,
  parseRunners,
  runnerUrlWarning,
  suggestEnvName,
} from '../../src/extension/runners/runnerSettings';

test('runners setting: valid entries kept, trailing slashes dropped, env maps read', () => {
  const { runners, problems } = parseRunners([
    { name: 'us-east-1', url: 'https://runner.example.com/' },
    { name: 'local', url: 'http://127.0.0.1:8787', env: { 'neon-main': 'NEON_MAIN' } },
  ]);
  assert.deepEqual(problems, []);
  assert.deepEqual(runners, [
    { name: 'us-east-1', url: 'https://runner.example.com', env: {} },
    { name: 'local', url: 'http://127.0.0.1:8787', env: { 'neon-main': 'NEON_MAIN' } },
  ]);
  assert.deepEqual(parseRunners(undefined), { runners: [], problems: [] });
});

test('runners setting: each bad entry is left out with a sentence saying what to fix', () => {
  const { runners, problems } = parseRunners([
    { name: 'ok', url: 'https://a.example.com' },
    { name: 'ok', url: 'https://b.example.com' },
    { name: '1 bad name', url: 'https://c.example.com' },
    { name: 'creds', url: 'https://user:hunter2@d.example.com' },
    { name: 'ftp', url: 'ftp://e.example.com' },
    { name: 'query', url: 'https://f.example.com/?token=abc' },
    'just a string',
    { name: 'envbad', url: 'https://g.example.com', env: { x: 'not a var!' } },
  ]);
  assert.deepEqual(
    runners.map((r) => r.name),
    ['ok', 'envbad'],
  );
  assert.equal(runners[1]?.env.x, undefined, 'a bad mapping is dropped, the runner kept');
  assert.equal(problems.length, 7);
  assert.match(problems[0] ?? '', /\[1\].*another runner is already named "ok"/);
  assert.match(problems[1] ?? '', /\[2\].*letters, digits/);
  assert.match(problems[2] ?? '', /\[3\].*holds credentials/);
  for (const p of problems) assert.ok(!p.includes('hunter2'), 'a problem never quotes credentials');
  assert.match(problems[3] ?? '', /https:\/\/ or http:\/\//);
  assert.match(problems[4] ?? '', /\?query/);
  assert.match(problems[5] ?? '', /must be an object/);
  assert.match(problems[6] ?? '', /environment variable name like X/);
  assert.match(parseRunners({}).problems[0] ?? '', /must be a list/);
});

test('runner URL checks: what is refused, and what only warns (plain http off this machine)', () => {
  assert.equal(checkRunnerUrl('https://runner.example.com'), undefined);
  assert.match(checkRunnerUrl('runner.example.com') ?? '', /base URL/);
  assert.equal(runnerUrlWarning('https://runner.example.com'), undefined);
  assert.equal(runnerUrlWarning('http://127.0.0.1:8787'), undefined);
  assert.equal(runnerUrlWarning('http://localhost:8787'), undefined);
  assert.equal(runnerUrlWarning('http://[::1]:8787'), undefined);
  assert.match(runnerUrlWarning('http://10.0.0.5:8787') ?? '', /unencrypted/);
  assert.equal(isLoopback('127.1.2.3'), true);
  assert.equal(isLoopback('127.example.com'), false);
});

test('secret names map to environment variable names a runner can hold', () => {
  assert.equal(suggestEnvName('neon-main'), 'NEON_MAIN');
  assert.equal(suggestEnvName('prod.db-2'), 'PROD_DB_2');
  assert.equal(suggestEnvName('3rd'), '_3RD');
  assert.equal(suggestEnvName('--'), 'DATABASE_URL');
});

test('the manifest contributes dbprobe.runners as user-only {name, url, env} entries, and both commands', () => {
  const manifest = JSON.parse(fs.readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as {
    contributes: {
      commands: { command: string }[];
      configuration: { properties: Record<string, Record<string, unknown>> };
    };
  };
  const setting = manifest.contributes.configuration.properties['dbprobe.runners'] as {
    scope: string;
    items: { required: string[]; properties: Record<string, { pattern?: string }> };
  };
  // A workspace must not point a runner name (and its stored token) at another host.
  assert.equal(setting.scope, 'application');
  assert.deepEqual(setting.items.required, ['name', 'url']);
  assert.deepEqual(Object.keys(setting.items.properties), ['name', 'url', 'env']);
  const url = new RegExp(setting.items.properties.url?.pattern ?? '');
  assert.ok(url.test('https://runner.example.com'));
  assert.ok(url.test('http://127.0.0.1:8787/base'));
  assert.ok(!url.test('https://user:pw@runner.example.com'));
  assert.ok(!url.test('https://runner.example.com/?token=x'));
  const commands = manifest.contributes.commands.map((c) => c.command);
  assert.ok(commands.includes('dbprobe.addRunner') && commands.includes('dbprobe.removeRunner'));
});

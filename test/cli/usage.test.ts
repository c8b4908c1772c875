/** CLI behaviour that needs no database server: usage errors, config errors, formats, the demo. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { DRIVER_IDS } from '../../src/drivers/catalog';
import { LAYER_CATALOG } from '../../src/shared/layerCatalog';
import { configDir, runCli } from '../helpers/cli';
import { assertMatchesSchema } from '../helpers/schema';

test('no command prints usage and exits 2; unknown command names the valid ones', async () => {
  const none = await runCli([]);
  assert.equal(none.code, 2);
  assert.match(none.stdout, /Commands:/);
  const unknown = await runCli(['probe']);
  assert.equal(unknown.code, 2);
  assert.match(unknown.stderr, /unknown command "probe"; use one of: run, drivers, demo/);
});

test('drivers --json lists ids, transports and installed package versions', async () => {
  const run = await runCli(['drivers', '--json']);
  assert.equal(run.code, 0);
  const drivers = JSON.parse(run.stdout) as { id: string; transport: string; version: string }[];
  const ids = DRIVER_IDS;
  assert.deepEqual(drivers.map((d) => d.id).sort(), [...ids].sort(), 'every catalogued driver');
  for (const id of ids) {
    const d = drivers.find((x) => x.id === id);
    assert.ok(d, `${id} listed`);
    assert.match(d.version, /^\d+\.\d+\.\d+/);
  }
});

test('drivers lists the ORM layers over each driver, in the table and in --json', async () => {
  const expected = (id: string) =>
    LAYER_CATALOG.filter((layer) => layer.drivers.includes(id)).map((layer) => ({
      id: layer.id,
      package: layer.packageName,
    }));
  const json = await runCli(['drivers', '--json']);
  assert.equal(json.code, 0, json.stderr);
  const drivers = JSON.parse(json.stdout) as { id: string; layers: { id: string; package: string }[] }[];
  for (const id of DRIVER_IDS)
    assert.deepEqual(drivers.find((d) => d.id === id)?.layers, expected(id), `${id}'s layers`);
  assert.deepEqual(
    drivers.find((d) => d.id === 'pg')?.layers.map((layer) => layer.id),
    ['prisma', 'drizzle', 'kysely'],
  );

  const text = await runCli(['drivers']);
  assert.equal(text.code, 0, text.stderr);
  const [header, ...rows] = text.stdout.trimEnd().split('\n');
  const column = header!.indexOf('orm layers');
  assert.ok(column > 0, header);
  const cell = (row: string) => row.slice(column).split(/\s{2,}/)[0];
  for (const id of DRIVER_IDS) {
    const row = rows.find((r) => r.startsWith(`${id} `));
    assert.ok(row, `${id} has a row`);
    assert.equal(
      cell(row),
      expected(id)
        .map((layer) => layer.id)
        .join(', ') || '-',
      row,
    );
  }
});

test('a missing config file is a usage error that says how to fix it', async () => {
  const run = await runCli(['run', '--config', 'nope.json'], { cwd: configDir({}) });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /config file \S*nope\.json not found; create one/);
});

test('invalid JSON and invalid fields exit 2 naming each field', async () => {
  const badJson = await runCli(['run'], { cwd: configDir('{ "targets": [ ') });
  assert.equal(badJson.code, 2);
  assert.match(badJson.stderr, /is not valid JSON/);
  const badFields = await runCli(['run'], {
    cwd: configDir({
      targets: [{ name: 'x', driver: 'nosuch', connection: 'env:X' }],
      iterations: -3,
      iteration: 5,
    }),
  });
  assert.equal(badFields.code, 2);
  assert.match(badFields.stderr, /unknown field "iteration"/);
});

test('a literal connection string in the config is refused without echoing it', async () => {
  const run = await runCli(['run'], {
    cwd: configDir({
      targets: [{ name: 'x', driver: 'pg', connection: 'postgres://u:hunter2-secret@h/db' }],
    }),
  });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /looks like a literal connection string/);
  assert.ok(!run.stderr.includes('hunter2-secret'));
});

test('a missing environment variable names the target, the variable and an example', async () => {
  const run = await runCli(['run'], {
    cwd: configDir({ targets: [{ name: 'main db', driver: 'pg', connection: 'env:MAIN_DB_URL' }] }),
  });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /target "main db" \(pg\): config: environment variable MAIN_DB_URL is not set/);
  assert.match(run.stderr, /export MAIN_DB_URL='postgres:\/\/user:\*\*\*\*@host:5432\/db/);
  assert.equal(run.stderr.trim().split('\n').length, 1, 'one line');
});

test('a malformed connection string is a config error, redacted', async () => {
  const cwd = configDir({ targets: [{ name: 'x', driver: 'pg', connection: 'env:X_URL' }] });
  const wrongScheme = await runCli(['run'], { cwd, env: { X_URL: 'mysql://u:pa55word-leak@127.0.0.1/db' } });
  assert.equal(wrongScheme.code, 2);
  assert.match(
    wrongScheme.stderr,
    /target "x" \(pg\): config: the connection string has "mysql:", but driver pg expects postgres: or postgresql:/,
  );
  assert.ok(!wrongScheme.stderr.includes('pa55word-leak'));
  const notUrl = await runCli(['run'], { cwd, env: { X_URL: 'postgres://u:pa55%word-leak@[bad/db' } });
  assert.equal(notUrl.code, 2);
  assert.match(notUrl.stderr, /the password seems to hold an unencoded %: percent-encode/);
  assert.ok(!notUrl.stderr.includes('pa55'));
});

test('--targets with an unknown name lists the available ones', async () => {
  const cwd = configDir({ targets: [{ name: 'a', driver: 'libsql', connection: 'env:A' }] });
  const run = await runCli(['run', '--targets', 'b'], { cwd, env: { A: 'file:/tmp/x.db' } });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /--targets names "b" not in the config; available: a/);
});

test('demo prints initial and subsequent tables for the embedded database', async () => {
  const run = await runCli(['demo', '-n', '30', '--warmup', '3']);
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /## Initial query/);
  assert.match(run.stdout, /## Subsequent query/);
  assert.match(run.stdout, /\| embedded libSQL \(file\) \| libsql \| file \| 30 \|/);
  assert.match(run.stdout, /## Expected latency/);
});

test('run writes json (schema-valid), csv and markdown with --out', async () => {
  const cwd = configDir({
    targets: [{ name: 'file db', driver: 'libsql', connection: 'env:LIBSQL_URL' }],
    iterations: 12,
    warmup: 1,
  });
  const env = { LIBSQL_URL: `file:${path.join(cwd, 'x.db')}` };
  const json = await runCli(['run', '--format', 'json', '--out', 'r.json', '--quiet'], { cwd, env });
  assert.equal(json.code, 0, json.stderr);
  const result = JSON.parse(readFileSync(path.join(cwd, 'r.json'), 'utf8'));
  assertMatchesSchema('result', result);
  assert.equal(result.measurements.length, 2);
  const csv = await runCli(['run', '--format', 'csv', '--kinds', 'subsequent', '-q'], { cwd, env });
  assert.equal(csv.code, 0);
  assert.equal(csv.stdout.trim().split('\n').length, 1 + 12);
  const md = await runCli(['run', '--iterations', '5'], { cwd, env });
  assert.equal(md.code, 0);
  assert.match(md.stdout, /\| file db \| libsql \| file \| 5 \|/);
  assert.match(md.stderr, /file db initial: p50 [\d.]+ ms/, 'plain progress lines when stderr is not a TTY');
});

test('bad flags exit 2 with usage', async () => {
  const run = await runCli(['run', '--iterations', 'many'], { cwd: configDir({ targets: [] }) });
  assert.equal(run.code, 2);
  assert.match(run.stderr, /--iterations must be a whole number/);
  const format = await runCli(['run', '--format', 'xml'], { cwd: configDir({ targets: [] }) });
  assert.equal(format.code, 2);
  assert.match(format.stderr, /--format must be one of markdown, json, csv/);
});

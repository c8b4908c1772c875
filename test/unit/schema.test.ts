import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import configSchema from '../../schema/dbprobe.schema.json';
import resultSchema from '../../schema/run-result.schema.json';
import { runPlan } from '../../src/core/engine';
import { DRIVER_IDS } from '../../src/drivers/catalog';
import { PROBE_KINDS } from '../../src/shared/plan';
import type { RunResult } from '../../src/shared/result';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';
import { schemaFiles } from '../../scripts/build/schemaFiles';
import { assertMatchesSchema, isRejected } from '../helpers/schema';

/** A completed engine result with both kinds of sample: target a succeeds, target b is refused. */
async function resultWithErrors(): Promise<RunResult> {
  const clock = new FakeClock();
  const registry = fakeRegistry([
    fakeDriver('a', clock, { connectUs: [900], queryUs: [120, 80] }, new FakeDriverStats()),
    fakeDriver(
      'b',
      clock,
      { queryError: () => Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }) },
      new FakeDriverStats(),
    ),
  ]);
  const result = await runPlan(plan([target('a'), target('b')], { iterations: 20, warmup: 2 }), {
    registry,
    resolveConnection: async () => 'fake://u:p@h/db',
    tool: TOOL,
    clock,
  });
  return JSON.parse(JSON.stringify(result)) as RunResult;
}

test('a run result (with errors and samples) validates against run-result.schema.json', async () => {
  const result = await resultWithErrors();
  const samples = result.measurements.flatMap((m) => m.samples.values);
  assert.ok(samples.some((s) => s.us !== undefined) && samples.some((s) => s.error !== undefined));
  assertMatchesSchema('result', result);
});

test('the result schema ties stopReason to the state: only a stopped run has one, and it must', async () => {
  const { stopReason: _none, ...completed } = await resultWithErrors();
  assert.equal(completed.state, 'completed');
  assertMatchesSchema('result', completed);
  assert.ok(isRejected('result', { ...completed, stopReason: 'why would a completed run say this' }));
  for (const state of ['cancelled', 'timedOut']) {
    assertMatchesSchema('result', { ...completed, state, stopReason: 'cancelled by the user' });
    assert.ok(isRejected('result', { ...completed, state }), `${state} without a stopReason`);
  }
});

test('the result schema takes a sample as a latency or an error, never both or neither', async () => {
  const result = await resultWithErrors();
  const withSamples = (values: unknown[]) => ({
    ...result,
    measurements: result.measurements.map((m) => ({ ...m, samples: { ...m.samples, values } })),
  });
  assertMatchesSchema('result', withSamples([{ atUs: 0, us: 900, connectUs: 700, dnsUs: 5, tcpUs: 80 }]));
  assertMatchesSchema('result', withSamples([{ atUs: 0, error: 'refused' }]));
  assertMatchesSchema('result', withSamples([{ atUs: 0, error: 'refused', failedAfterUs: 1_200 }]));
  assert.ok(
    isRejected('result', withSamples([{ atUs: 0, error: 'refused', failedAfterUs: -1 }])),
    'negative',
  );
  assert.ok(isRejected('result', withSamples([{ atUs: 0, us: 900, failedAfterUs: 5 }])), 'a success');
  assert.ok(isRejected('result', withSamples([{ atUs: 0, us: 900, error: 'refused' }])), 'both');
  assert.ok(isRejected('result', withSamples([{ atUs: 0 }])), 'neither');
  assert.ok(isRejected('result', withSamples([{ atUs: 0, error: 'refused', connectUs: 700 }])), 'phases');
});

test('both schemas list exactly the probe kinds the engine has', () => {
  assert.deepEqual(resultSchema.definitions.measurement.properties.kind.enum, [...PROBE_KINDS]);
  assert.deepEqual(configSchema.properties.kinds.items.enum, [...PROBE_KINDS]);
});

test('the result schema rejects a result without histograms', () => {
  assert.ok(isRejected('result', { schema: 'dbprobe.run/v1', id: 'x', state: 'completed' }));
});

test('the config schema accepts the example config and rejects literal connection strings', () => {
  const example = {
    targets: [
      { name: 'pg direct', driver: 'pg', connection: 'env:DATABASE_URL' },
      { name: 'redis', driver: 'ioredis', connection: 'secret:upstash', query: 'GET k' },
    ],
    kinds: ['initial', 'subsequent'],
    iterations: 100,
    warmup: 10,
    timeouts: { connectMs: 5000 },
  };
  assertMatchesSchema('config', example);
  assert.ok(
    isRejected('config', { targets: [{ name: 'x', driver: 'pg', connection: 'postgres://u:p@h/db' }] }),
  );
  assert.ok(isRejected('config', { targets: [], iterations: 0 }));
});

const ROOT = path.resolve(__dirname, '../..');
const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

test('the shipped schemas and the targets setting are what `npm run schema` generates', () => {
  for (const [file, generate] of schemaFiles())
    assert.deepEqual(readJson(file), generate(), `${path.relative(ROOT, file)}: run \`npm run schema\``);
  const driver = configSchema.properties.targets.items.properties.driver;
  assert.deepEqual(driver.enum, [...DRIVER_IDS]);
  assert.equal(driver.enumDescriptions.length, DRIVER_IDS.length);
});

test("the README's example config validates, and a driver the CLI refuses is refused", () => {
  const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
  const example = /### Config\n\n```json\n([\s\S]*?)\n```/.exec(readme)?.[1];
  assert.ok(example, 'README.md has a ```json block under "### Config"');
  const config = JSON.parse(example) as { $schema: string; targets: { driver: string }[] };
  assertMatchesSchema('config', config);
  // Where a user's project finds the schema: in the installed package.
  assert.equal(config.$schema, './node_modules/dbprobe/schema/dbprobe.schema.json');
  const postgres = { ...config, targets: [{ ...config.targets[0], driver: 'postgres' }] };
  assert.ok(isRejected('config', postgres), '"driver": "postgres" is not a driver id');
  assert.equal(configSchema.$id, 'https://unpkg.com/dbprobe/schema/dbprobe.schema.json');
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';
import { assertMatchesSchema, isRejected } from '../helpers/schema';

test('a run result (with errors and samples) validates against run-result.schema.json', async () => {
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
  assertMatchesSchema('result', JSON.parse(JSON.stringify(result)));
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

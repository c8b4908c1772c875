import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';

const resolveConnection = async () => 'fake://user:pw@host/db';

test('cancelling mid-query returns within a second with partial results and closes every connection', async () => {
  const clock = new FakeClock();
  const stats = new FakeDriverStats();
  // The query hangs forever and the timeouts are a minute: only cancellation can end the run.
  const hanging = fakeRegistry([fakeDriver('a', clock, { hangQuery: true }, stats)]);
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 100);
  const started = process.hrtime.bigint();
  const result = await runPlan(
    plan([target('a')], {
      kinds: ['subsequent'],
      iterations: 1000,
      timeouts: { connectMs: 60_000, queryMs: 60_000, runMs: 60_000 },
    }),
    {
      registry: hanging,
      resolveConnection,
      tool: TOOL,
      clock,
      signal: controller.signal,
      watchClient: false,
    },
  );
  const ms = Number(process.hrtime.bigint() - started) / 1e6;
  assert.ok(ms < 1000, `returned after ${ms} ms`);
  assert.equal(result.state, 'cancelled');
  assert.equal(result.stopReason, 'cancelled by the user');
  assert.equal(stats.open, 0, 'all connections closed');
  assert.equal(result.measurements[0]?.stats.errors, 0, 'the cut-short sample is not a database error');
});

test('cancelling keeps the samples measured so far', async () => {
  const clock = new FakeClock();
  const stats = new FakeDriverStats();
  const registry = fakeRegistry([fakeDriver('a', clock, { queryUs: [100] }, stats)]);
  const controller = new AbortController();
  const result = await runPlan(plan([target('a')], { kinds: ['subsequent'], iterations: 1_000_000 }), {
    registry,
    resolveConnection,
    tool: TOOL,
    clock,
    signal: controller.signal,
    watchClient: false,
    onEvent: (e) => {
      if (e.type === 'sample' && e.index === 41) controller.abort();
    },
  });
  assert.equal(result.state, 'cancelled');
  assert.equal(result.measurements[0]?.stats.count, 42);
  assert.equal(stats.open, 0);
});

test('the run timeout stops the run as timedOut', async () => {
  const clock = new FakeClock();
  const stats = new FakeDriverStats();
  const registry = fakeRegistry([fakeDriver('a', clock, { hangQuery: true }, stats)]);
  const result = await runPlan(
    plan([target('a')], {
      kinds: ['subsequent'],
      iterations: 10,
      timeouts: { connectMs: 5000, queryMs: 5000, runMs: 80 },
    }),
    { registry, resolveConnection, tool: TOOL, clock, watchClient: false },
  );
  assert.equal(result.state, 'timedOut');
  assert.match(result.stopReason ?? '', /80 ms/);
  assert.equal(stats.open, 0);
});

test('an already-aborted signal runs nothing', async () => {
  const clock = new FakeClock();
  const stats = new FakeDriverStats();
  const registry = fakeRegistry([fakeDriver('a', clock, {}, stats)]);
  const result = await runPlan(plan([target('a')]), {
    registry,
    resolveConnection,
    tool: TOOL,
    clock,
    signal: AbortSignal.abort(),
    watchClient: false,
  });
  assert.equal(result.state, 'cancelled');
  assert.equal(stats.connects, 0);
});

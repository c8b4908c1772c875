import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import type { ProbeEvent } from '../../src/shared/events';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';

const resolveConnection = async () => 'fake://user:pw-secret@host/db';

test('initial opens and closes a new connection per sample and times connect + query', async () => {
  const clock = new FakeClock();
  const stats = new FakeDriverStats();
  const registry = fakeRegistry([fakeDriver('a', clock, { connectUs: [1000], queryUs: [200] }, stats)]);
  const result = await runPlan(plan([target('a')], { kinds: ['initial'], iterations: 4, warmup: 2 }), {
    registry,
    resolveConnection,
    tool: TOOL,
    clock,
    watchClient: false,
  });
  assert.equal(stats.connects, 6, '2 warm-up + 4 measured connections');
  assert.equal(stats.closes, 6);
  assert.equal(stats.open, 0);
  const m = result.measurements[0]!;
  assert.equal(m.stats.count, 4);
  assert.equal(
    m.stats.p50Us,
    1200,
    'connect + query only: close() (7 ms on the fake clock) lies outside the sample',
  );
  assert.equal(m.warmup.count, 2, 'warm-up reported beside');
  assert.deepEqual(m.reused, []);
});

test('subsequent reuses its warm connections in turn and times only the query', async () => {
  const clock = new FakeClock();
  const stats = new FakeDriverStats();
  const registry = fakeRegistry([fakeDriver('a', clock, { connectUs: [5000], queryUs: [300] }, stats)]);
  const result = await runPlan(plan([target('a')], { kinds: ['subsequent'], iterations: 10, warmup: 3 }), {
    registry,
    resolveConnection,
    tool: TOOL,
    clock,
    watchClient: false,
  });
  // Four warm connections by default, taken in turn: samples 3..12 of the kind run on 3, 0, 1, 2, ...
  assert.equal(stats.connects, 4);
  assert.equal(stats.queries, 13);
  assert.equal(stats.open, 0, 'closed at the end');
  const m = result.measurements[0]!;
  assert.equal(m.stats.count, 10);
  assert.equal(m.stats.maxUs, 300);
  assert.deepEqual(m.reused, ['connection']);
  assert.deepEqual(
    m.samples.values.map((s) => s.conn),
    [3, 0, 1, 2, 3, 0, 1, 2, 3, 0],
  );
  // One when the plan asks for one.
  const one = new FakeDriverStats();
  await runPlan(
    plan([target('a')], { kinds: ['subsequent'], iterations: 10, warmup: 3, warmConnections: 1 }),
    {
      registry: fakeRegistry([fakeDriver('a', clock, { connectUs: [5000], queryUs: [300] }, one)]),
      resolveConnection,
      tool: TOOL,
      clock,
      watchClient: false,
    },
  );
  assert.equal(one.connects, 1);
});

test('warm-up samples are excluded from the statistics', async () => {
  const clock = new FakeClock();
  const stats = new FakeDriverStats();
  // The first two queries are slow (cold caches): they must land in warm-up only.
  const registry = fakeRegistry([fakeDriver('a', clock, { queryUs: [9000, 8000, 100] }, stats)]);
  const result = await runPlan(plan([target('a')], { kinds: ['subsequent'], iterations: 5, warmup: 2 }), {
    registry,
    resolveConnection,
    tool: TOOL,
    clock,
    watchClient: false,
  });
  const m = result.measurements[0]!;
  assert.equal(m.stats.maxUs, 100);
  assert.equal(m.warmup.maxUs, 9000);
  assert.equal(m.samples.values.length, 5, 'only measured samples are kept');
});

test('targets are interleaved by default and sequential on request', async () => {
  for (const [order, expected] of [
    ['interleaved', 'a b a b'],
    ['sequential', 'a a b b'],
  ] as const) {
    const clock = new FakeClock();
    const stats = new FakeDriverStats();
    const registry = fakeRegistry([fakeDriver('a', clock, {}, stats), fakeDriver('b', clock, {}, stats)]);
    await runPlan(plan([target('a'), target('b')], { kinds: ['initial'], iterations: 2, order }), {
      registry,
      resolveConnection,
      tool: TOOL,
      clock,
      watchClient: false,
    });
    const connects = stats.log.filter((l) => l.startsWith('connect')).map((l) => l.split(':')[1]);
    assert.equal(connects.join(' '), expected, order);
  }
});

test('events: start, one sample per step, targetDone per target and kind, done last', async () => {
  const clock = new FakeClock();
  const stats = new FakeDriverStats();
  const registry = fakeRegistry([
    fakeDriver('a', clock, { queryUs: [10] }, stats),
    fakeDriver('b', clock, {}, stats),
  ]);
  const events: ProbeEvent[] = [];
  const result = await runPlan(plan([target('a'), target('b')], { iterations: 3, warmup: 1 }), {
    registry,
    resolveConnection,
    tool: TOOL,
    clock,
    watchClient: false,
    onEvent: (e) => events.push(e),
  });
  const start = events[0];
  assert.equal(start?.type, 'start');
  assert.equal(start.type === 'start' && start.totalSamples, 2 * 2 * 4);
  assert.equal(events.filter((e) => e.type === 'sample').length, 16);
  assert.equal(events.filter((e) => e.type === 'targetDone').length, 4);
  const last = events.at(-1);
  assert.equal(last?.type, 'done');
  assert.equal(last?.type === 'done' && last.result, result);
});

test('a listener that throws does not break the run', async () => {
  const clock = new FakeClock();
  const registry = fakeRegistry([fakeDriver('a', clock, {}, new FakeDriverStats())]);
  const result = await runPlan(plan([target('a')]), {
    registry,
    resolveConnection,
    tool: TOOL,
    clock,
    watchClient: false,
    onEvent: () => {
      throw new Error('view bug');
    },
  });
  assert.equal(result.state, 'completed');
});

test('the result records the clock, environment and no secret', async () => {
  const clock = new FakeClock();
  const registry = fakeRegistry([
    fakeDriver(
      'a',
      clock,
      { queryError: () => new Error('bad pw-secret in fake://user:pw-secret@host/db') },
      new FakeDriverStats(),
    ),
  ]);
  const result = await runPlan(plan([target('a')]), { registry, resolveConnection, tool: TOOL, clock });
  assert.equal(result.environment.clock.name, 'fake');
  assert.equal(result.environment.drivers.a?.version, '0.0.0-fake');
  assert.ok(result.environment.cpus.count > 0);
  assert.ok(!JSON.stringify(result).includes('pw-secret'));
  assert.equal(result.measurements[0]?.failed, true);
});

test('initial samples split into connect and first query; subsequent samples do not', async () => {
  const clock = new FakeClock();
  const registry = fakeRegistry([
    fakeDriver('a', clock, { connectUs: [3000], queryUs: [400] }, new FakeDriverStats()),
  ]);
  const result = await runPlan(plan([target('a')], { iterations: 6 }), {
    registry,
    resolveConnection,
    tool: TOOL,
    clock,
    watchClient: false,
  });
  const initial = result.measurements.find((m) => m.kind === 'initial')!;
  assert.equal(initial.phases?.connect.p50Us, 3000);
  assert.equal(initial.phases?.firstQuery.p50Us, 400);
  assert.equal(initial.samples.values[0]?.connectUs, 3000);
  const subsequent = result.measurements.find((m) => m.kind === 'subsequent')!;
  assert.equal(subsequent.phases, undefined);
});

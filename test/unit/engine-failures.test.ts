import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';

const resolveConnection = async () => 'fake://user:pw@host/db';
const elapsedMs = (start: bigint) => Number(process.hrtime.bigint() - start) / 1e6;

test('a hanging connect times out per sample, classified as timeout', async () => {
  const clock = new FakeClock();
  const stats = new FakeDriverStats();
  const registry = fakeRegistry([fakeDriver('a', clock, { hangConnect: true }, stats)]);
  const started = process.hrtime.bigint();
  const result = await runPlan(
    plan([target('a')], {
      kinds: ['initial'],
      iterations: 3,
      timeouts: { connectMs: 50, queryMs: 50, runMs: 10_000 },
    }),
    { registry, resolveConnection, tool: TOOL, clock, watchClient: false },
  );
  const m = result.measurements[0]!;
  assert.equal(m.stats.errors, 3);
  assert.deepEqual(m.errorsByClass, { timeout: 3 });
  assert.match(m.firstErrors[0]!.message, /connect timed out after 50 ms/);
  // Both ends: a timeout that fired at once (or not at all) is as wrong as one that fired late. Node
  // fires a timer no earlier than asked, give or take its 1 ms rounding.
  const elapsed = elapsedMs(started);
  assert.ok(elapsed >= 3 * 49, `three 50 ms timeouts took only ${elapsed} ms`);
  assert.ok(elapsed < 1000, `three 50 ms timeouts took ${elapsed} ms`);
});

test('a hanging query times out and the connection is destroyed, then replaced', async () => {
  const clock = new FakeClock();
  const stats = new FakeDriverStats();
  const registry = fakeRegistry([fakeDriver('a', clock, { hangQuery: true }, stats)]);
  const started = process.hrtime.bigint();
  const result = await runPlan(
    plan([target('a')], {
      kinds: ['subsequent'],
      iterations: 2,
      timeouts: { connectMs: 50, queryMs: 30, runMs: 10_000 },
    }),
    { registry, resolveConnection, tool: TOOL, clock, watchClient: false },
  );
  assert.equal(result.measurements[0]!.errorsByClass.timeout, 2);
  const elapsed = elapsedMs(started);
  assert.ok(elapsed >= 2 * 29 && elapsed < 1000, `two 30 ms query timeouts took ${elapsed} ms`);
  assert.equal(stats.connects, 2, 'a timed-out connection is not reused');
  assert.equal(stats.destroys, 2);
  assert.equal(stats.open, 0);
});

test('a connection that arrives after its deadline is closed, not leaked', async () => {
  const clock = new FakeClock();
  const stats = new FakeDriverStats();
  const registry = fakeRegistry([fakeDriver('a', clock, { connectDelayMs: 80 }, stats)]);
  await runPlan(
    plan([target('a')], {
      kinds: ['initial'],
      iterations: 1,
      timeouts: { connectMs: 20, queryMs: 50, runMs: 10_000 },
    }),
    { registry, resolveConnection, tool: TOOL, clock, watchClient: false },
  );
  await new Promise((r) => setTimeout(r, 150));
  assert.equal(stats.connects, 1);
  assert.equal(stats.open, 0, 'the late connection was closed');
});

test('query errors keep the warm connection; errors are samples, counted and rated', async () => {
  const clock = new FakeClock();
  const stats = new FakeDriverStats();
  const queryError = (call: number) =>
    call % 2 === 0 ? Object.assign(new Error('syntax error at or near "x"'), { code: '42601' }) : undefined;
  const registry = fakeRegistry([fakeDriver('a', clock, { queryUs: [100], queryError }, stats)]);
  const result = await runPlan(
    plan([target('a')], { kinds: ['subsequent'], iterations: 10, warmConnections: 1 }),
    {
      registry,
      resolveConnection,
      tool: TOOL,
      clock,
      watchClient: false,
    },
  );
  const m = result.measurements[0]!;
  assert.equal(stats.connects, 1);
  assert.equal(m.stats.count, 5);
  assert.equal(m.stats.errors, 5);
  assert.equal(m.stats.errorRate, 0.5);
  assert.equal(m.failed, false);
  assert.equal(m.samples.values.filter((s) => s.error === 'query').length, 5);
});

test('a target that never succeeds stops early and is marked failed; others go on', async () => {
  const clock = new FakeClock();
  const refused = () =>
    Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:9'), { code: 'ECONNREFUSED' });
  const bad = new FakeDriverStats();
  const good = new FakeDriverStats();
  const registry = fakeRegistry([
    fakeDriver('bad', clock, { connectError: refused }, bad),
    fakeDriver('good', clock, { queryUs: [10] }, good),
  ]);
  const result = await runPlan(
    plan([target('bad'), target('good')], { kinds: ['initial'], iterations: 50, maxConsecutiveErrors: 3 }),
    { registry, resolveConnection, tool: TOOL, clock, watchClient: false },
  );
  const [badM, goodM] = result.measurements;
  assert.equal(bad.connects, 3);
  assert.equal(badM?.failed, true);
  assert.match(badM?.stoppedEarly ?? '', /3 consecutive errors/);
  assert.equal(goodM?.stats.count, 50);
});

test('auth failures stop the target at once: retrying cannot help', async () => {
  const clock = new FakeClock();
  const stats = new FakeDriverStats();
  const auth = () => Object.assign(new Error('password authentication failed'), { code: '28P01' });
  const registry = fakeRegistry([fakeDriver('a', clock, { connectError: auth }, stats)]);
  const result = await runPlan(plan([target('a')], { iterations: 20 }), {
    registry,
    resolveConnection,
    tool: TOOL,
    clock,
    watchClient: false,
  });
  assert.equal(stats.connects, 2, 'one try per kind');
  assert.ok(result.measurements.every((m) => m.failed && m.errorsByClass.auth === 1));
});

test('setup errors (bad scheme, missing driver package) fail the target with class config', async () => {
  const clock = new FakeClock();
  const registry = fakeRegistry([fakeDriver('a', clock, {}, new FakeDriverStats())]);
  const result = await runPlan(plan([target('a')], { kinds: ['initial'] }), {
    registry,
    resolveConnection: async () => 'postgres://u:leak-me@h/db',
    tool: TOOL,
    clock,
    watchClient: false,
  });
  const m = result.measurements[0]!;
  assert.equal(m.failed, true);
  assert.equal(m.firstErrors[0]?.class, 'config');
  assert.match(m.firstErrors[0]!.message, /expects fake:/);
  assert.ok(!JSON.stringify(result).includes('leak-me'));
});

test('a finished subsequent run leaves no timer behind: its warm connections give theirs back', async () => {
  const timers = () => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
  const before = timers();
  const clock = new FakeClock();
  const registry = fakeRegistry([fakeDriver('a', clock, { queryUs: [100] }, new FakeDriverStats())]);
  await runPlan(
    plan([target('a')], {
      kinds: ['subsequent'],
      iterations: 5,
      timeouts: { connectMs: 5_000, queryMs: 5_000, runMs: 60_000 },
    }),
    { registry, resolveConnection, tool: TOOL, clock, watchClient: false },
  );
  // A query timer still armed would keep the CLI (and a runner) alive for its timeout.
  assert.equal(timers(), before);
});

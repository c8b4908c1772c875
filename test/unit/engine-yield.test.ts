/**
 * The engine lets the event loop turn between samples, so a driver that answers without I/O (its
 * promises settle in the microtask queue, like libSQL `file:`) cannot starve timers and cancellation.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import { LoopTurn } from '../../src/core/loopTurn';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';

const resolveConnection = async () => 'fake://user:pw@host/db';

/** A million samples of a driver that never does I/O: without turns, no timer could fire before the end. */
function microtaskRun(overrides: Parameters<typeof plan>[1], signal?: AbortSignal, watchClient = false) {
  const clock = new FakeClock();
  const stats = new FakeDriverStats();
  const registry = fakeRegistry([fakeDriver('a', clock, {}, stats)]);
  const run = runPlan(plan([target('a')], { kinds: ['subsequent'], iterations: 1_000_000, ...overrides }), {
    registry,
    resolveConnection,
    tool: TOOL,
    clock,
    watchClient,
    ...(signal ? { signal } : {}),
  });
  return { run, stats };
}

test('the run time limit stops a driver that answers without I/O', async () => {
  const { run, stats } = microtaskRun({ timeouts: { connectMs: 5000, queryMs: 5000, runMs: 50 } });
  const result = await run;
  assert.equal(result.state, 'timedOut');
  assert.ok(stats.queries < 1_000_000, `stopped early (${stats.queries} queries)`);
  assert.equal(stats.open, 0, 'the warm connection was closed');
});

test('a cancel from a timer stops a driver that answers without I/O', async () => {
  const controller = new AbortController();
  setTimeout(() => controller.abort(), 30);
  const { run, stats } = microtaskRun({}, controller.signal);
  const result = await run;
  assert.equal(result.state, 'cancelled');
  assert.ok(stats.queries < 1_000_000, `stopped early (${stats.queries} queries)`);
  assert.ok((result.measurements[0]?.stats.count ?? 0) > 0, 'samples before the cancel are kept');
});

test('other timers keep firing while such a run goes on', async () => {
  let ticks = 0;
  const interval = setInterval(() => (ticks += 1), 5);
  try {
    const { run } = microtaskRun({ iterations: 20_000 });
    const result = await run;
    assert.equal(result.state, 'completed');
    assert.ok(ticks >= 2, `an interval of 5 ms fired ${ticks} times during the run`);
  } finally {
    clearInterval(interval);
  }
});

test('the event-loop-delay monitor sees the loop during such a run', async () => {
  const { run } = microtaskRun({ timeouts: { connectMs: 5000, queryMs: 5000, runMs: 300 } }, undefined, true);
  const result = await run;
  // Its 10 ms timer records a delay only when the loop reaches it; an unturned loop records nothing.
  assert.ok(result.client.eventLoopDelayMaxUs > 0, JSON.stringify(result.client));
});

test('a turn is due every N samples when the clock stands still', () => {
  const turn = new LoopTurn(3, 1_000);
  const due = [1, 2, 3, 4, 5, 6, 7].map(() => turn.due(0n));
  assert.deepEqual(due, [false, false, true, false, false, true, false]);
});

test('a turn is due after the wall-time budget even when few samples ran', () => {
  const turn = new LoopTurn(1_000, 5);
  assert.equal(turn.due(0n), false, 'the first reading starts the budget');
  assert.equal(turn.due(4_000_000n), false, '4 ms: not yet');
  assert.equal(turn.due(5_000_000n), true, '5 ms: due');
  assert.equal(turn.due(6_000_000n), false, 'the budget restarts at the turn');
  assert.equal(turn.due(10_000_000n), true);
});

test('turn() waits for a macrotask: a timer queued before it has run when it resolves', async () => {
  let immediateRan = false;
  setImmediate(() => (immediateRan = true));
  await new LoopTurn().turn();
  assert.ok(immediateRan);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import { ResultBuilder } from '../../src/core/resultBuilder';
import type { ProbeEvent } from '../../src/shared/events';
import type { Measurement } from '../../src/shared/result';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';
import { assertMatchesSchema } from '../helpers/schema';

async function eventsOfRun(): Promise<ProbeEvent[]> {
  const clock = new FakeClock();
  const registry = fakeRegistry([
    fakeDriver('a', clock, { connectUs: [700], queryUs: [90, 110, 130] }, new FakeDriverStats()),
    fakeDriver(
      'b',
      clock,
      { queryError: (q) => (q % 3 === 0 ? new Error('ERR boom') : undefined), queryUs: [50] },
      new FakeDriverStats(),
    ),
  ]);
  const events: ProbeEvent[] = [];
  await runPlan(plan([target('a'), target('b')], { iterations: 30, warmup: 2 }), {
    registry,
    resolveConnection: async () => 'fake://u:p@h/db',
    tool: TOOL,
    clock,
    watchClient: false,
    onEvent: (e) => events.push(e),
  });
  return events;
}

test('a result rebuilt from sample events has the same statistics and histograms as the engine result', async () => {
  const events = await eventsOfRun();
  const done = events.at(-1);
  assert.ok(done?.type === 'done');
  const builder = new ResultBuilder();
  events.filter((e) => e.type !== 'done').forEach((e) => builder.add(e));
  const rebuilt = builder.build('the runner stopped')!;
  assert.equal(rebuilt.state, 'cancelled');
  assert.equal(rebuilt.stopReason, 'the runner stopped');
  for (const original of done.result.measurements) {
    const copy: Measurement | undefined = rebuilt.measurements.find(
      (m) => m.target === original.target && m.kind === original.kind,
    );
    assert.ok(copy, `${original.target} ${original.kind}`);
    assert.deepEqual(copy.stats, original.stats);
    assert.deepEqual(copy.warmup, original.warmup);
    assert.equal(copy.histogram.data, original.histogram.data);
    assert.deepEqual(copy.samples.values, original.samples.values);
  }
  assertMatchesSchema('result', JSON.parse(JSON.stringify(rebuilt)));
});

test('a stream cut halfway gives the samples that arrived; with done it gives the final result', async () => {
  const events = await eventsOfRun();
  const half = new ResultBuilder();
  events.slice(0, 40).forEach((e) => half.add(e));
  const partial = half.build('cut')!;
  const counted = partial.measurements.reduce(
    (n, m) => n + m.stats.count + m.stats.errors + m.warmup.count + m.warmup.errors,
    0,
  );
  assert.equal(counted, 39, '39 sample events after the start event');
  const full = new ResultBuilder();
  events.forEach((e) => full.add(e));
  const last = events.at(-1);
  assert.equal(full.build('unused'), last?.type === 'done' ? last.result : undefined);
});

test('nothing before the start event means no result', () => {
  assert.equal(new ResultBuilder().build('x'), undefined);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CancelScope } from '../../src/core/deadline';
import { ConnectionTracker, type SampleContext } from '../../src/core/connection';
import { LoopTurn } from '../../src/core/loopTurn';
import { MeasurementState } from '../../src/core/measurementState';
import { runSampleKind, type Sampler } from '../../src/core/sampleLoop';
import type { TargetSlot } from '../../src/core/slot';
import type { ProbeEvent } from '../../src/shared/events';
import { Redactor } from '../../src/shared/redact';
import { FakeClock } from '../helpers/fakes';

/**
 * A sampler whose samples answer on a later macrotask (as a network answer does) and which says,
 * per target, whether each request went out within its call. It logs when each sample starts and
 * answers (with how many samples were recorded by then, `recorded()`), beside the loop's sample
 * events, so the order shows where the record and the event were made.
 */
function loggingSampler(
  log: string[],
  onWire: (target: string) => boolean,
  recorded: () => number = () => 0,
): Sampler {
  let n = 0;
  return {
    sample(slot) {
      const i = n++;
      log.push(`start ${slot.spec.name}${i}`);
      return new Promise((resolve) =>
        setImmediate(() => {
          log.push(`answer ${slot.spec.name}${i} (${recorded()} recorded)`);
          resolve({ us: 10 + i });
        }),
      );
    },
    async finish() {},
    requestOnWire: (slot) => onWire(slot.spec.name),
  };
}

const slotOf = (name: string): TargetSlot => ({
  spec: { name, driver: 'fake', connection: `env:${name}` },
  info: { name, driver: 'fake', transport: 'tcp', connection: `env:${name}`, query: 'q' },
  workload: 'q',
});

async function run(
  names: string[],
  onWire: (target: string) => boolean,
  iterations: number,
  signal?: AbortSignal,
) {
  const log: string[] = [];
  const clock = new FakeClock();
  const stopped = signal ?? new AbortController().signal;
  const ctx: SampleContext = {
    clock,
    scope: new CancelScope(stopped),
    connectMs: 1000,
    queryMs: 1000,
    connections: new ConnectionTracker(stopped),
  };
  const states = names.map(
    (name) =>
      new MeasurementState({
        target: name,
        kind: 'subsequent',
        sampleCap: 100,
        maxConsecutiveErrors: 10,
        reused: ['connection'],
      }),
  );
  const recorded = () => states.reduce((sum, state) => sum + state.measured.moments.count, 0);
  await runSampleKind({
    kind: 'subsequent',
    sampler: loggingSampler(log, onWire, recorded),
    slots: names.map(slotOf),
    states,
    warmup: 0,
    iterations,
    order: 'interleaved',
    ctx,
    clock,
    runStartNs: clock.nowNs(),
    stopped,
    loop: new LoopTurn(),
    redactor: new Redactor(),
    emit: (event: ProbeEvent) => {
      if (event.type === 'sample')
        log.push(`event ${event.target}${event.us === undefined ? 'error' : event.us - 10}`);
    },
  });
  ctx.scope.dispose();
  return { log, counts: states.map((s) => s.measured.moments.count) };
}

test('a request on the wire within its call: the last sample is recorded while it travels, told after', async () => {
  const { log, counts } = await run(['a'], () => true, 3);
  // The first sample's target had no request on the wire yet: nothing is held past its start. From
  // then on, sample k is recorded while k+1 travels (its count is in by k+1's answer) and its event
  // goes out after that answer: a listener never runs while an answer may be arriving.
  assert.deepEqual(log, [
    'start a0',
    'answer a0 (0 recorded)',
    'start a1',
    'answer a1 (1 recorded)',
    'event a0',
    'start a2',
    'answer a2 (2 recorded)',
    'event a1',
    'event a2',
  ]);
  assert.deepEqual(counts, [3]);
});

test('a request that may wait for a later tick: the last sample is recorded and told before the next starts', async () => {
  const { log } = await run(['a'], () => false, 3);
  assert.deepEqual(log, [
    'start a0',
    'answer a0 (0 recorded)',
    'event a0',
    'start a1',
    'answer a1 (1 recorded)',
    'event a1',
    'start a2',
    'answer a2 (2 recorded)',
    'event a2',
  ]);
});

test('per target: one whose requests wait is finished first, one whose go out within the call overlaps', async () => {
  const { log } = await run(['a', 'b'], (target) => target === 'a', 2);
  assert.deepEqual(log, [
    'start a0',
    'answer a0 (0 recorded)',
    // b has no history: a0 is finished before b starts.
    'event a0',
    'start b1',
    'answer b1 (1 recorded)',
    // a went out within its call last time: b1 is recorded while a2 travels, told after its answer.
    'start a2',
    'answer a2 (2 recorded)',
    'event b1',
    // b's last request did not: a2 is finished before b3 starts.
    'event a2',
    'start b3',
    'answer b3 (3 recorded)',
    'event b3',
  ]);
});

test('a cancel keeps the samples answered before it, the held one too', async () => {
  // Cancel after two answers: the loop stops at the next step, and the held sample still counts.
  const stopAfter = new AbortController();
  let answers = 0;
  const samplerLog: string[] = [];
  const clock = new FakeClock();
  const ctx: SampleContext = {
    clock,
    scope: new CancelScope(stopAfter.signal),
    connectMs: 1000,
    queryMs: 1000,
    connections: new ConnectionTracker(stopAfter.signal),
  };
  const state = new MeasurementState({
    target: 'a',
    kind: 'subsequent',
    sampleCap: 100,
    maxConsecutiveErrors: 10,
    reused: ['connection'],
  });
  const sampler = loggingSampler(samplerLog, () => true);
  const counting: Sampler = {
    ...sampler,
    sample: (slot, c) =>
      sampler.sample(slot, c).then((timing) => {
        if (++answers === 2) stopAfter.abort();
        return timing;
      }),
  };
  await runSampleKind({
    kind: 'subsequent',
    sampler: counting,
    slots: [slotOf('a')],
    states: [state],
    warmup: 0,
    iterations: 1_000,
    order: 'interleaved',
    ctx,
    clock,
    runStartNs: clock.nowNs(),
    stopped: stopAfter.signal,
    loop: new LoopTurn(),
    redactor: new Redactor(),
  });
  ctx.scope.dispose();
  assert.equal(answers, 2);
  assert.equal(state.measured.moments.count, 2, 'both answered samples are recorded');
});

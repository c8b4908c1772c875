import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ProgressTracker } from '../../src/extension/probe/progressTracker';
import { TEST_HEADER } from '../helpers/events';

const failure = { class: 'auth' as const, message: 'bad password', hint: 'h' };

test('progress adds up to 100% and names each target', () => {
  const tracker = new ProgressTracker();
  const start = tracker.handle({
    type: 'start',
    runId: 'r',
    targets: ['a', 'b'],
    kinds: ['initial'],
    totalSamples: 4,
    header: TEST_HEADER,
  });
  assert.equal(start?.message, 'a 0/2 · b 0/2');
  let total = 0;
  for (const target of ['a', 'b', 'a', 'b']) {
    const step = tracker.handle({
      type: 'sample',
      target,
      kind: 'initial',
      phase: 'measure',
      index: 0,
      atUs: 0,
      us: 10,
    });
    total += step?.increment ?? 0;
  }
  assert.equal(Math.round(total), 100);
  assert.equal(tracker.message(), 'a initial 2/2 · b initial 2/2');
});

test('a target that cannot start still lets the bar reach the end', () => {
  const tracker = new ProgressTracker();
  tracker.handle({
    type: 'start',
    runId: 'r',
    targets: ['a', 'b'],
    kinds: ['initial', 'subsequent'],
    totalSamples: 8,
    header: TEST_HEADER,
  });
  let total = 0;
  for (const kind of ['initial', 'subsequent'] as const) {
    total += tracker.handle({ type: 'error', target: 'b', kind, failure })?.increment ?? 0;
    for (let i = 0; i < 2; i++)
      total +=
        tracker.handle({ type: 'sample', target: 'a', kind, phase: 'measure', index: i, atUs: 0, us: 5 })
          ?.increment ?? 0;
  }
  assert.equal(Math.round(total), 100);
  assert.match(tracker.message(), /b: could not start/);
  assert.equal(tracker.handle({ type: 'error', failure }), undefined);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LiveProgress } from '../../src/extension/model/liveProgress';
import { FIRST_FIGURE_PATTERN, firstFigureLine } from '../../src/extension/panel/livePanel';
import { ProgressTracker } from '../../src/extension/probe/progressTracker';
import type { ProbeEvent } from '../../src/shared/events';
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
  assert.equal(start?.message, 'a initial 0/2 · b initial 0/2');
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

test("one sample count on every surface: the notification counts a row as the panel's row does", () => {
  // 50 samples after 5 warm-up, two kinds: each row asks 55; the notification once said x/110.
  const header = { ...TEST_HEADER, plan: { ...TEST_HEADER.plan, iterations: 50, warmup: 5 } };
  const start: ProbeEvent = {
    type: 'start',
    runId: 'r',
    targets: ['a', 'b'],
    kinds: ['initial', 'subsequent'],
    totalSamples: 220,
    header,
  };
  const tracker = new ProgressTracker();
  const live = new LiveProgress(['here'], 'a, b', 0);
  const both = (event: ProbeEvent) => {
    live.handle(0, event);
    return tracker.handle(event);
  };
  both(start);
  const sample = (target: string, kind: 'initial' | 'subsequent'): ProbeEvent => ({
    type: 'sample',
    target,
    kind,
    phase: 'measure',
    index: 0,
    atUs: 0,
    us: 100,
  });
  for (let i = 0; i < 3; i++) both(sample('a', 'initial'));
  both(sample('b', 'initial'));
  const rows = live.view(0).places[0]!.rows;
  const row = (target: string, kind: string) => rows.find((r) => r.target === target && r.kind === kind)!;
  assert.equal(
    tracker.message(),
    `a initial ${row('a', 'initial').done}/${row('a', 'initial').asked} · b initial 1/55`,
  );
  assert.equal(tracker.message(), 'a initial 3/55 · b initial 1/55');
  // The next kind counts from its own first sample, out of its own 55.
  both(sample('a', 'subsequent'));
  assert.equal(row('a', 'subsequent').asked, 55);
  assert.equal(tracker.message(), 'a subsequent 1/55 · b initial 1/55');
});

test('the first-figure line the panel logs is the one the bench reads (panel_first_figure_ms)', () => {
  const line = `2026-01-01 12:00:00.000 [info] ${firstFigureLine(180.4)}`;
  assert.equal(FIRST_FIGURE_PATTERN.exec(line)?.[1], '180');
  assert.equal(FIRST_FIGURE_PATTERN.exec('panel first paint (run, 2 targets)'), null);
});

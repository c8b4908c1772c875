/** The judgement of two runs (src/shared/judgement/judgeChanges.ts): what is comparable, and by the one rule. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeChanges } from '../../src/shared/judgement/judgeChanges';
import type { LoadFigures } from '../../src/shared/loadResult';
import type { ProbeKind } from '../../src/shared/plan';
import { fakeResult, stats } from '../helpers/extensionRunResult';
import { around } from '../helpers/projectionResult';

function run(id: string, target: string, kind: ProbeKind, samplesUs: number[]) {
  const sorted = [...samplesUs].sort((a, b) => a - b);
  const p50Us = sorted[Math.ceil(sorted.length / 2) - 1]!;
  return fakeResult(
    [{ name: target, driver: 'pg', transport: 'tcp' }],
    [{ target, kind, p50Us, samplesUs }],
    { id },
  );
}

function loadRun(id: string, model: LoadFigures['model'], levels: number[]) {
  const result = run(id, 'pg', 'load', around(1_000, 100, 401));
  result.measurements[0]!.load = {
    model,
    durationS: 10,
    maxErrorRate: 0.01,
    latencyStat: 'p99',
    levels: levels.map((level) => ({
      level,
      durationUs: 10_000_000,
      throughput: 1_000 * level,
      stats: stats(1_000),
    })),
  };
  return result;
}

test('two identical back-to-back runs 10.4% apart at initial: within the new-connection spread, no change', () => {
  const base = run('base', 'pg', 'initial', around(10_000, 300, 401));
  const head = run('head', 'pg', 'initial', around(11_040, 330, 401));
  const judgement = judgeChanges(base, head, { noiseShare: 0.05 });
  assert.equal(judgement.comparable, true);
  assert.equal(judgement.inCommon, 1);
  const [change] = judgement.changes;
  assert.equal(change?.verdict, 'no change detected');
  const p50 = change!.percentiles.find((p) => p.percentile === 50)!;
  // Without the per-kind spread the interval, beyond the 5% noise band, would call it "regressed".
  assert.ok(p50.lowUs > p50.noiseUs, `[${p50.lowUs}, ${p50.highUs}] lies beyond noise ${p50.noiseUs}`);
  assert.match(
    p50.note ?? '',
    /within what one server's new connections differ by between two targets of a run \(up to 20% of the faster plus 0\.500 ms\)/,
  );
  assert.deepEqual(judgement.lines, ['No established change in 1 target and kind compared (pg initial).']);
  // Beyond the spread it is a regression, named in the line.
  const worse = judgeChanges(base, run('head2', 'pg', 'initial', around(13_000, 390, 401)));
  assert.equal(worse.changes[0]?.verdict, 'regressed');
  assert.deepEqual(worse.lines, ['pg initial regressed: p50 10.0 → 13.0 ms (+30.0%).']);
});

test('two runs with nothing in common: not comparable, inCommon 0, and a line that says so', () => {
  const judgement = judgeChanges(
    run('b', 'a', 'subsequent', around(1_000, 100)),
    run('h', 'b', 'subsequent', around(1_000, 100)),
  );
  assert.equal(judgement.comparable, false);
  assert.equal(judgement.inCommon, 0);
  assert.equal(
    judgement.reason,
    'no target and kind in common (BASE measured a subsequent; HEAD measured b subsequent)',
  );
  assert.deepEqual(judgement.lines, [
    'Not comparable: no target and kind in common (BASE measured a subsequent; HEAD measured b subsequent), so nothing was compared.',
  ]);
});

test('a sweep against a sweep of other levels: not comparable, never "+1172%"', () => {
  const judgement = judgeChanges(loadRun('b', 'closed', [1, 2]), loadRun('h', 'closed', [16, 32]));
  assert.equal(judgement.comparable, false);
  assert.equal(judgement.inCommon, 1);
  assert.equal(judgement.changes[0]?.verdict, 'not comparable');
  assert.deepEqual(judgement.changes[0]?.percentiles, []);
  assert.deepEqual(judgement.lines, [
    'Not comparable: pg load: the load levels differ (BASE 1, 2 connections, HEAD 16, 32 connections): latency under other levels is another load, not a change.',
  ]);
});

test('a closed model against an open one: not comparable', () => {
  const judgement = judgeChanges(loadRun('b', 'closed', [1, 2]), loadRun('h', 'open', [1, 2]));
  assert.equal(judgement.comparable, false);
  assert.match(judgement.reason ?? '', /^pg load: the load model differs \(BASE closed, HEAD open\)/);
  // Same levels and model: comparable, and the same samples are no change.
  const same = judgeChanges(loadRun('b', 'open', [100, 200]), loadRun('h', 'open', [100, 200]));
  assert.equal(same.comparable, true);
  assert.equal(same.changes[0]?.verdict, 'no change detected');
});

test('a changed workload is not comparable; other targets in common still are', () => {
  const base = fakeResult(
    [
      { name: 'pg', driver: 'pg', transport: 'tcp' },
      { name: 'other', driver: 'pg', transport: 'tcp' },
    ],
    [
      { target: 'pg', kind: 'subsequent', p50Us: 1_000, samplesUs: around(1_000, 100) },
      { target: 'other', kind: 'subsequent', p50Us: 1_000, samplesUs: around(1_000, 100) },
    ],
    { id: 'b' },
  );
  const head = structuredClone(base);
  head.id = 'h';
  head.targets[0]!.query = 'SELECT now()';
  const judgement = judgeChanges(base, head);
  assert.equal(judgement.comparable, true);
  assert.deepEqual(judgement.lines, [
    'No established change in 1 target and kind compared (other subsequent).',
    'pg subsequent not comparable: the workload differs (BASE SELECT 1, HEAD SELECT now()).',
  ]);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildCompareViewModel } from '../../src/extension/model/compareViewModel';
import { logBins } from '../../src/extension/model/histogramBins';
import { buildRunViewModel } from '../../src/extension/model/runViewModel';
import { timeSeries } from '../../src/extension/model/timeSeries';
import {
  formatMs,
  headline,
  retain,
  judgedAgain,
  runLine,
  summarize,
} from '../../src/extension/runs/runSummary';
import { judgeRun } from '../../src/shared/judgement/judgeRun';
import { fakeResult } from '../helpers/extensionRunResult';

const TARGETS = [
  { name: 'pg', driver: 'pg', transport: 'tcp' },
  { name: 'turso', driver: 'libsql', transport: 'http' },
];
const result = fakeResult(TARGETS, [
  { target: 'pg', kind: 'initial', p50Us: 4000 },
  { target: 'turso', kind: 'initial', p50Us: 2000 },
  { target: 'pg', kind: 'subsequent', p50Us: 500 },
  { target: 'turso', kind: 'subsequent', p50Us: 1800, errors: 2 },
]);

test('run view: cards, stats and expected latency come from the result', () => {
  const model = buildRunViewModel(result);
  assert.equal(model.title, 'DB Probe: pg, turso');
  assert.equal(model.cards.length, 2);
  assert.deepEqual(
    model.cards[0]?.kinds.map((k) => [k.kind, k.p50Us]),
    [
      ['initial', 4000],
      ['subsequent', 500],
    ],
  );
  assert.equal(model.stats.length, 4);
  // The workload column: what each sample ran, from the result's target.
  assert.deepEqual(
    model.stats.map((s) => s.workload),
    ['SELECT 1', 'SELECT 1', 'SELECT 1', 'SELECT 1'],
  );
  assert.equal(model.expected.maxQueries, 10);
  assert.deepEqual(model.expected.lines[0]?.totalsUs.slice(0, 3), [4000, 4500, 5000]);
});

test('run view: the crossover is named, "TCP wins from N queries per request"', () => {
  // pg: 4000 + (n-1)*500; turso: 2000 + (n-1)*1800. n=2: 4500 vs 3800; n=3: 5000 vs 5600.
  const [first, ...rest] = buildRunViewModel(result).expected.crossovers;
  assert.equal(rest.length, 0);
  assert.equal(first?.winner, 'pg');
  assert.equal(first?.fromQueries, 3);
  assert.equal(
    first?.text,
    'TCP wins from 3 queries per request: pg (tcp) overtakes turso (http) here (95% CI of pg - turso, as the verdict ranks a request: +2.000 to +2.000 ms at 1 query, -0.600 to -0.600 ms at 3 queries)',
  );
});

test('run view: errors carry their class, count and hint', () => {
  const model = buildRunViewModel(result);
  assert.deepEqual(
    model.errors.map((e) => [e.target, e.kind, e.errorClass, e.count]),
    [['turso', 'subsequent', 'timeout', 2]],
  );
  assert.deepEqual(model.series[3]?.errors.length, 2);
});

test('histogram bins cover every sample, log-spaced', () => {
  const values = [100, 120, 150, 1000, 5000, 20_000];
  const bins = logBins(values);
  assert.equal(
    bins.counts.reduce((a, b) => a + b, 0),
    values.length,
  );
  assert.equal(bins.edgesUs.length, bins.counts.length + 1);
  assert.ok((bins.edgesUs[0] ?? Infinity) <= 100);
  assert.ok((bins.edgesUs.at(-1) ?? 0) > 20_000);
  assert.deepEqual(logBins([]), { edgesUs: [], counts: [] });
  assert.equal(
    logBins([0, 0, 0]).counts.reduce((a, b) => a + b, 0),
    3,
  );
});

test('time series is thinned past the point cap and keeps seconds and milliseconds', () => {
  const samples = Array.from({ length: 5000 }, (_, i) => ({ atUs: i * 1000, us: 1500 }));
  const series = timeSeries(samples, 1000);
  assert.ok(series.points.length <= 1000);
  assert.equal(series.thinnedFrom, 5000);
  assert.deepEqual(series.points[1], [0.005, 1.5]);
});

test('compare: delta of p50/p95 per target, B minus A', () => {
  const b = fakeResult(
    TARGETS,
    [
      { target: 'pg', kind: 'initial', p50Us: 5000, p95Us: 9000 },
      { target: 'turso', kind: 'initial', p50Us: 0, samplesUs: [] },
    ],
    { id: '99999999-2222-4333-8444-555555555555' },
  );
  const model = buildCompareViewModel(result, b);
  const pg = model.rows.find((r) => r.target === 'pg' && r.kind === 'initial');
  assert.deepEqual(pg?.delta, { p50Us: 1000, p95Us: 1000, p50Ratio: 0.25, p95Ratio: 1000 / 8000 });
  const turso = model.rows.find((r) => r.target === 'turso' && r.kind === 'initial');
  assert.equal(turso?.b, undefined);
  assert.equal(turso?.delta, undefined);
  assert.equal(model.rows.length, 4);
});

test('summary and headline: warm p50 first, failures and partial runs said', () => {
  const summary = summarize(result);
  assert.equal(summary.headline, 'pg 0.500 ms · turso 1.80 ms');
  assert.equal(headline({ ...summary, state: 'cancelled' }), 'cancelled: pg 0.500 ms · turso 1.80 ms');
  const failed = summarize(
    fakeResult(TARGETS.slice(0, 1), [{ target: 'pg', kind: 'initial', p50Us: 0, samplesUs: [] }]),
  );
  assert.equal(failed.headline, 'pg failed');
  assert.equal(failed.targets[0]?.failed, true);
  assert.equal(formatMs(123_456), '123 ms');
  // The Runs view and the status bar state the run's answer when it was judged: the first line kept
  // whole (the tooltip's), its one-line form the judgement's (the winner first).
  const judgement = judgeRun(result);
  const verdict = { line: judgement.lines[0]!, short: judgement.short! };
  assert.ok(verdict.line && verdict.short, 'the fake run has a verdict');
  assert.equal(summarize(result, verdict).verdict, verdict.line);
  assert.equal(summarize(result, verdict).verdictShort, verdict.short);
  assert.equal('verdict' in summary, false, 'no verdict line: none is made up');
  // A run's line in the Runs view and the status bar: the short form, after the state of a partial
  // run; else the headline.
  const judged = summarize(result, verdict);
  assert.equal(runLine(judged), verdict.short);
  assert.equal(runLine({ ...judged, state: 'cancelled' }), `cancelled: ${verdict.short}`);
  assert.equal(runLine({ ...judged, state: 'timedOut' }), `timed out: ${verdict.short}`);
  assert.equal(runLine(summary), summary.headline);
  // A row saved before the short form existed shows its line until it is judged again.
  const { verdictShort: _short, ...older } = judged;
  assert.equal(runLine(older), verdict.line);
  assert.equal(judgedAgain({ ...older, verdictFor: 'k' }, 'k'), true, 'no short form: judged again');
  assert.equal(judgedAgain({ ...judged, verdictFor: 'k' }, 'k'), false);
  assert.equal(judgedAgain({ ...judged, verdictFor: 'k' }, 'other'), true, 'another location: judged again');
  assert.equal(judgedAgain({ ...summary, verdictFor: 'k' }, 'k'), false, 'nothing to rank: stays');
});

test('retention keeps the newest runs', () => {
  const runs = ['2025-01-01', '2025-03-01', '2025-02-01'].map((d, i) => ({
    ...summarize(result),
    id: String(i),
    startedAt: d,
  }));
  const { kept, dropped } = retain(runs, 2);
  assert.deepEqual(
    kept.map((r) => r.id),
    ['1', '2'],
  );
  assert.deepEqual(
    dropped.map((r) => r.id),
    ['0'],
  );
});

/**
 * The CLI's stderr summary after a run (src/cli/runSummary.ts): the verdict lines first, then one
 * line per target and kind; no zeros for a kind that measured nothing, no p99 from too few samples.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runSummaryLines } from '../../src/cli/stderrSummary';
import { judgeRun } from '../../src/shared/judgement/judgeRun';
import { fakeResult, stats } from '../helpers/extensionRunResult';

const TARGETS = [
  { name: 'pg', driver: 'pg', transport: 'tcp' },
  { name: 'turso', driver: 'libsql', transport: 'http' },
];

test('the verdict lines come first, in the judgement’s own words, then the figures', () => {
  const result = fakeResult(TARGETS, [
    { target: 'pg', kind: 'subsequent', p50Us: 500 },
    { target: 'turso', kind: 'subsequent', p50Us: 9_000 },
  ]);
  const verdict = judgeRun(result).lines;
  assert.ok(verdict.length > 0, 'the fake run has a verdict');
  const lines = runSummaryLines(result, {}, 'runner eu-1');
  assert.deepEqual(
    lines.slice(0, verdict.length),
    verdict.map((l) => `[runner eu-1] ${l}`),
  );
  assert.match(lines[verdict.length]!, /^\[runner eu-1\] pg subsequent: p50 0\.500 ms, n=10, errors=0$/);
});

test('a kind that measured nothing says so; a p99 shows only from 100 samples, with one note', () => {
  const result = fakeResult(TARGETS.slice(0, 1), [{ target: 'pg', kind: 'initial', p50Us: 1_000 }]);
  const m = result.measurements[0]!;
  m.stats = { ...stats(0, 0, 0, 2), p50Us: 0, p99Us: 0 };
  assert.deepEqual(runSummaryLines(result), ['pg initial: measured nothing (2 errors)']);
  m.stats = stats(1_000, 1_100, 3);
  const few = runSummaryLines(result);
  // The only target: its own figures first (no p99 from 3 samples), then the figure lines.
  assert.equal(few[0], 'pg here: new connection p50 1.0 ms.');
  assert.equal(few[1], 'pg initial: p50 1.000 ms, n=3, errors=0');
  assert.match(few[2]!, /^\(p99 is printed from 100 successful samples/);
  m.stats = stats(1_000, 1_100, 100);
  assert.deepEqual(runSummaryLines(result), [
    'pg here: new connection p50 1.0 ms, p99 1.1 ms.',
    'pg initial: p50 1.000 ms, p99 1.101 ms, n=100, errors=0',
  ]);
});

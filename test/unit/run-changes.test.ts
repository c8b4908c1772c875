/** The change gate's verdicts (src/shared/runChanges.ts) on synthetic runs whose change is known. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mulberry32 } from '../../src/shared/judgement/bootstrap';
import type { ProbeKind } from '../../src/shared/plan';
import { compareResults, MIN_P99_SAMPLES, regressionsBeyond } from '../../src/shared/judgement/runChanges';
import { formatChangesMarkdown, formatChangesText } from '../../src/report/changes';
import { judgeChanges } from '../../src/shared/judgement/judgeChanges';
import { fakeResult } from '../helpers/extensionRunResult';

const TARGET = [{ name: 'db', driver: 'pg', transport: 'tcp' }];

/** Skewed latencies around `medianUs` from a seeded generator, shifted by `shiftUs`. */
function latencies(count: number, medianUs: number, seed: number, shiftUs = 0): number[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, () => {
    const z = (random() + random() + random() + random() - 2) * 1.7;
    return Math.round(medianUs * Math.exp(0.15 * z)) + shiftUs;
  });
}

/** `kind`: `cold` has no per-kind spread, so the noise band alone decides beyond the interval. */
function run(id: string, samplesUs: number[], kind: ProbeKind = 'subsequent') {
  const sorted = [...samplesUs].sort((a, b) => a - b);
  return fakeResult(TARGET, [{ target: 'db', kind, p50Us: sorted[sorted.length >> 1]!, samplesUs }], {
    id,
  });
}

test('a shift well beyond noise is regressed at p50 and p99, with an interval holding it; the gate names it', () => {
  // 2,000 a side: the one rule judges a p99 only with 20 samples beyond it.
  const base = run('base', latencies(2_000, 1_000, 1));
  const head = run('head', latencies(2_000, 1_000, 2, 2_000));
  const [change] = compareResults(base, head);
  assert.equal(change?.verdict, 'regressed');
  for (const p of change!.percentiles) {
    assert.equal(p.verdict, 'regressed', `p${p.percentile}`);
    assert.ok(p.lowUs <= 2_000 && 2_000 <= p.highUs, `p${p.percentile} [${p.lowUs}, ${p.highUs}] holds 2000`);
  }
  assert.equal(regressionsBeyond([change!], 0.1).length, 2);
  assert.equal(regressionsBeyond([change!], 5).length, 0, 'a 200% rise does not pass a 500% gate');
  const text = formatChangesText({
    base,
    head,
    judgement: judgeChanges(base, head),
    changes: [change!],
    failShare: 0.1,
    failing: regressionsBeyond([change!], 0.1),
  });
  assert.match(text, /^target "db" subsequent \(n 2000 \/ 2000\): regressed$/m);
  assert.match(
    text,
    /^ {2}p50 \d\.\d{3} -> \d\.\d{3} ms: \+\d\.\d{3} ms \[\+\d\.\d{3}, \+\d\.\d{3}\] \(\+\d+\.\d%\), regressed$/m,
  );
  assert.match(text, /Gate --fail-on-regression \+10\.0%: FAILED: target "db" subsequent p50/);
});

test('a faster HEAD is improved, never regressed', () => {
  const [change] = compareResults(run('b', latencies(400, 3_000, 3)), run('h', latencies(400, 1_000, 4)));
  assert.equal(change?.verdict, 'improved');
  assert.equal(regressionsBeyond([change!], 0).length, 0);
});

test("a small shift the interval establishes but the user's minimum effect covers: no change detected", () => {
  // +3% at p50: real in the samples, below a 5% minimum effect the user set.
  const [change] = compareResults(
    run('b', latencies(2_000, 10_000, 5), 'cold'),
    run('h', latencies(2_000, 10_000, 5, 300), 'cold'),
    { minEffect: { share: 0.05 } },
  );
  const p50 = change!.percentiles.find((p) => p.percentile === 50)!;
  assert.ok(p50.lowUs > 0, `the interval excludes 0: [${p50.lowUs}, ${p50.highUs}]`);
  assert.equal(p50.verdict, 'no change detected');
  assert.match(p50.note ?? '', /below the minimum effect \(5% of the faster\)/);
  // With no minimum effect (the default) the interval alone decides: a change.
  const [strict] = compareResults(
    run('b', latencies(2_000, 10_000, 5), 'cold'),
    run('h', latencies(2_000, 10_000, 5, 300), 'cold'),
  );
  assert.equal(strict!.percentiles.find((p) => p.percentile === 50)!.verdict, 'regressed');
});

test('identical distributions: no change detected in at least 19 of 20 seeded pairs', () => {
  let unchanged = 0;
  for (let trial = 0; trial < 20; trial++) {
    const [change] = compareResults(
      run(`b${trial}`, latencies(300, 1_000, 100 + 2 * trial)),
      run(`h${trial}`, latencies(300, 1_000, 101 + 2 * trial)),
    );
    if (change?.verdict === 'no change detected') unchanged += 1;
  }
  assert.ok(unchanged >= 19, `${unchanged} of 20`);
});

test('p99 is not judged below the sample minimum, and a side missing or with too few samples is not compared', () => {
  const [few] = compareResults(
    run('b', latencies(MIN_P99_SAMPLES - 1, 1_000, 7)),
    run('h', latencies(MIN_P99_SAMPLES - 1, 1_000, 8, 5_000)),
  );
  const p99 = few!.percentiles.find((p) => p.percentile === 99)!;
  assert.equal(p99.verdict, undefined);
  assert.match(p99.note ?? '', /p99 needs 2,000 samples a side/);
  assert.equal(few!.verdict, 'regressed', 'p50 still judges');
  const other = fakeResult(
    [{ name: 'other', driver: 'pg', transport: 'tcp' }],
    [{ target: 'other', kind: 'subsequent', p50Us: 1_000, samplesUs: latencies(50, 1_000, 9) }],
  );
  const changes = compareResults(run('b', latencies(50, 1_000, 9)), other);
  assert.deepEqual(
    changes.map((c) => [c.target, c.verdict, c.note]),
    [
      ['other', 'not compared', 'measured only in HEAD'],
      ['db', 'not compared', 'measured only in BASE'],
    ],
  );
  const tiny = compareResults(run('b', [1, 2, 3]), run('h', [1, 2, 3]));
  assert.match(tiny[0]!.note ?? '', /fewer than 10 successful samples/);
  assert.match(
    formatChangesMarkdown({
      base: run('b', [1]),
      head: run('h', [1]),
      judgement: judgeChanges(run('b', [1]), run('h', [1])),
      changes,
      failing: [],
    }),
    /\| other \| subsequent \| {2}\| {2}\| {2}\| not compared \(measured only in HEAD\) \|/,
  );
});

/** The bootstrap interval on synthetic samples whose difference is known. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  BOOTSTRAP_MAX_SAMPLES,
  BOOTSTRAP_RESAMPLES,
  bootstrapSide,
  differenceInterval,
  intervalEnds,
  mulberry32,
  selectInPlace,
} from '../../src/shared/judgement/bootstrap';
import { buildRunViewModel, EXPECTED_MAX_QUERIES } from '../../src/extension/model/runViewModel';
import { crossoverVerdict, expectedLatency } from '../../src/shared/judgement/expected';
import { compareRuns, compareTargets } from '../../src/shared/judgement/differences';
import { fakeResult } from '../helpers/extensionRunResult';

/** Log-normal-ish latencies around `medianUs`, from a seeded generator: realistic skew, repeatable. */
function latencies(count: number, medianUs: number, seed: number): number[] {
  const random = mulberry32(seed);
  return Array.from({ length: count }, () => {
    // Sum of uniforms: close enough to a normal for a skewed, long-tailed latency shape.
    const z = (random() + random() + random() + random() - 2) * 1.7;
    return Math.round(medianUs * Math.exp(0.15 * z));
  });
}

const SHIFT_US = 3_000;
/** Independent synthetic data sets per check: a 95% interval may miss 1 in 20, never most of them. */
const TRIALS = 40;
const MIN_COVERED = 34;

test('a known shift: the interval holds it (about 95% of data sets) and excludes 0 (all), at p50 and p95', () => {
  for (const p of [50, 95] as const) {
    let covered = 0;
    for (let trial = 0; trial < TRIALS; trial++) {
      const fast = latencies(200, 10_000, 100 + 2 * trial);
      const slow = latencies(200, 10_000, 101 + 2 * trial).map((us) => us + SHIFT_US);
      const interval = differenceInterval(
        bootstrapSide(fast, `a${trial}`),
        bootstrapSide(slow, `b${trial}`),
        p,
      );
      if (interval.lowUs <= SHIFT_US && SHIFT_US <= interval.highUs) covered += 1;
      assert.ok(interval.lowUs > 0, `p${p} trial ${trial}: the interval excludes 0 (${interval.lowUs})`);
      assert.ok(
        interval.lowUs <= interval.diffUs && interval.diffUs <= interval.highUs,
        'the estimate lies inside',
      );
    }
    assert.ok(covered >= MIN_COVERED, `p${p}: the shift inside ${covered} of ${TRIALS} intervals`);
  }
});

test('identical distributions: the interval contains 0 (about 95% of data sets) and the text says "not established"', () => {
  let containsZero = 0;
  for (let trial = 0; trial < TRIALS; trial++) {
    const result = fakeResult(
      [
        { name: 'left', driver: 'pg', transport: 'tcp' },
        { name: 'right', driver: 'pg', transport: 'tcp' },
      ],
      [
        {
          target: 'left',
          kind: 'initial',
          p50Us: 10_000,
          samplesUs: latencies(100, 10_000, 300 + 2 * trial),
        },
        {
          target: 'right',
          kind: 'initial',
          p50Us: 10_000,
          samplesUs: latencies(100, 10_000, 301 + 2 * trial),
        },
      ],
    );
    const { comparisons } = compareTargets(result);
    assert.equal(comparisons.length, 1);
    const p50 = comparisons[0]!.differences.find((d) => d.percentile === 50)!;
    const holdsZero = p50.lowUs <= 0 && 0 <= p50.highUs;
    // An interval that holds 0 is never named; one that excludes 0 (about 1 in 20) is.
    assert.equal(p50.established, !holdsZero);
    if (!holdsZero) continue;
    containsZero += 1;
    assert.match(
      p50.text,
      /^difference at p50 between left and right not established: right - left = [-+]?\d+\.\d{3} ms, /,
    );
    assert.match(p50.text, /95% CI [-+]?\d+\.\d{3} to [-+]?\d+\.\d{3} ms contains 0$/);
  }
  assert.ok(containsZero >= MIN_COVERED, `0 inside ${containsZero} of ${TRIALS} intervals`);
});

test('a faster target is named, by how much, with the interval of that amount', () => {
  const result = fakeResult(
    [
      { name: 'pg', driver: 'pg', transport: 'tcp' },
      { name: 'neon-http', driver: 'neon-http', transport: 'http' },
    ],
    [
      {
        target: 'pg',
        kind: 'initial',
        p50Us: 13_000,
        samplesUs: latencies(200, 10_000, 5).map((us) => us + SHIFT_US),
      },
      { target: 'neon-http', kind: 'initial', p50Us: 10_000, samplesUs: latencies(200, 10_000, 6) },
    ],
  );
  const [comparison] = compareTargets(result).comparisons;
  assert.equal(comparison?.a, 'pg');
  assert.deepEqual(comparison?.samples, { a: 200, b: 200, keptA: 200, keptB: 200 });
  assert.equal(comparison?.resamples, BOOTSTRAP_RESAMPLES);
  const p50 = comparison!.differences.find((d) => d.percentile === 50)!;
  assert.ok(p50.established);
  assert.ok(p50.diffUs < 0, 'b - a is negative: neon-http (b) is faster');
  const match =
    /^neon-http is (\d+\.\d{3}) ms faster than pg at p50 \(95% CI (\d+\.\d{3}) to (\d+\.\d{3}) ms\)$/.exec(
      p50.text,
    );
  assert.ok(match, p50.text);
  const [by, low, high] = match.slice(1).map(Number) as [number, number, number];
  assert.ok(0 < low && low <= by && by <= high, `${by} within ${low}..${high}`);
});

test('deterministic with the seed: same samples and seed, same interval; another seed, other draws', () => {
  const fast = latencies(150, 5_000, 7);
  const slow = latencies(150, 5_500, 8);
  const once = differenceInterval(bootstrapSide(fast, 'x'), bootstrapSide(slow, 'y'), 50);
  const again = differenceInterval(bootstrapSide(fast, 'x'), bootstrapSide(slow, 'y'), 50);
  assert.deepEqual(again, once);
  const first = bootstrapSide(fast, 'x').resampled[95];
  const other = bootstrapSide(fast, 'x2').resampled[95];
  assert.notDeepEqual(Array.from(other), Array.from(first), 'the seed text decides the draws');
});

test('bounded work: at most BOOTSTRAP_MAX_SAMPLES samples and BOOTSTRAP_RESAMPLES resamples, and it says how many', () => {
  const many = latencies(BOOTSTRAP_MAX_SAMPLES * 3, 1_000, 9);
  const side = bootstrapSide(many, 'many', { resamples: 50_000 });
  assert.equal(side.used, BOOTSTRAP_MAX_SAMPLES);
  assert.equal(side.offered, BOOTSTRAP_MAX_SAMPLES * 3);
  assert.equal(side.resampled[50].length, BOOTSTRAP_RESAMPLES);
});

test('compare view: one target in two runs, seeded per run so the sides draw independently', () => {
  const target = [{ name: 'db', driver: 'pg', transport: 'tcp' }];
  const before = fakeResult(target, [
    { target: 'db', kind: 'initial', p50Us: 9_000, samplesUs: latencies(60, 9_000, 10) },
  ]);
  const after = fakeResult(target, [
    { target: 'db', kind: 'initial', p50Us: 9_000, samplesUs: latencies(60, 9_000, 10) },
  ]);
  const comparison = compareRuns(
    { label: 'A', runId: 'run-a', measurement: before.measurements[0]! },
    { label: 'B', runId: 'run-b', measurement: after.measurements[0]! },
  );
  assert.equal(comparison?.target, 'db');
  const p50 = comparison!.differences[0]!;
  // Identical samples: a paired draw would give exactly 0 every time; independent draws spread around it.
  assert.equal(p50.diffUs, 0);
  assert.ok(p50.lowUs < 0 && p50.highUs > 0, `${p50.lowUs}..${p50.highUs}`);
  assert.match(p50.text, /not established/);
});

test('targets with too few samples are left out and listed', () => {
  const result = fakeResult(
    [
      { name: 'few', driver: 'pg', transport: 'tcp' },
      { name: 'many', driver: 'pg', transport: 'tcp' },
    ],
    [
      { target: 'few', kind: 'initial', p50Us: 1_000, samplesUs: [1_000, 1_100, 1_200] },
      { target: 'many', kind: 'initial', p50Us: 1_000, samplesUs: latencies(50, 1_000, 11) },
    ],
  );
  const set = compareTargets(result);
  assert.equal(set.comparisons.length, 0);
  assert.deepEqual(set.skipped, [{ target: 'few', kind: 'initial', reason: '3 successful samples kept' }]);
});

test('interval ends by selection are the elements a sort picks, for any order, duplicates included', () => {
  const random = mulberry32(24);
  for (let trial = 0; trial < 300; trial++) {
    const n = 1 + Math.floor(random() * (trial < 150 ? 12 : 2_500));
    // Few distinct values on odd trials: ties around the pivot are where a partition goes wrong.
    const distinct = trial % 2 ? 3 : 1e6;
    const values = Float64Array.from({ length: n }, () => Math.floor(random() * distinct) - distinct / 2);
    const sorted = Float64Array.from(values).sort();
    const k = Math.floor(random() * n);
    assert.equal(selectInPlace(Float64Array.from(values), k), sorted[k], `k=${k} of ${n}`);
    const tail = 0.025;
    const expected = [
      sorted[Math.min(n - 1, Math.max(0, Math.floor(tail * n)))],
      sorted[Math.min(n - 1, Math.max(0, Math.ceil((1 - tail) * n) - 1))],
    ];
    assert.deepEqual(intervalEnds(Float64Array.from(values), 0.95), expected, `n=${n}`);
  }
});

test('the panel resamples each side once, and its differences and crossovers equal those drawn apart', () => {
  const targets = ['tcp-a', 'http-b', 'tcp-c'];
  const result = fakeResult(
    targets.map((name) => ({ name, driver: 'pg', transport: name.startsWith('http') ? 'http' : 'tcp' })),
    targets.flatMap((target, i) => [
      // http-b connects fast and queries slowly: its line crosses the TCP ones.
      {
        target,
        kind: 'initial' as const,
        p50Us: i === 1 ? 2_000 : 9_000,
        samplesUs: latencies(40, i === 1 ? 2_000 : 9_000, 10 + i),
      },
      {
        target,
        kind: 'subsequent' as const,
        p50Us: i === 1 ? 3_000 : 300,
        samplesUs: latencies(40, i === 1 ? 3_000 : 300, 20 + i),
      },
    ]),
  );
  const model = buildRunViewModel(result);
  assert.deepEqual(model.differences, compareTargets(result));
  const rows = expectedLatency(result, EXPECTED_MAX_QUERIES);
  const verdicts = rows.flatMap((a) => rows.filter((b) => b !== a).map((b) => crossoverVerdict(a, b)));
  assert.ok(
    verdicts.some((v) => v?.state === 'established'),
    'the data has a crossover to name',
  );
  assert.equal(model.expected.crossovers.length, verdicts.filter((v) => v?.state === 'established').length);
  assert.ok(model.expected.crossovers.length > 0);
});

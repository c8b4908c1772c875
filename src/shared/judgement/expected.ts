/**
 * "Expected latency for N sequential queries", the table of the blog post "What's the fastest
 * serverless database provider?" (2023): the first query pays the initial cost, every later one the
 * subsequent cost. Built from p50 so one slow outlier does not
 * decide it; the figures say which statistic they use.
 *
 * A crossover ("A overtakes B from N queries") is a claim, so it is named only with evidence: the
 * bootstrap 95% interval of A - B (initial p50 + (N-1) x subsequent p50, resampled from the run's own
 * samples, seeded) excludes zero with A slower at some N below the crossover and with A faster at
 * some N at or above it. Otherwise the two are said to be within noise of each other.
 */
import {
  BOOTSTRAP_CONFIDENCE,
  bootstrapSide,
  intervalEnds,
  type BootstrapOptions,
  type BootstrapSide,
} from './bootstrap';
import { judgeDifference, MIN_COMPARED_SAMPLES, sideSamples } from './differences';
import { minEffectUs, type MinEffect } from './minEffect';
import type { Measurement, RunResult } from '../result';

export interface ExpectedRow {
  target: string;
  initialUs: number;
  subsequentUs: number;
  /** totalsUs[k-1] = expected wait for k queries on one new connection. */
  totalsUs: number[];
  /** The resampled initial and subsequent p50s the evidence is drawn from (absent: too few samples). */
  resampled?: { initial: Float64Array; subsequent: Float64Array };
  /** Successful samples of its kind with fewer, for the rule's tail check. */
  used?: number;
}

export function expectedLatency(
  result: RunResult,
  maxQueries: number,
  bootstrap: BootstrapOptions = {},
): ExpectedRow[] {
  return expectedSides(result, maxQueries).map(({ row, initial, subsequent }) => {
    const a = resample(initial, row.target, bootstrap);
    const b = resample(subsequent, row.target, bootstrap);
    return a && b
      ? {
          ...row,
          resampled: { initial: a.resampled[50], subsequent: b.resampled[50] },
          used: Math.min(a.used, b.used),
        }
      : row;
  });
}

/** The lines alone, without the resamples a crossover's evidence needs (the panel's first paint). */
export function expectedLines(result: RunResult, maxQueries: number): ExpectedRow[] {
  return expectedSides(result, maxQueries).map(({ row }) => row);
}

function expectedSides(
  result: RunResult,
  maxQueries: number,
): { row: ExpectedRow; initial: Measurement; subsequent: Measurement }[] {
  return result.targets.flatMap((target) => {
    const initial = result.measurements.find((m) => m.target === target.name && m.kind === 'initial');
    const subsequent = result.measurements.find((m) => m.target === target.name && m.kind === 'subsequent');
    if (!initial || !subsequent || initial.stats.count === 0 || subsequent.stats.count === 0) return [];
    const initialUs = initial.stats.p50Us;
    const subsequentUs = subsequent.stats.p50Us;
    const totalsUs = Array.from({ length: maxQueries }, (_, k) => initialUs + k * subsequentUs);
    return [{ row: { target: target.name, initialUs, subsequentUs, totalsUs }, initial, subsequent }];
  });
}

/**
 * The smallest query count from which `a` is faster than `b` in total (point estimate), when `a`
 * starts slower but queries faster (TCP vs HTTP). Undefined when that never happens within `maxQueries`.
 */
export function crossover(a: ExpectedRow, b: ExpectedRow): number | undefined {
  const index = a.totalsUs.findIndex((total, k) => total < (b.totalsUs[k] ?? Infinity));
  return index === -1 || index === 0 ? undefined : index + 1;
}

/** The interval of a - b at n queries: `sign` +1 when a is slower (interval above 0), -1 faster, 0 noise. */
export interface ExpectedInterval {
  queries: number;
  lowUs: number;
  highUs: number;
  sign: -1 | 0 | 1;
}

export type CrossoverVerdict =
  | { state: 'established'; fromQueries: number; below: ExpectedInterval; above: ExpectedInterval }
  /** A point-estimate crossover (or none) the samples cannot tell apart from noise. */
  | { state: 'noise'; fromQueries?: number; reason: string };

/** The bootstrap interval of a - b at 1..maxQueries (undefined when either side has too few samples). */
export function expectedIntervals(a: ExpectedRow, b: ExpectedRow): ExpectedInterval[] | undefined {
  if (!a.resampled || !b.resampled) return undefined;
  const count = Math.min(a.resampled.initial.length, b.resampled.initial.length);
  const diffs = new Float64Array(count);
  return a.totalsUs.map((_, k) => {
    for (let r = 0; r < count; r++) {
      diffs[r] =
        a.resampled!.initial[r]! +
        k * a.resampled!.subsequent[r]! -
        (b.resampled!.initial[r]! + k * b.resampled!.subsequent[r]!);
    }
    const [lowUs, highUs] = intervalEnds(diffs, BOOTSTRAP_CONFIDENCE);
    return { queries: k + 1, lowUs, highUs, sign: lowUs > 0 ? 1 : highUs < 0 ? -1 : 0 };
  });
}

/**
 * Whether `a` overtaking `b` is established: slower at some N below the crossover and faster at some
 * N at or above it, each by the one comparison rule (judgeDifference: an interval that excludes zero,
 * resampled as the samples were taken, and the user's minimum effect): the crossover exists only
 * because a's queries are cheaper.
 */
export function crossoverVerdict(
  a: ExpectedRow,
  b: ExpectedRow,
  rule: { minEffect?: MinEffect } = {},
): CrossoverVerdict | undefined {
  const from = crossover(a, b);
  // Lines that never cross need no intervals: every pair of a run is asked (the panel's first paint
  // waits for this), and the resampled intervals are its costliest part.
  if (from === undefined) return undefined;
  const intervals = expectedIntervals(a, b);
  if (!intervals)
    return {
      state: 'noise',
      fromQueries: from,
      reason: `fewer than ${MIN_COMPARED_SAMPLES} samples on a side`,
    };
  const used = Math.min(a.used ?? 0, b.used ?? 0);
  const established = (i: ExpectedInterval) => {
    const aUs = a.totalsUs[i.queries - 1] ?? 0;
    const bUs = b.totalsUs[i.queries - 1] ?? 0;
    const minimum = minEffectUs(rule.minEffect, aUs, bUs);
    return judgeDifference({
      percentile: 50,
      diffUs: aUs - bUs,
      lowUs: i.lowUs,
      highUs: i.highUs,
      used,
      ...(minimum !== undefined ? { minEffectUs: minimum } : {}),
    }).established;
  };
  const below = intervals.slice(0, from - 1).find((i) => i.sign === 1 && established(i));
  const above = intervals.slice(from - 1).find((i) => i.sign === -1 && established(i));
  if (!below || !above)
    return {
      state: 'noise',
      fromQueries: from,
      reason: rule.minEffect
        ? 'the 95% intervals of the difference contain 0 or stay below the minimum effect'
        : 'the 95% intervals of the difference contain 0',
    };
  return { state: 'established', fromQueries: from, below, above };
}

function resample(m: Measurement, target: string, options: BootstrapOptions): BootstrapSide | undefined {
  const samples = sideSamples(m);
  // Seeded by kind and target, as the Differences table is: the same run gives the same verdict.
  return samples.values.length < MIN_COMPARED_SAMPLES
    ? undefined
    : bootstrapSide(samples, `${m.kind}\u0000${target}`, options);
}

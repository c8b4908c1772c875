/**
 * The change gate: one run (HEAD) against a saved one (BASE), per target and kind, at p50 and p99.
 * The difference and its 95% bootstrap interval come from `compareRuns` (the compare view's own
 * computation), and whether it is established at all from the one comparison rule every surface
 * uses (`judgeDifference` in differences.ts: the interval excludes 0, the difference exceeds the
 * kind's spread, e.g. 20% of the faster plus 0.5 ms for `initial`, and the tail has the samples it needs). This adds the
 * verdict a CI gate needs, the way criterion reports a change:
 * - regressed: established, and the whole interval lies above the noise band;
 * - improved: established, and the whole interval lies below minus the noise band;
 * - otherwise "no change detected".
 * With a noise band of 0 the gate says "changed" exactly where the Differences table says
 * "established" (test/unit/judgement-one-rule.test.ts holds them to it).
 * Why a noise band beside the interval: two runs minutes apart differ by more than their samples'
 * own spread (the machine, the network, the database's caches drift), so an interval that only just
 * clears 0 is a real but small difference that a gate should not fail a pull request on.
 */
import type { ComparedPercentile } from './bootstrap';
import { compareRuns, MIN_COMPARED_SAMPLES, samplesNeededAt } from './differences';
import { whyNotComparable } from './comparability';
import type { ProbeKind } from '../plan';
import type { RunResult } from '../result';

/** The percentiles the gate judges: the typical sample and the tail. */
export const CHANGE_PERCENTILES = [50, 99] as const satisfies readonly ComparedPercentile[];
export type ChangePercentile = (typeof CHANGE_PERCENTILES)[number];
/** The noise band, as a share of BASE's figure, unless the caller sets another (`--noise`). */
export const DEFAULT_NOISE_SHARE = 0.05;
/** Below this the clock's 1 µs grid and the scheduler's wake-ups dominate: never a change. */
export const NOISE_FLOOR_US = 5;
/** p99 is judged only when each side kept this many samples: the one rule's tail depth (samplesNeededAt). */
export const MIN_P99_SAMPLES = samplesNeededAt(99);

export type ChangeVerdict = 'regressed' | 'improved' | 'no change detected';

export interface PercentileChange {
  percentile: ChangePercentile;
  /** The percentile of the samples each side's interval used (so figures and interval agree). */
  baseUs: number;
  headUs: number;
  /** head - base, and its 95% interval. */
  diffUs: number;
  lowUs: number;
  highUs: number;
  /** diff / base (0 when base is 0). */
  share: number;
  /** The band within which a change is noise, in µs. */
  noiseUs: number;
  /** Undefined when this percentile could not be judged (`note` says why). */
  verdict?: ChangeVerdict;
  note?: string;
}

export interface TargetChange {
  target: string;
  kind: ProbeKind;
  /** Successful samples each side's interval used (absent when not compared). */
  samples?: { base: number; head: number };
  percentiles: PercentileChange[];
  /**
   * Regressed if any percentile regressed; improved if any improved and none regressed. "not
   * comparable" when both runs measured it but differently (workload, load levels or model).
   */
  verdict: ChangeVerdict | 'not compared' | 'not comparable';
  /** Why not compared or not comparable: a side without the target or kind, too few samples, a different workload. */
  note?: string;
}

export interface ChangeOptions {
  /** The noise band as a share of BASE's figure (0.05 = 5%). */
  noiseShare?: number;
  resamples?: number;
}

/** Every target and kind of either run, in HEAD's order then BASE's, each with its verdict. */
export function compareResults(
  base: RunResult,
  head: RunResult,
  options: ChangeOptions = {},
): TargetChange[] {
  const noiseShare = options.noiseShare ?? DEFAULT_NOISE_SHARE;
  const keys: { target: string; kind: ProbeKind }[] = [];
  for (const m of [...head.measurements, ...base.measurements])
    if (!keys.some((k) => k.target === m.target && k.kind === m.kind))
      keys.push({ target: m.target, kind: m.kind });
  return keys.map(({ target, kind }) => {
    const mb = base.measurements.find((m) => m.target === target && m.kind === kind);
    const mh = head.measurements.find((m) => m.target === target && m.kind === kind);
    if (!mb || !mh)
      return {
        target,
        kind,
        percentiles: [],
        verdict: 'not compared',
        note: `measured only in ${mb ? 'BASE' : 'HEAD'}`,
      };
    const notComparable = whyNotComparable(base, head, mb, mh);
    if (notComparable)
      return { target, kind, percentiles: [], verdict: 'not comparable', note: notComparable };
    const comparison = compareRuns(
      { label: 'BASE', runId: base.id, measurement: mb },
      { label: 'HEAD', runId: head.id, measurement: mh },
      {
        percentiles: CHANGE_PERCENTILES,
        resamples: options.resamples,
      },
    );
    if (!comparison)
      return {
        target,
        kind,
        percentiles: [],
        verdict: 'not compared',
        note: `fewer than ${MIN_COMPARED_SAMPLES} successful samples kept (BASE ${mb.stats.count}, HEAD ${mh.stats.count})`,
      };
    const samples = { base: comparison.samples.a, head: comparison.samples.b };
    const percentiles = comparison.differences.map((d): PercentileChange => {
      const percentile = d.percentile as ChangePercentile;
      const baseUs = d.aUs;
      const headUs = d.bUs;
      const noiseUs = Math.max(NOISE_FLOOR_US, noiseShare * baseUs);
      const change = {
        percentile,
        baseUs,
        headUs,
        diffUs: d.diffUs,
        lowUs: d.lowUs,
        highUs: d.highUs,
        share: baseUs === 0 ? 0 : d.diffUs / baseUs,
        noiseUs,
      };
      if (d.notEstablishedBy === 'tail')
        return {
          ...change,
          note: `p${percentile} needs ${samplesNeededAt(percentile).toLocaleString('en-US')} samples a side to be judged (BASE ${samples.base}, HEAD ${samples.head})`,
        };
      const verdict: ChangeVerdict = !d.established
        ? 'no change detected'
        : d.lowUs > noiseUs
          ? 'regressed'
          : d.highUs < -noiseUs
            ? 'improved'
            : 'no change detected';
      return { ...change, verdict, ...(d.notEstablishedBy === 'spread' ? { note: d.text } : {}) };
    });
    const verdicts = percentiles.map((p) => p.verdict);
    const verdict: ChangeVerdict = verdicts.includes('regressed')
      ? 'regressed'
      : verdicts.includes('improved')
        ? 'improved'
        : 'no change detected';
    return { target, kind, samples, percentiles, verdict };
  });
}

/**
 * The regressions a `--fail-on-regression SHARE` gate fails on: regressed beyond noise, and by more
 * than `share` of BASE's figure (the estimate, as printed).
 */
export function regressionsBeyond(changes: readonly TargetChange[], share: number): Regression[] {
  return changes.flatMap((c) =>
    c.percentiles
      .filter((p) => p.verdict === 'regressed' && p.share > share)
      .map((change) => ({ target: c.target, kind: c.kind, change })),
  );
}

export interface Regression {
  target: string;
  kind: ProbeKind;
  change: PercentileChange;
}

/**
 * Fair comparisons: for two targets of one run (same kind), or one target in two runs, the difference
 * of p50 and p95 with a bootstrap 95% confidence interval, and a sentence saying what it establishes.
 *
 * Where this runs: derived on read, by the Markdown formatter and the panel's view-model builders,
 * not stored in the result. The result already keeps the raw samples it is computed from, and the
 * bootstrap is seeded, so reading a result twice gives the same intervals; deriving them means every
 * result gets them (stored runs from before this existed, partial runs rebuilt from a cut stream,
 * results from runners of another version) without a schema change, and the compare view, which
 * sets two runs against each other, needs the same computation anyway since no one result holds
 * both sides. The cost is bounded (see bootstrap.ts): tens of milliseconds per target and kind.
 */
import {
  BOOTSTRAP_CONFIDENCE,
  bootstrapSide,
  COMPARED_PERCENTILES,
  differenceInterval,
  type BootstrapOptions,
  type BootstrapSide,
  type ComparedPercentile,
} from './bootstrap';
import { PROBE_KINDS, type ProbeKind } from '../plan';
import type { Measurement, RunResult } from '../result';
import { ms, signedMs } from '../units';

/** Fewer successful samples than this on a side and no interval is worth printing. */
export const MIN_COMPARED_SAMPLES = 10;
/**
 * How far apart two warm connections to one server can answer: a share of the faster figure plus a
 * fixed part. On this project's shared 2-core test machine two connections to one PostgreSQL answered
 * 71 vs 95 µs and 74 vs 107 µs at p50, steadily through a run (each backend keeps its own CPU and
 * caches); on CI one pair stood 63 µs apart; and with the host at load average 6, 195 vs 481 µs (the
 * slower backend shared a busy core: a scheduling delay, which adds microseconds rather than
 * multiplying them). The `subsequent` kind measures one connection per target, so its samples cannot
 * tell a target from its connection: a difference below this floor is not named, however narrow its
 * interval (the interval speaks for the two connections, not the two targets).
 */
export const ONE_CONNECTION_SPREAD = 0.5;
export const ONE_CONNECTION_SPREAD_US = 500;

/** The smallest difference a one-connection kind can attribute to the targets rather than their connections. */
export function oneConnectionFloorUs(aUs: number, bUs: number): number {
  return ONE_CONNECTION_SPREAD * Math.min(aUs, bUs) + ONE_CONNECTION_SPREAD_US;
}

/**
 * Samples a side needs beyond a compared percentile before a difference there is named: the bootstrap
 * of a p95 resamples only the few samples above it, and a host's stalls come in bursts, not one sample
 * at a time, so with 5 beyond it (100 samples) one burst decides the interval. Measured: one testbed
 * PostgreSQL probed twice under two names, 100 samples each, named a p95 winner by 2.8 to 5.8 ms in 5
 * of 20 runs. 20 beyond it (400 samples for a p95) is what the interval is trusted from.
 */
export const MIN_TAIL_SAMPLES = 20;

/** The samples each side needs before a difference at percentile p is named. */
export function samplesNeededAt(p: number): number {
  return p <= 50 ? MIN_COMPARED_SAMPLES : Math.ceil(MIN_TAIL_SAMPLES / (1 - p / 100));
}

/**
 * How far apart one server's new connections can answer in two targets of one run, as a share of the
 * faster p50: the testbed PostgreSQL probed twice under two names (100 initial samples each,
 * interleaved, 20 runs on the shared 2-core machine) had initial p50s up to 13% apart (10,989 vs
 * 9,819 µs), and the bootstrap, which takes samples as independent, excluded zero for such a gap in
 * 1 or 2 runs of 20: a busy host's slow spells last longer than one sample. An `initial` difference
 * below this share, plus NEW_CONNECTION_SPREAD_US, is not named.
 */
export const NEW_CONNECTION_SPREAD = 0.2;
/**
 * The fixed part beside the share: a new connection is mostly the client's own CPU work on loopback
 * (a libSQL file opened, pg's SCRAM), which a busy host's scheduler moves by hundreds of µs whatever
 * its size. Two identical runs back to back on the 2-core test machine (AMD EPYC, load average 2.7)
 * read libSQL `file:` initial p50s of 0.48 and 0.35 ms (26% apart, 125 µs) and PostgreSQL's 5.17 and
 * 6.35 ms (23%, 1.2 ms): a share alone named both as changes.
 */
export const NEW_CONNECTION_SPREAD_US = 500;

/** The smallest difference of new connections that is the targets' (or the runs'), not the host's. */
export function newConnectionFloorUs(aUs: number, bUs: number): number {
  return NEW_CONNECTION_SPREAD * Math.min(aUs, bUs) + NEW_CONNECTION_SPREAD_US;
}

/** The difference a kind's figures must exceed to be the targets', not their connections' (undefined: none). */
export function kindFloorUs(kind: ProbeKind, aUs: number, bUs: number): number | undefined {
  if (kind === 'initial') return newConnectionFloorUs(aUs, bUs);
  if (kind === 'subsequent') return oneConnectionFloorUs(aUs, bUs);
  return undefined;
}

/** Targets compared pairwise per kind (n targets give n(n-1)/2 rows): the first ones in the run. */
export const MAX_COMPARED_TARGETS = 8;

export interface PercentileDifference {
  percentile: ComparedPercentile;
  /** Each side's percentile, from the samples its interval used. */
  aUs: number;
  bUs: number;
  /** b - a, from the samples used. */
  diffUs: number;
  /** 95% interval of b - a. */
  lowUs: number;
  highUs: number;
  /** By the one rule (judgeDifference): the interval excludes 0, beyond the kind's spread, tail deep enough. */
  established: boolean;
  /** Set when not established: which part of the rule held it back. */
  notEstablishedBy?: NotEstablishedBy;
  /** E.g. "neon-http is 3.100 ms faster than pg at p50 (95% CI 2.800 to 3.400 ms)". */
  text: string;
}

export interface Comparison {
  kind: ProbeKind;
  /** The two sides' names as shown: target names, or run labels when one target spans two runs. */
  a: string;
  b: string;
  /** Set when both sides are the same target in two runs (the compare view). */
  target?: string;
  /** Samples each side's interval used, and how many successful samples were kept before the cap. */
  samples: { a: number; b: number; keptA: number; keptB: number };
  resamples: number;
  differences: PercentileDifference[];
}

export interface ComparisonSet {
  comparisons: Comparison[];
  /** Targets left out of pairwise comparison (too few samples, or past MAX_COMPARED_TARGETS). */
  skipped: { target: string; kind: ProbeKind; reason: string }[];
}

/** Every pair of targets of one run, per kind. */
export function compareTargets(result: RunResult, options: BootstrapOptions = {}): ComparisonSet {
  const comparisons: Comparison[] = [];
  const skipped: ComparisonSet['skipped'] = [];
  for (const kind of PROBE_KINDS) {
    const sides: { target: string; side: BootstrapSide }[] = [];
    for (const m of result.measurements.filter((x) => x.kind === kind)) {
      const values = successes(m);
      if (values.length < MIN_COMPARED_SAMPLES) {
        skipped.push({ target: m.target, kind, reason: `${values.length} successful samples kept` });
      } else if (sides.length >= MAX_COMPARED_TARGETS) {
        skipped.push({
          target: m.target,
          kind,
          reason: `only the first ${MAX_COMPARED_TARGETS} targets are compared`,
        });
      } else {
        // Seeded by kind and target alone: adding a target to the run leaves the other pairs' intervals as they were.
        sides.push({ target: m.target, side: bootstrapSide(values, `${kind}\u0000${m.target}`, options) });
      }
    }
    for (let i = 0; i < sides.length; i++) {
      for (let j = i + 1; j < sides.length; j++) {
        comparisons.push(compare(kind, sides[i]!.target, sides[i]!.side, sides[j]!.target, sides[j]!.side));
      }
    }
  }
  return { comparisons, skipped };
}

/**
 * Two named measurements of one run and kind (a layer beside its raw driver), seeded as
 * compareTargets seeds them, so the figures agree with the run's Differences table; undefined when
 * either side has too few samples.
 */
export function compareMeasurements(
  a: { name: string; measurement: Measurement },
  b: { name: string; measurement: Measurement },
  options: BootstrapOptions = {},
): Comparison | undefined {
  const valuesA = successes(a.measurement);
  const valuesB = successes(b.measurement);
  if (valuesA.length < MIN_COMPARED_SAMPLES || valuesB.length < MIN_COMPARED_SAMPLES) return undefined;
  const { kind } = a.measurement;
  const sideA = bootstrapSide(valuesA, `${kind}\u0000${a.name}`, options);
  const sideB = bootstrapSide(valuesB, `${kind}\u0000${b.name}`, options);
  return compare(kind, a.name, sideA, b.name, sideB, [50]);
}

/**
 * One target and kind in two runs (A then B); undefined when either side has too few samples.
 * `percentiles` chooses the differences (the views: p50 and p95; the CLI's change gate: p50 and p99).
 */
export function compareRuns(
  a: { label: string; runId: string; measurement: Measurement },
  b: { label: string; runId: string; measurement: Measurement },
  options: BootstrapOptions & { percentiles?: readonly ComparedPercentile[] } = {},
): Comparison | undefined {
  const valuesA = successes(a.measurement);
  const valuesB = successes(b.measurement);
  if (valuesA.length < MIN_COMPARED_SAMPLES || valuesB.length < MIN_COMPARED_SAMPLES) return undefined;
  const { kind, target } = a.measurement;
  // Seeded by run as well: the same seed on both sides would draw the same indices, pairing samples that are not pairs.
  const sideA = bootstrapSide(valuesA, `${a.runId}\u0000${kind}\u0000${target}`, options);
  const sideB = bootstrapSide(valuesB, `${b.runId}\u0000${kind}\u0000${target}`, options);
  return { ...compare(kind, a.label, sideA, b.label, sideB, options.percentiles), target };
}

function compare(
  kind: ProbeKind,
  a: string,
  sideA: BootstrapSide,
  b: string,
  sideB: BootstrapSide,
  percentiles: readonly ComparedPercentile[] = COMPARED_PERCENTILES,
): Comparison {
  return {
    kind,
    a,
    b,
    samples: { a: sideA.used, b: sideB.used, keptA: sideA.offered, keptB: sideB.offered },
    resamples: Math.min(sideA.resampled[50].length, sideB.resampled[50].length),
    differences: percentiles.map((p) => {
      const interval = differenceInterval(sideA, sideB, p);
      const used = Math.min(sideA.used, sideB.used);
      const floorUs = kindFloorUs(kind, sideA.point[p], sideB.point[p]);
      const verdict = judgeDifference({
        percentile: p,
        ...interval,
        used,
        floorUs,
      });
      return {
        percentile: p,
        aUs: sideA.point[p],
        bUs: sideB.point[p],
        ...interval,
        established: verdict.established,
        notEstablishedBy: verdict.notEstablishedBy,
        text:
          verdict.notEstablishedBy === 'tail'
            ? thinTailText(a, b, p, interval, used)
            : differenceText(
                a,
                b,
                p,
                interval,
                verdict.established,
                verdict.notEstablishedBy === 'spread' ? kind : undefined,
              ),
      };
    }),
  };
}

/** What one difference rests on: b - a, its 95% interval, the floor it must clear and the thinner side's samples. */
export interface DifferenceEvidence {
  percentile: ComparedPercentile;
  diffUs: number;
  lowUs: number;
  highUs: number;
  /** The kind's floor (kindFloorUs), or a sum of them for a figure built from several kinds; absent: none. */
  floorUs?: number;
  /** Successful samples of the side with fewer. */
  used: number;
}

/** Why a difference is not established: its interval holds 0, it is within the kind's spread, or the tail is thin. */
export type NotEstablishedBy = 'interval' | 'spread' | 'tail';

/**
 * THE comparison rule: every verdict that one figure differs from another (the Differences table,
 * the ranking's tie groups, the change gate's "regressed") is this function's. A difference is
 * established when its 95% interval excludes 0, it exceeds the floor of what two connections to
 * one server differ by, and each side has enough samples beyond the percentile.
 */
export function judgeDifference(e: DifferenceEvidence): {
  established: boolean;
  notEstablishedBy?: NotEstablishedBy;
} {
  if (e.used < samplesNeededAt(e.percentile)) return { established: false, notEstablishedBy: 'tail' };
  if (!(e.lowUs > 0 || e.highUs < 0)) return { established: false, notEstablishedBy: 'interval' };
  if (e.floorUs !== undefined && Math.abs(e.diffUs) < e.floorUs)
    return { established: false, notEstablishedBy: 'spread' };
  return { established: true };
}

/**
 * The sentence a reader can quote. Established: who is faster, by how much, and the interval of that
 * amount. Not established: says so, with b - a and the interval that contains 0.
 */
export function differenceText(
  a: string,
  b: string,
  p: ComparedPercentile,
  interval: { diffUs: number; lowUs: number; highUs: number },
  established: boolean,
  /** Set when the interval excludes zero but the difference is within this kind's floor (kindFloorUs). */
  withinSpreadOf?: ProbeKind,
): string {
  const ci = `${Math.round(BOOTSTRAP_CONFIDENCE * 100)}% CI`;
  if (withinSpreadOf === 'initial') {
    return `difference at p${p} between ${a} and ${b} not established: ${b} - ${a} = ${signedMs(interval.diffUs)} ms (${ci} ${signedMs(interval.lowUs)} to ${signedMs(interval.highUs)} ms) is within what one server's new connections differ by between two targets of a run (up to ${Math.round(NEW_CONNECTION_SPREAD * 100)}% of the faster plus ${ms(NEW_CONNECTION_SPREAD_US)} ms)`;
  }
  if (withinSpreadOf !== undefined) {
    return `difference at p${p} between ${a} and ${b} not established: ${b} - ${a} = ${signedMs(interval.diffUs)} ms (${ci} ${signedMs(interval.lowUs)} to ${signedMs(interval.highUs)} ms) is within what two warm connections to one server differ by (up to ${Math.round(ONE_CONNECTION_SPREAD * 100)}% of the faster plus ${ms(ONE_CONNECTION_SPREAD_US)} ms), and each side is one connection`;
  }
  if (!established) {
    return `difference at p${p} between ${a} and ${b} not established: ${b} - ${a} = ${signedMs(interval.diffUs)} ms, ${ci} ${signedMs(interval.lowUs)} to ${signedMs(interval.highUs)} ms contains 0`;
  }
  // The interval lies on one side of 0: that side names the faster one.
  const aFaster = interval.lowUs > 0;
  const [faster, slower] = aFaster ? [a, b] : [b, a];
  const by = aFaster ? interval.diffUs : -interval.diffUs;
  const [low, high] = aFaster ? [interval.lowUs, interval.highUs] : [-interval.highUs, -interval.lowUs];
  return `${faster} is ${ms(by)} ms faster than ${slower} at p${p} (${ci} ${ms(low)} to ${ms(high)} ms)`;
}

/** A tail difference from too few samples: not judged, whatever its interval. */
function thinTailText(
  a: string,
  b: string,
  p: ComparedPercentile,
  interval: { diffUs: number; lowUs: number; highUs: number },
  used: number,
): string {
  const ci = `${Math.round(BOOTSTRAP_CONFIDENCE * 100)}% CI`;
  return `difference at p${p} between ${a} and ${b} not established: ${b} - ${a} = ${signedMs(interval.diffUs)} ms (${ci} ${signedMs(interval.lowUs)} to ${signedMs(interval.highUs)} ms), but ${used} samples a side leave too few above p${p} to judge it (${samplesNeededAt(p)} needed)`;
}

/** The latencies of the kept successful samples, in the order they were taken. */
export function successes(m: Measurement): number[] {
  return m.samples.values.flatMap((s) => (s.us === undefined ? [] : [s.us]));
}

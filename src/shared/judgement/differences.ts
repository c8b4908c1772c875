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
  pairedSides,
  type BootstrapOptions,
  type BootstrapSide,
  type ComparedPercentile,
  type SideSamples,
} from './bootstrap';
import { hostCoincides, type HostSide, type HostEvidence } from './hostEvidence';
import { minEffectUs, minEffectText, type MinEffect } from './minEffect';
import { PROBE_KINDS, type ProbeKind } from '../plan';
import { sameWorkload } from './sectionScope';
import type { Measurement, RunResult } from '../result';
import { ms, signedMs } from '../units';

/** Fewer successful samples than this on a side and no interval is worth printing. */
export const MIN_COMPARED_SAMPLES = 10;
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

/** Targets compared pairwise per kind (n targets give n(n-1)/2 rows): the first ones in the run. */
export const MAX_COMPARED_TARGETS = 8;

export interface PercentileDifference {
  percentile: ComparedPercentile;
  /** Each side's percentile, from the samples its interval used. */
  aUs: number;
  bUs: number;
  /** b - a, from the samples used (sides paired round by round, at p50: the median of the rounds' differences). */
  diffUs: number;
  /** 95% interval of b - a. */
  lowUs: number;
  highUs: number;
  /** By the one rule (judgeDifference): interval excludes 0, tail deep enough, not the host's, past the minimum effect. */
  established: boolean;
  /** Set when not established: which part of the rule held it back. */
  notEstablishedBy?: NotEstablishedBy;
  /** Set when a side's host added enough CPU wait to explain it (hostEvidence.ts). */
  host?: HostEvidence;
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
  /**
   * What the interval resampled: `paired` rounds of two sides on shared connections, `connections`
   * then samples within them (the count of the side with fewer), or `samples` in blocks.
   */
  resampledBy: { by: 'paired' } | { by: 'connections'; connections: number } | { by: 'samples' };
  differences: PercentileDifference[];
}

export interface ComparisonSet {
  comparisons: Comparison[];
  /** Targets left out of pairwise comparison (too few samples, or past MAX_COMPARED_TARGETS). */
  skipped: { target: string; kind: ProbeKind; reason: string }[];
}

/** The user's part of the rule, for every comparison: a minimum effect size (none by default). */
export interface RuleOptions {
  minEffect?: MinEffect;
}

/** One side's host over the span of its samples (client.host.spans). */
export interface SpanFigures {
  waitShare?: number;
  spinNs?: number;
  /**
   * The run's median pause between one warm sample's end and the next one's start (µs): the
   * engine's own work, the same in every run, so how fast this process ran at the time (runChanges).
   */
  betweenSamplesUs?: number;
  /** The target's database runs on this machine (loopback or in-process): every sample is its work. */
  onThisMachine?: boolean;
}

/** How the two sides were taken: at different moments (two runs, a sequential run), or interleaved. */
interface SideTiming {
  /** The host may have differed between them, so its wait is evidence (hostEvidence.ts). */
  apartInTime?: boolean;
  /** Each side's thread wait over its samples' span, gaps included, and its CPU speed (client.host.spans). */
  spans?: [SpanFigures | undefined, SpanFigures | undefined];
}

export type CompareOptions = BootstrapOptions & RuleOptions;

/** The rule a run was asked to be judged by (its plan's minimum effect), unless the caller sets one. */
export function withRunRule<T extends RuleOptions>(result: RunResult, options: T): T {
  if (options.minEffect || !result.plan.minEffect) return options;
  return { ...options, minEffect: result.plan.minEffect };
}

/** Every pair of targets of one run, per kind. */
export function compareTargets(result: RunResult, asked: CompareOptions = {}): ComparisonSet {
  const options = withRunRule(result, asked);
  const comparisons: Comparison[] = [];
  const skipped: ComparisonSet['skipped'] = [];
  const interleaved = result.plan.order !== 'sequential';
  // Only targets of one workload class answer the same question (SELECT 1 against PING says nothing).
  const comparable = sameWorkload(result);
  for (const kind of PROBE_KINDS) {
    const sides: { target: string; samples: SideSamples; side: BootstrapSide }[] = [];
    for (const m of result.measurements.filter((x) => x.kind === kind)) {
      const samples = sideSamples(m);
      if (samples.values.length < MIN_COMPARED_SAMPLES) {
        skipped.push({ target: m.target, kind, reason: `${samples.values.length} successful samples kept` });
      } else if (sides.length >= MAX_COMPARED_TARGETS) {
        skipped.push({
          target: m.target,
          kind,
          reason: `only the first ${MAX_COMPARED_TARGETS} targets are compared`,
        });
      } else {
        // Seeded by kind and target alone: adding a target to the run leaves the other pairs' intervals as they were.
        sides.push({
          target: m.target,
          samples,
          side: bootstrapSide(samples, `${kind}\u0000${m.target}`, options),
        });
      }
    }
    for (let i = 0; i < sides.length; i++) {
      for (let j = i + 1; j < sides.length; j++) {
        const a = sides[i]!;
        const b = sides[j]!;
        if (!comparable(a.target, b.target)) continue;
        const shared = interleaved && sharesConnections(result, kind, a.target, b.target);
        const paired = shared ? pairedOf(result, kind, a.target, b.target, options) : undefined;
        comparisons.push(
          paired
            ? compare(kind, a.target, paired[0], b.target, paired[1], options)
            : compare(kind, a.target, a.side, b.target, b.side, { ...options, apartInTime: !interleaved }),
        );
      }
    }
  }
  return { comparisons, skipped };
}

/**
 * Whether two targets of a kind took their samples on shared connections: an ORM layer's twin rides
 * its raw target's warm connections (subsequent kind), one round each, so their pairs are one
 * connection's. Results from before the kind kept several connections carry no connection per sample.
 */
function sharesConnections(result: RunResult, kind: ProbeKind, a: string, b: string): boolean {
  if (kind !== 'subsequent') return false;
  const layerOver = (name: string) => result.targets.find((t) => t.name === name)?.layer?.over;
  if (layerOver(a) !== b && layerOver(b) !== a) return false;
  const carries = (name: string) =>
    result.measurements
      .find((m) => m.target === name && m.kind === kind)
      ?.samples.values.some((s) => s.conn !== undefined) === true;
  return carries(a) && carries(b);
}

/**
 * Two sides' samples round by round (the k-th record of each is one round's, failures included, so
 * a failed sample drops its round rather than shifting the pairs), resampled together.
 */
function pairedOf(
  result: RunResult,
  kind: ProbeKind,
  a: string,
  b: string,
  options: BootstrapOptions,
): [BootstrapSide, BootstrapSide] | undefined {
  const records = (name: string) =>
    result.measurements.find((m) => m.target === name && m.kind === kind)?.samples.values ?? [];
  const ra = records(a);
  const rb = records(b);
  const va: number[] = [];
  const vb: number[] = [];
  for (let k = 0; k < Math.min(ra.length, rb.length); k++) {
    const x = ra[k]!.us;
    const y = rb[k]!.us;
    if (x === undefined || y === undefined) continue;
    va.push(x);
    vb.push(y);
  }
  if (va.length < MIN_COMPARED_SAMPLES) return undefined;
  return pairedSides({ values: va }, { values: vb }, `${kind}\u0000${a}\u0000${b}`, options);
}

/**
 * Two named measurements of one run and kind (a layer beside its raw driver), drawn as the run's
 * Differences table draws them (paired where they share connections), so the figures agree with it;
 * undefined when either side has too few samples.
 */
export function compareMeasurements(
  result: RunResult,
  a: { name: string; measurement: Measurement },
  b: { name: string; measurement: Measurement },
  asked: CompareOptions = {},
): Comparison | undefined {
  const options = withRunRule(result, asked);
  const samplesA = sideSamples(a.measurement);
  const samplesB = sideSamples(b.measurement);
  if (samplesA.values.length < MIN_COMPARED_SAMPLES || samplesB.values.length < MIN_COMPARED_SAMPLES)
    return undefined;
  const { kind } = a.measurement;
  const shared = result.plan.order !== 'sequential' && sharesConnections(result, kind, a.name, b.name);
  const paired = shared ? pairedOf(result, kind, a.name, b.name, options) : undefined;
  if (paired) return compare(kind, a.name, paired[0], b.name, paired[1], options, [50]);
  const sideA = bootstrapSide(samplesA, `${kind}\u0000${a.name}`, options);
  const sideB = bootstrapSide(samplesB, `${kind}\u0000${b.name}`, options);
  const apartInTime = result.plan.order === 'sequential';
  return compare(kind, a.name, sideA, b.name, sideB, { ...options, apartInTime }, [50]);
}

/**
 * One target and kind in two runs (A then B); undefined when either side has too few samples.
 * `percentiles` chooses the differences (the views: p50 and p95; the CLI's change gate: p50 and p99).
 */
export function compareRuns(
  a: { label: string; runId: string; measurement: Measurement; span?: SpanFigures; sharedHost?: boolean },
  b: { label: string; runId: string; measurement: Measurement; span?: SpanFigures; sharedHost?: boolean },
  options: CompareOptions & { percentiles?: readonly ComparedPercentile[] } = {},
): Comparison | undefined {
  const samplesA = sideSamples(a.measurement, { sharedHost: a.sharedHost === true });
  const samplesB = sideSamples(b.measurement, { sharedHost: b.sharedHost === true });
  if (samplesA.values.length < MIN_COMPARED_SAMPLES || samplesB.values.length < MIN_COMPARED_SAMPLES)
    return undefined;
  const { kind, target } = a.measurement;
  // Seeded by run as well: the same seed on both sides would draw the same indices, pairing samples that are not pairs.
  const sideA = bootstrapSide(samplesA, `${a.runId}\u0000${kind}\u0000${target}`, options);
  const sideB = bootstrapSide(samplesB, `${b.runId}\u0000${kind}\u0000${target}`, options);
  // Two runs: the host of one need not be the host of the other.
  return {
    ...compare(
      kind,
      a.label,
      sideA,
      b.label,
      sideB,
      { ...options, apartInTime: true, spans: [a.span, b.span] },
      options.percentiles,
    ),
    target,
  };
}

function compare(
  kind: ProbeKind,
  a: string,
  sideA: BootstrapSide,
  b: string,
  sideB: BootstrapSide,
  rule: RuleOptions & SideTiming,
  percentiles: readonly ComparedPercentile[] = COMPARED_PERCENTILES,
): Comparison {
  const used = Math.min(sideA.used, sideB.used);
  return {
    kind,
    a,
    b,
    samples: { a: sideA.used, b: sideB.used, keptA: sideA.offered, keptB: sideB.offered },
    resamples: Math.min(sideA.resampled[50].length, sideB.resampled[50].length),
    resampledBy: sideA.paired
      ? { by: 'paired' }
      : sideA.clusters > 1 || sideB.clusters > 1
        ? { by: 'connections', connections: Math.min(sideA.clusters, sideB.clusters) }
        : { by: 'samples' },
    differences: percentiles.map((p) => {
      const interval = differenceInterval(sideA, sideB, p);
      // Only sides taken at different moments: interleaved targets (and paired ones) shared the host.
      const host = rule.apartInTime
        ? hostCoincides(
            hostSide(a, sideA, rule.spans?.[0], rule.spans?.[1]),
            hostSide(b, sideB, rule.spans?.[1], rule.spans?.[0]),
            interval,
          )
        : undefined;
      const minimumUs = minEffectUs(rule.minEffect, sideA.point[p], sideB.point[p]);
      const verdict = judgeDifference({ percentile: p, ...interval, used, minEffectUs: minimumUs, host });
      return {
        percentile: p,
        aUs: sideA.point[p],
        bUs: sideB.point[p],
        ...interval,
        established: verdict.established,
        ...(verdict.notEstablishedBy ? { notEstablishedBy: verdict.notEstablishedBy } : {}),
        ...(host ? { host } : {}),
        text: differenceSentence(a, b, p, interval, verdict, { used, host, minEffect: rule.minEffect }),
      };
    }),
  };
}

/**
 * A side's host wait per sample: the most of what its samples' own readings saw and what its
 * thread waited over their span (a share of each sample's mean), with that as a share.
 */
function hostSide(
  name: string,
  side: BootstrapSide,
  span: SpanFigures | undefined,
  otherSpan: SpanFigures | undefined,
): HostSide {
  const fromSpan = span?.waitShare === undefined ? undefined : span.waitShare * side.meanUs;
  // A slower CPU (the fixed work took longer than on the other side) slows CPU-bound work alike: the
  // share it lost is host time in each sample, up to that share of the sample.
  const slowerCpu =
    span?.spinNs !== undefined && otherSpan?.spinNs !== undefined && span.spinNs > otherSpan.spinNs
      ? (1 - otherSpan.spinNs / span.spinNs) * side.meanUs
      : undefined;
  // A slower process (its own work between samples took longer than in the other run) slows a
  // database on this machine alike, client and server: the share it lost, of each whole sample.
  // Seen on a quiet 2-core VM: identical runs' warm pg p50 went 131 to 235 µs as that work went 22
  // to 31 µs, with no CPU wait to show for it.
  const ownPause = span?.betweenSamplesUs;
  const otherPause = otherSpan?.betweenSamplesUs;
  const slowerProcess =
    span?.onThisMachine === true && ownPause !== undefined && otherPause !== undefined && ownPause > 0
      ? Math.max(0, 1 - otherPause / ownPause) * side.meanUs
      : undefined;
  const own = side.wait?.point;
  const readings = [own, fromSpan, slowerCpu].filter((x): x is number => x !== undefined);
  const waitUs = readings.length === 0 ? undefined : Math.max(...readings);
  const process =
    slowerProcess !== undefined && slowerProcess > 0 && !(waitUs !== undefined && waitUs >= slowerProcess)
      ? { hostUs: slowerProcess, ownUs: ownPause!, otherUs: otherPause! }
      : undefined;
  // Both runs' pauses read: the faster one's process added nothing, which is a reading too.
  const hostUs = process ? process.hostUs : (waitUs ?? (slowerProcess !== undefined ? 0 : undefined));
  return {
    name,
    waitUs: hostUs,
    shareOf: hostUs !== undefined && side.meanUs > 0 ? Math.min(1, hostUs / side.meanUs) : undefined,
    ...(process ? { process: { ownUs: process.ownUs, otherUs: process.otherUs } } : {}),
  };
}

/** What one difference rests on: b - a, its 95% interval and what else the rule reads. */
export interface DifferenceEvidence {
  percentile: ComparedPercentile;
  diffUs: number;
  lowUs: number;
  highUs: number;
  /** The user's minimum effect size at these figures (µs); absent: none. */
  minEffectUs?: number;
  /** Successful samples of the side with fewer. */
  used: number;
  /** A side's host added enough CPU wait to explain it: the difference may be the host's. */
  host?: HostEvidence;
}

/** Why a difference is not established. */
export type NotEstablishedBy = 'interval' | 'tail' | 'host' | 'min-effect';

/**
 * THE comparison rule: every verdict that one figure differs from another (the Differences table,
 * the ranking's tie groups, the change gate's "regressed", a layer's cost, an overtake, a request's
 * crossover) is this function's. A difference is established when each side has enough samples beyond
 * the percentile, its 95% interval (resampled as the samples were taken: connections, rounds, blocks)
 * excludes 0, for sides taken at different moments neither side's host added that much CPU
 * wait to its samples, and it
 * reaches the user's minimum effect, when one is set. Nothing here is a constant of one machine.
 */
export function judgeDifference(e: DifferenceEvidence): {
  established: boolean;
  notEstablishedBy?: NotEstablishedBy;
} {
  if (e.used < samplesNeededAt(e.percentile)) return { established: false, notEstablishedBy: 'tail' };
  if (!(e.lowUs > 0 || e.highUs < 0)) return { established: false, notEstablishedBy: 'interval' };
  // Below what the user asked to see named, a difference is that, whatever the host did: the host
  // only withholds a difference that would otherwise be named.
  if (e.minEffectUs !== undefined && Math.abs(e.diffUs) < e.minEffectUs)
    return { established: false, notEstablishedBy: 'min-effect' };
  if (e.host) return { established: false, notEstablishedBy: 'host' };
  return { established: true };
}

/** The sentence for a difference, as the rule decided it. */
function differenceSentence(
  a: string,
  b: string,
  p: ComparedPercentile,
  interval: { diffUs: number; lowUs: number; highUs: number },
  verdict: { established: boolean; notEstablishedBy?: NotEstablishedBy },
  context: { used: number; host?: HostEvidence; minEffect?: MinEffect },
): string {
  const ci = `${Math.round(BOOTSTRAP_CONFIDENCE * 100)}% CI`;
  const figures = `${b} - ${a} = ${signedMs(interval.diffUs)} ms (${ci} ${signedMs(interval.lowUs)} to ${signedMs(interval.highUs)} ms)`;
  switch (verdict.notEstablishedBy) {
    case 'tail':
      return `difference at p${p} between ${a} and ${b} not established: ${figures}, but ${context.used} samples a side leave too few above p${p} to judge it (${samplesNeededAt(p)} needed)`;
    case 'host':
      return `difference at p${p} between ${a} and ${b} not attributable: ${context.host!.sentence}; ${figures}`;
    case 'min-effect':
      return `difference at p${p} between ${a} and ${b} below the minimum effect (${minEffectText(context.minEffect!)}): ${figures}`;
    default:
      return differenceText(a, b, p, interval, verdict.established);
  }
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
): string {
  const ci = `${Math.round(BOOTSTRAP_CONFIDENCE * 100)}% CI`;
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

/** The latencies of the kept successful samples, in the order they were taken. */
export function successes(m: Measurement): number[] {
  return m.samples.values.flatMap((s) => (s.us === undefined ? [] : [s.us]));
}

/**
 * A sample's host part when the database runs on the probing host (a server on loopback): its
 * processes wait for the same CPUs as the probing thread, as long as the host's pressure says some
 * task waited during the sample. The server's wait is not the thread's again: a new connection
 * makes the server fork and start a backend, far more CPU than the client spends, and beside a CPU
 * burner a pg connect's thread waited 3.7 ms a sample while some task waited 8.0 ms, and the connect
 * took 7.1 ms longer.
 */
function sharedHostWait(threadUs: number, pressureUs: number | undefined): number {
  return pressureUs === undefined ? threadUs : Math.max(threadUs, pressureUs);
}

/** Whether a target's database runs on the probing host as a server of its own (loopback). */
export function onLoopback(endpoint: string | undefined): boolean {
  if (endpoint === undefined) return false;
  const host = endpoint.replace(/:\d+$/, '').replace(/^\[|\]$/g, '');
  return host === 'localhost' || host === '::1' || /^127\./.test(host);
}

/**
 * A measurement's successful samples as the bootstrap reads them: latencies in order, with each
 * sample's connection when the kind kept several, and the host's CPU wait during it when every
 * sample carries one.
 */
export function sideSamples(m: Measurement, options: { sharedHost?: boolean } = {}): SideSamples {
  const values: number[] = [];
  const clusters: number[] = [];
  const waits: number[] = [];
  let allConn = true;
  let allWait = true;
  for (const s of m.samples.values) {
    if (s.us === undefined) continue;
    values.push(s.us);
    if (s.conn === undefined) allConn = false;
    else clusters.push(s.conn);
    // The host's part of the sample: the thread's own wait for a CPU inside it. (The host's CPU
    // pressure is kept beside it, but on a busy host some task always waits: it says nothing of
    // this sample.)
    if (s.cpuWaitUs === undefined) allWait = false;
    else waits.push(options.sharedHost ? sharedHostWait(s.cpuWaitUs, s.cpuPressureUs) : s.cpuWaitUs);
  }
  return {
    values,
    ...(allConn && values.length > 0 ? { clusters } : {}),
    ...(allWait && values.length > 0 ? { waits } : {}),
  };
}

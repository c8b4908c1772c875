/**
 * The database's part of an established gap (DESIGN rule 15): how much of slower - faster the
 * server's own time accounts for, named only when the figures support it. Both sides must have their
 * database time for every kind the question is made of (a side without one says nothing about the
 * database). Whether the database times differ is decided as every difference is:
 *
 * - per-sample figures on both sides (a `p50` of each answer's own time, enough of them): the one
 *   rule (`judgeDifference`) over a bootstrap of the samples' database times, resampled as the
 *   latencies are (connections, then blocks), so the claim carries the spread the server reported;
 * - a per-run figure on either side (a counter's mean, one EXPLAIN ANALYZE) has no spread of its own:
 *   it is held to the gap's, its difference named only when it exceeds the width of the gap's own
 *   95% interval (less than that and the latency's noise alone could hide or make it).
 *
 * Pure and free of Node: the webview bundles it.
 */
import { bootstrapSide, differenceInterval, type BootstrapSide, type SideSamples } from './bootstrap';
import { judgeDifference, MIN_COMPARED_SAMPLES, type DifferenceEvidence } from './differences';
import type { QuestionPart } from './gapEvidence';
import type { Measurement } from '../result';
import { isServerTimeGiven } from '../serverTime';

export interface DatabaseGap {
  /** Each side's database time on the question (a request sums its kinds, weighted). */
  fasterUs: number;
  slowerUs: number;
  /** slower - faster. */
  diffUs: number;
  /** The gap it is set against: slower - faster in latency, as the ranking judged it. */
  gapUs: number;
  /** It is at least half the gap: the database is the main reason. */
  most: boolean;
  /** How the difference was judged. */
  by: 'samples' | 'gap interval';
}

/**
 * The database's part of `slower` - `faster` on the question, when both sides gave it and their
 * difference is established in the gap's direction; undefined otherwise.
 */
export function databaseGap(
  faster: string,
  slower: string,
  parts: readonly QuestionPart[],
  gap: DifferenceEvidence,
  measurements: readonly Measurement[],
): DatabaseGap | undefined {
  const pairs = parts.map((p) => {
    const of = (target: string) =>
      measurements.find((m) => m.target === target && m.kind === p.kind && m.stats.count > 0);
    return { ...p, f: of(faster), s: of(slower) };
  });
  let fasterUs = 0;
  let slowerUs = 0;
  for (const { weight, f, s } of pairs) {
    if (!isServerTimeGiven(f?.serverTime) || !isServerTimeGiven(s?.serverTime)) return undefined;
    fasterUs += weight * f.serverTime.p50Us;
    slowerUs += weight * s.serverTime.p50Us;
  }
  const diffUs = slowerUs - fasterUs;
  if (!(diffUs > 0)) return undefined;
  const sampled = pairs.map(({ kind, weight, f, s }) => {
    const a = perSample(f!, `${kind}\u0000${faster}\u0000server`);
    const b = perSample(s!, `${kind}\u0000${slower}\u0000server`);
    return a && b ? { weight, a, b } : undefined;
  });
  let by: DatabaseGap['by'];
  if (sampled.every((x) => x !== undefined)) {
    let lowUs = 0;
    let highUs = 0;
    for (const { weight, a, b } of sampled) {
      const interval = differenceInterval(a, b, 50);
      lowUs += weight * interval.lowUs;
      highUs += weight * interval.highUs;
    }
    const used = Math.min(...sampled.map((x) => Math.min(x.a.used, x.b.used)));
    const verdict = judgeDifference({ percentile: 50, diffUs, lowUs, highUs, used });
    if (!verdict.established || !(lowUs > 0)) return undefined;
    by = 'samples';
  } else {
    if (!(diffUs > gap.highUs - gap.lowUs)) return undefined;
    by = 'gap interval';
  }
  return { fasterUs, slowerUs, diffUs, gapUs: gap.diffUs, most: diffUs >= gap.diffUs / 2, by };
}

/** A measurement's per-sample database times, resampled like its latencies; undefined: too few or per run. */
function perSample(m: Measurement, seedText: string): BootstrapSide | undefined {
  if (!isServerTimeGiven(m.serverTime) || m.serverTime.figure !== 'p50') return undefined;
  const values: number[] = [];
  const clusters: number[] = [];
  let allConn = true;
  for (const s of m.samples.values) {
    if (s.serverUs === undefined) continue;
    values.push(s.serverUs);
    if (s.conn === undefined) allConn = false;
    else clusters.push(s.conn);
  }
  if (values.length < MIN_COMPARED_SAMPLES) return undefined;
  const samples: SideSamples = { values, ...(allConn ? { clusters } : {}) };
  return bootstrapSide(samples, seedText);
}

/**
 * What a busy host did to one run's own figures. Targets interleaved in one run share every moment
 * of the host, so a ranking stands however busy it was; the figures themselves do not: each sample
 * carries the time the probing thread sat runnable and not running (its run-queue wait), which is
 * latency the host added, not the database or the network.
 *
 * A figure is said to be the host's as much as the database's when its p50 without that wait falls
 * below the low end of the p50's own 95% interval (resampled as every interval of the tool is:
 * connections, then samples, in blocks as long as the run's spells): the wait moved it by more than
 * the run's own uncertainty about it. No share or factor of one machine decides it.
 */
import type { ProbeKind } from '../plan';
import type { Measurement, RunResult } from '../result';
import { BOOTSTRAP_CONFIDENCE, bootstrapSide, intervalEnds, nearestRank } from './bootstrap';
import { MIN_COMPARED_SAMPLES, onLoopback, sideSamples } from './differences';
import { percentText } from './hostEvidence';
import { shortMs } from './shortMs';

/** One sampled figure the host's CPU wait raised beyond the figure's own interval. */
export interface HostRaised {
  target: string;
  kind: ProbeKind;
  /** The measured p50 (µs) and its interval's low end. */
  p50Us: number;
  lowUs: number;
  /** The p50 of each sample less the time the host kept the probe waiting for a CPU in it. */
  withoutWaitUs: number;
  /** Share of the kind's sampled time spent waiting for a CPU (0..1). */
  waitShare: number;
}

export interface BusyHost {
  raised: HostRaised[];
  sentence: string;
}

/** The kinds whose samples carry a CPU wait, as the verdict names them. */
const KIND_WORDS: Partial<Record<ProbeKind, string>> = {
  initial: 'new connection',
  subsequent: 'warm query',
};

/** Figures named in the sentence; the rest are counted. */
const NAMED = 3;

export function busyHost(result: RunResult): BusyHost | undefined {
  const raised = result.measurements.flatMap((m) => raisedBy(m, endpointOf(result, m.target)) ?? []);
  if (raised.length === 0) return undefined;
  // The most raised first (by how many times the wait-free figure it is).
  raised.sort((a, b) => b.p50Us / Math.max(1, b.withoutWaitUs) - a.p50Us / Math.max(1, a.withoutWaitUs));
  const share = Math.max(...raised.map((r) => r.waitShare));
  const named = raised
    .slice(0, NAMED)
    .map(
      (r) =>
        `${r.target} ${KIND_WORDS[r.kind]} ${shortMs(r.withoutWaitUs)} ms (measured ${shortMs(r.p50Us)})`,
    );
  const more = raised.length > NAMED ? ` and ${raised.length - NAMED} more` : '';
  return {
    raised,
    sentence: `This machine was busy while it measured: the probe sat waiting for a CPU (up to ${percentText(share)} of a figure's sampled time), which moved figures beyond their own uncertainty. Without that wait: ${named.join(', ')}${more}. The ranking stands (the targets took turns through the same moments); for the databases' own figures, rerun on a quieter machine.`,
  };
}

function raisedBy(m: Measurement, endpoint: string | undefined): HostRaised | undefined {
  if (KIND_WORDS[m.kind] === undefined) return undefined;
  const samples = sideSamples(m, { sharedHost: onLoopback(endpoint) });
  const waits = samples.waits;
  if (!waits || samples.values.length < MIN_COMPARED_SAMPLES) return undefined;
  let waited = 0;
  let total = 0;
  const without = samples.values.map((us, i) => {
    const wait = Math.min(us, waits[i] ?? 0);
    waited += wait;
    total += us;
    return us - wait;
  });
  if (waited === 0) return undefined;
  // Seeded as the Differences table seeds this kind and target: the same run, the same interval.
  const side = bootstrapSide(samples, `${m.kind}\u0000${m.target}`);
  // A copy: the drawn side is shared with every other reader, and intervalEnds reorders in place.
  const [lowUs] = intervalEnds(Float64Array.from(side.resampled[50]), BOOTSTRAP_CONFIDENCE);
  const withoutWaitUs = median(without);
  if (!(withoutWaitUs < lowUs)) return undefined;
  return {
    target: m.target,
    kind: m.kind,
    p50Us: m.stats.p50Us,
    lowUs,
    withoutWaitUs,
    waitShare: waited / total,
  };
}

function endpointOf(result: RunResult, target: string): string | undefined {
  return result.targets.find((t) => t.name === target)?.endpoint;
}

function median(values: readonly number[]): number {
  const sorted = Float64Array.from(values).sort();
  return sorted[nearestRank(50, sorted.length) - 1] ?? 0;
}

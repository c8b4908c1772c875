/**
 * The host as evidence. Each sample carries how long the host waited for a CPU while it ran: the
 * probing thread's own run-queue wait (runnable, not running) and the host's CPU pressure (some task
 * waiting, a database on the same host included), the larger of the two. A difference whose slower
 * side's host waited measurably more, and for a larger share of its samples' time, coincides with a
 * busier host there: it may be the host's, not the targets', and the verdict says so first instead
 * of naming a winner or a change.
 *
 * "Measurably more": the interval of the slower side's mean wait per sample minus the other's,
 * from the same resamples as the latencies, lies above the clock's 1 µs resolution. "A larger share":
 * the slower side's wait over its samples' time is larger than the other's. The share, not the
 * amount: a slower target holds the CPU longer per sample (TLS, more round trips) and waits more µs
 * for it on any host, but not a larger share of its time unless the host took more from it. No
 * factor beyond that: the client's own wait is only part of what a busy host adds (the database on
 * the same host waits too, unseen), so how much of a change the wait explains cannot be read from
 * it; that the host measurably moved is what the verdict can say, and it says it first.
 */
import type { DifferenceInterval } from './bootstrap';

export interface HostEvidence {
  /** The side whose client waited more, and its share of sample time spent waiting (0..1). */
  busier: string;
  busierShare: number;
  other: string;
  otherShare: number;
  /** E.g. "HEAD's host waited for a CPU 31% of its samples' time (BASE 2%)". */
  sentence: string;
}

/** The clock's resolution: a smaller wait difference cannot be told from rounding. */
const RESOLUTION_US = 1;

/**
 * `diffUs`: b - a of the latency; `waits`: b - a of the mean wait per sample. Undefined unless the
 * slower side's client was the busier one.
 */
export function hostCoincides(
  a: { name: string; shareOf: number | undefined },
  b: { name: string; shareOf: number | undefined },
  diffUs: number,
  waits: DifferenceInterval | undefined,
): HostEvidence | undefined {
  if (!waits || a.shareOf === undefined || b.shareOf === undefined || diffUs === 0) return undefined;
  const bSlower = diffUs > 0;
  const [slower, faster] = bSlower ? [b, a] : [a, b];
  // Oriented slower - faster.
  const low = bSlower ? waits.lowUs : -waits.highUs;
  if (!(low > RESOLUTION_US)) return undefined;
  const slowerShare = slower.shareOf!;
  const fasterShare = faster.shareOf!;
  if (!(slowerShare > fasterShare)) return undefined;
  return {
    busier: slower.name,
    busierShare: slowerShare,
    other: faster.name,
    otherShare: fasterShare,
    sentence: `${slower.name}'s host waited for a CPU ${percentText(slowerShare)} of its samples' time (${faster.name} ${percentText(fasterShare)})`,
  };
}

function percentText(share: number): string {
  const percent = share * 100;
  return `${percent < 1 ? percent.toFixed(1) : Math.round(percent)}%`;
}

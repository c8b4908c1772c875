/**
 * The host as evidence, for two sides measured at different moments (two runs in `compare`, or the
 * targets of a sequential run): targets interleaved in one run shared every moment of the host, so
 * a busy spell reached both and the blocks of the bootstrap already hold it.
 *
 * Each sample carries how long the host waited for a CPU while it ran: the larger of the probing
 * thread's own run-queue wait (runnable, not running) and the host's CPU pressure (some task
 * waiting, a database on the same host included). That time is latency the host added. A difference
 * is the host's before it is the targets' when the slower side's host added at least as much to each
 * of its samples, on average, as the difference the interval establishes (from 0 to its nearer
 * end): that much of every sample could be nothing but the host, however busy the other side's was
 * (two busy runs drift apart as much as a busy and a quiet one). Microseconds against microseconds,
 * measured in the run: no share or factor of one machine decides it.
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

/**
 * `latency`: b - a of the latency with its interval; `a.waitUs` / `b.waitUs`: each side's mean host
 * wait per sample, and `shareOf` that over its mean latency. Undefined unless the slower side's host
 * added at least the established part of the difference to each sample.
 */
export function hostCoincides(
  a: { name: string; waitUs: number | undefined; shareOf: number | undefined },
  b: { name: string; waitUs: number | undefined; shareOf: number | undefined },
  latency: DifferenceInterval,
): HostEvidence | undefined {
  if (a.waitUs === undefined || b.waitUs === undefined) return undefined;
  if (!(latency.lowUs > 0 || latency.highUs < 0)) return undefined;
  const bSlower = latency.lowUs > 0;
  const [slower, faster] = bSlower ? [b, a] : [a, b];
  // The part of the difference the interval establishes: from 0 to its nearer end.
  const establishedUs = bSlower ? latency.lowUs : -latency.highUs;
  const waitUs = slower.waitUs!;
  if (!(waitUs > 0 && waitUs >= establishedUs)) return undefined;
  const slowerShare = slower.shareOf ?? 0;
  const fasterShare = faster.shareOf ?? 0;
  return {
    busier: slower.name,
    busierShare: slowerShare,
    other: faster.name,
    otherShare: fasterShare,
    sentence: `${slower.name}'s host waited for a CPU ${percentText(slowerShare)} of its samples' time, ${msText(waitUs)} ms a sample (${faster.name} ${percentText(fasterShare)})`,
  };
}

function msText(us: number): string {
  const ms = us / 1000;
  return ms >= 10 ? ms.toFixed(1) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3);
}

function percentText(share: number): string {
  const percent = share * 100;
  return `${percent < 1 ? percent.toFixed(1) : Math.round(percent)}%`;
}

/**
 * The host as evidence, for two sides measured at different moments (two runs in `compare`, or the
 * targets of a sequential run): targets interleaved in one run shared every moment of the host, so
 * a busy spell reached both and the blocks of the bootstrap already hold it.
 *
 * Each sample carries how long the host waited for a CPU while it ran: the larger of the probing
 * thread's own run-queue wait (runnable, not running) and the host's CPU pressure (some task
 * waiting, a database on the same host included). That time is latency the host added. A difference
 * is the host's before it is the targets' when either side's host added at least as much to each of
 * its samples, on average, as the difference the interval establishes (from 0 to its nearer end):
 * that much of every sample on one side could be nothing but the host, and two runs on hosts that
 * far apart are not the same conditions, whichever of them came out faster (a busy host moves more
 * than the waits it shows: caches, clock speeds, a neighbour on the core's other thread). Microseconds
 * against microseconds, measured in the run: no share or factor of one machine decides it.
 */
import type { DifferenceInterval } from './bootstrap';

export interface HostEvidence {
  /**
   * What shows the host moved: its CPU wait (the side whose client waited more, and its share of
   * sample time spent waiting, 0..1), or every target of the kind moving alike (commonMove.ts).
   */
  busier?: string;
  busierShare?: number;
  other?: string;
  otherShare?: number;
  /** E.g. "HEAD's host waited for a CPU 31% of its samples' time (BASE 2%)". */
  sentence: string;
}

/** One side as host evidence: what its host added to each sample, and from which reading. */
export interface HostSide {
  name: string;
  /** The host's part of each sample (µs): CPU wait, or a slower process's share. */
  waitUs: number | undefined;
  shareOf: number | undefined;
  /** Set when the part is a slower process: its own work between samples, against the other run's (µs). */
  process?: { ownUs: number; otherUs: number };
}

/**
 * `latency`: b - a of the latency with its interval; `a.waitUs` / `b.waitUs`: each side's mean host
 * wait per sample, and `shareOf` that over its mean latency. Undefined unless one side's host added
 * at least the established part of the difference to each of its samples.
 */
export function hostCoincides(
  a: HostSide,
  b: HostSide,
  latency: DifferenceInterval,
): HostEvidence | undefined {
  if (a.waitUs === undefined || b.waitUs === undefined) return undefined;
  if (!(latency.lowUs > 0 || latency.highUs < 0)) return undefined;
  // The part of the difference the interval establishes: from 0 to its nearer end.
  const establishedUs = latency.lowUs > 0 ? latency.lowUs : -latency.highUs;
  const [busier, other] = b.waitUs >= a.waitUs ? [b, a] : [a, b];
  const waitUs = busier.waitUs!;
  if (!(waitUs > 0 && waitUs >= establishedUs)) return undefined;
  const busierShare = busier.shareOf ?? 0;
  const otherShare = other.shareOf ?? 0;
  const process = busier.process;
  return {
    busier: busier.name,
    busierShare,
    other: other.name,
    otherShare,
    sentence: process
      ? `${busier.name}'s process ran slower: its own work between samples took ${Math.round(process.ownUs)} µs (${other.name} ${Math.round(process.otherUs)} µs), which slows a database on this machine alike, ${msText(waitUs)} ms a sample`
      : `${busier.name}'s host waited for a CPU ${percentText(busierShare)} of its samples' time, ${msText(waitUs)} ms a sample (${other.name} ${percentText(otherShare)})`,
  };
}

function msText(us: number): string {
  const ms = us / 1000;
  return ms >= 10 ? ms.toFixed(1) : ms >= 1 ? ms.toFixed(2) : ms.toFixed(3);
}

/** A share as the host sentences print it: one decimal under 1%, whole percents above. */
export function percentText(share: number): string {
  const percent = share * 100;
  return `${percent < 1 ? percent.toFixed(1) : Math.round(percent)}%`;
}

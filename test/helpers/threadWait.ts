/**
 * How long this thread waited for a CPU (Linux's run-queue wait in /proc/thread-self/schedstat) over
 * a span of a test, against the span's wall time: a crowded host's mark on a test whose verdict needs
 * the thread to have had the CPU (the client watch names a stall as the client's only where the
 * thread was on the CPU for half the stalled period at least). Undefined off Linux.
 */
import { readFileSync } from 'node:fs';

export interface ThreadMark {
  waitNs: number;
  wallNs: bigint;
}

export function markThread(): ThreadMark | undefined {
  try {
    const wait = Number(readFileSync('/proc/thread-self/schedstat', 'latin1').split(' ')[1]);
    return Number.isFinite(wait) ? { waitNs: wait, wallNs: process.hrtime.bigint() } : undefined;
  } catch {
    return undefined;
  }
}

/** The share of the wall time since `from` this thread spent waiting for a CPU (0..1). */
export function waitShareSince(from: ThreadMark | undefined): number | undefined {
  const to = markThread();
  if (!from || !to || to.wallNs <= from.wallNs) return undefined;
  return (to.waitNs - from.waitNs) / Number(to.wallNs - from.wallNs);
}

/**
 * How much CPU the host took from this VM (Linux's "steal" in /proc/stat) over a span of a test: a
 * figure printed beside timings a noisy host can move, so a miss on CI says whether the host was
 * taking the CPU at the time. Undefined where /proc/stat is not there or has no steal column.
 */
import { readFileSync } from 'node:fs';

export interface HostCpu {
  steal: number;
  total: number;
}

export function readHostCpu(): HostCpu | undefined {
  try {
    const first = readFileSync('/proc/stat', 'utf8').slice(0, 512).split('\n')[0] ?? '';
    const ticks = first.trim().split(/\s+/).slice(1, 9).map(Number);
    if (first.startsWith('cpu ') && ticks.length === 8 && ticks.every(Number.isFinite))
      return { steal: ticks[7]!, total: ticks.reduce((a, b) => a + b, 0) };
  } catch {
    // Not Linux: nothing to say.
  }
  return undefined;
}

/** Steal as a percentage of all CPU time (every core) between two readings. */
export function stealPercent(from: HostCpu | undefined, to: HostCpu | undefined): number | undefined {
  if (!from || !to || to.total <= from.total) return undefined;
  return (100 * (to.steal - from.steal)) / (to.total - from.total);
}

/**
 * What a plain loop copies from one of the tool's runs so it takes the same shape: how many warm
 * connections the run took in turn and how many samples it kept.
 */
import type { RunResult } from '../../src/shared/result';

/** How many warm samples the tool kept for `target` (the loop takes as many rounds). */
export function samplesOf(result: RunResult, target: string): number {
  const m = result.measurements.find((x) => x.kind === 'subsequent' && x.target === target);
  return m?.samples?.values.length ?? 0;
}

/** How many warm connections the tool took in turn: the distinct `conn` of its samples. */
export function connectionsOf(result: RunResult): number {
  const seen = new Set<number>();
  for (const m of result.measurements)
    for (const sample of m.samples?.values ?? []) if (sample.conn !== undefined) seen.add(sample.conn);
  return Math.max(1, seen.size);
}

/**
 * Round trips derived from an injected delay, decided only as far as the run's own noise allows: the
 * paired p50 of slow minus plain over the delay, with its interval. A run whose interval cannot tell
 * one turn from the next is probed again with more samples (ITERATION_STEPS): a quiet host decides on
 * the first, a crowded one (other probes, a browser, a CPU hog) takes more samples, not a margin.
 */
import assert from 'node:assert/strict';
import type { Measurement, RunResult } from '../../src/shared/result';
import { pairedP50, pairedP50Interval } from './pairedP50';

export const ITERATION_STEPS = [5, 20, 60] as const;

export interface DerivedTurns {
  derived: number;
  low: number;
  high: number;
  /** "derived 4 (p50 of slow - plain 201234 µs, 95% ... µs, / 50 ms, n=5)". */
  text: string;
}

export function derivedTurns(slow: Measurement, plain: Measurement, delayMs: number): DerivedTurns {
  const turns = (us: number) => Math.round(us / (delayMs * 1000));
  const added = pairedP50(slow, plain);
  const [lowUs, highUs] = pairedP50Interval(slow, plain);
  return {
    derived: turns(added),
    low: turns(lowUs),
    high: turns(highUs),
    text: `derived ${turns(added)} (p50 of slow - plain ${added} µs, 95% ${lowUs} to ${highUs} µs, / ${delayMs} ms; n=${slow.stats.count})`,
  };
}

/**
 * Probes with the first step's samples, then more while any pair's interval leaves a turn open;
 * `pairs` names the slow and plain measurements each run is judged on.
 */
export async function probeUntilTurnsDecided(
  probe: (iterations: number) => Promise<RunResult>,
  pairs: (result: RunResult) => [Measurement, Measurement][],
  delayMs: number,
  label: string,
): Promise<RunResult> {
  let result = await probe(ITERATION_STEPS[0]);
  for (const iterations of ITERATION_STEPS.slice(1)) {
    const open = pairs(result).some(([slow, plain]) => {
      const d = derivedTurns(slow, plain, delayMs);
      return d.low !== d.high;
    });
    if (!open) break;
    console.log(`${label}: the host's noise left a turn undecided; ${iterations} samples`);
    result = await probe(iterations);
  }
  return result;
}

/**
 * The count decided where the interval resolves a turn; where even the most samples left it wider,
 * the count must lie within what the delay can tell.
 */
export function assertTurns(counted: number | undefined, d: DerivedTurns, text: string): void {
  if (d.low === d.high) assert.equal(counted, d.derived, text);
  else assert.ok(counted !== undefined && d.low <= counted && counted <= d.high, text);
}

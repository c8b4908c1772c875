/**
 * The allowance a timing test takes from its own run: the 95% bootstrap interval of a difference of
 * p50s between two sets of samples measured side by side (the product's own comparison rule:
 * src/shared/bootstrap.ts, DESIGN rule 11). A test states its claim as a band (e.g. "the delayed
 * path adds 20.0 to 21.5 ms") and fails only where the whole interval lies outside it: where the
 * run's own samples establish the miss. On a quiet host the interval is a few tens of µs wide and
 * the band decides; on a loaded one (another engineer's build on the same two cores, a slower host
 * type) it widens by what the load did to these very samples, never by a constant taken from one
 * host's figures. A real defect (a round trip more, a phase counted in its neighbour) moves the
 * difference by whole injected delays, far outside any interval a run of tens of samples gives.
 */
import { bootstrapSide, differenceInterval } from '../../src/shared/judgement/bootstrap';
import type { Measurement, SampleRecord, SampleSuccess } from '../../src/shared/result';

export interface NoiseInterval {
  /** The difference of the two sides' p50s (nearest rank over the samples), µs. */
  pointUs: number;
  /** The 95% bootstrap interval's ends, µs. */
  lowUs: number;
  highUs: number;
}

/**
 * The interval of p50(b) - p50(a). `seed` names the comparison (the bootstrap is seeded from it, so
 * the same samples always give the same interval); samples must be in the order they were taken.
 */
export function p50Difference(a: readonly number[], b: readonly number[], seed: string): NoiseInterval {
  if (a.length === 0 || b.length === 0) throw new Error(`${seed}: no samples on one side`);
  const d = differenceInterval(bootstrapSide(a, `${seed}\u0000a`), bootstrapSide(b, `${seed}\u0000b`), 50);
  return { pointUs: d.diffUs, lowUs: d.lowUs, highUs: d.highUs };
}

/** The interval of p50(b's part) - p50(a's part) over two measurements' successful samples. */
export function p50PartDifference(
  a: Measurement,
  b: Measurement,
  part: (s: SampleSuccess) => number | undefined,
  seed: string,
): NoiseInterval {
  return p50Difference(partValues(a, part), partValues(b, part), seed);
}

function partValues(m: Measurement, part: (s: SampleSuccess) => number | undefined): number[] {
  const values = m.samples.values
    .filter((s: SampleRecord): s is SampleSuccess => s.us !== undefined)
    .map(part)
    .filter((v): v is number => v !== undefined && Number.isFinite(v));
  if (values.length === 0) throw new Error(`${m.target} ${m.kind}: no sample carries the part compared`);
  return values;
}

/** The interval times `factor` (e.g. 1 / the injected delay: a difference in round trips). */
export function scaleInterval(i: NoiseInterval, factor: number): NoiseInterval {
  const ends = [i.lowUs * factor, i.highUs * factor].sort((x, y) => x - y);
  return { pointUs: i.pointUs * factor, lowUs: ends[0]!, highUs: ends[1]! };
}

/** True where the run's samples establish a value outside [low, high]: the whole interval is out. */
export function outsideBand(i: NoiseInterval, low: number, high: number): boolean {
  return i.highUs < low || i.lowUs > high;
}

/** "20.491 ms [20.301, 20.688]": a figure with its interval, for a test's log line and message. */
export function formatInterval(i: NoiseInterval, unit: 'ms' | 'µs' | 'trips' = 'ms'): string {
  const f = (v: number) =>
    unit === 'ms' ? (v / 1000).toFixed(3) : unit === 'µs' ? v.toFixed(0) : v.toFixed(2);
  return `${f(i.pointUs)} [${f(i.lowUs)}, ${f(i.highUs)}]${unit === 'trips' ? '' : ` ${unit}`}`;
}

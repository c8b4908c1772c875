/**
 * Medians over a bench's runs and their 95% intervals (2,000 seeded resamples each). Runs come in
 * processes: runs in one process share its JIT state, which moves a microsecond figure between
 * processes by more than between runs in one, so the resamples draw processes first, then runs
 * within them (a process of one run each is the plain bootstrap).
 */
import { intervalEnds, mulberry32, seedFromText } from '../../src/shared/judgement/bootstrap';

const RESAMPLES = 2_000;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)]!;
}

/** `n` values drawn from `from` with replacement. */
function drawn<T>(from: readonly T[], n: number, random: () => number): T[] {
  return Array.from({ length: n }, () => pick(from, random));
}

/** One value drawn from `from`. */
function pick<T>(from: readonly T[], random: () => number): T {
  return from[Math.floor(random() * from.length)]!;
}

/** One resample's median of `xs`, drawn with replacement. */
function resampledMedian(xs: readonly number[], random: () => number): number {
  return median(drawn(xs, xs.length, random));
}

/** median(a) - median(b) and its 95% bootstrap interval, each side resampled on its own. */
export function differenceOfMedians(
  a: readonly number[],
  b: readonly number[],
  seedText: string,
): { value: number; low: number; high: number } {
  const random = mulberry32(seedFromText(seedText));
  const diffs = Float64Array.from(
    { length: RESAMPLES },
    () => resampledMedian(a, random) - resampledMedian(b, random),
  );
  const [low, high] = intervalEnds(diffs);
  return { value: median(a) - median(b), low, high };
}

/**
 * The median of every run in `processes` and its 95% prediction interval for the median of `count`
 * more runs of the same kind: each resample draws as many processes as there are from them (where
 * the runs' own median could lie), then `count` runs, each from a process drawn among those and a
 * run drawn within it (how a median of `count` runs spreads around it).
 */
export function medianPrediction(
  processes: readonly (readonly number[])[],
  count: number,
  seedText: string,
): { value: number; low: number; high: number } {
  const random = mulberry32(seedFromText(seedText));
  const [low, high] = intervalEnds(
    Float64Array.from({ length: RESAMPLES }, () => {
      const set = drawn(processes, processes.length, random);
      return median(Array.from({ length: count }, () => pick(pick(set, random), random)));
    }),
  );
  return { value: median(processes.flat()), low, high };
}

/** The median of every run in `processes` and its 95% interval: processes resampled, then runs within each. */
export function clusteredMedian(
  processes: readonly (readonly number[])[],
  seedText: string,
): { value: number; low: number; high: number } {
  const random = mulberry32(seedFromText(seedText));
  const [low, high] = intervalEnds(
    Float64Array.from({ length: RESAMPLES }, () =>
      median(drawn(processes, processes.length, random).flatMap((runs) => drawn(runs, runs.length, random))),
    ),
  );
  return { value: median(processes.flat()), low, high };
}

/**
 * How many samples a tail percentile needs before it is a figure: a p99 from 50 samples is the
 * largest sample under another name, and a p99.9 from 200 is the maximum. Below these counts every
 * view shows a dash with "n too small", the JSON flags the statistic, and a threshold on it is refused.
 */
import type { LatencyStats } from './result';

/** The tail statistics that need a count, and the count each needs (1 / (1 - p)). */
export const MIN_SAMPLES_FOR = { p99Us: 100, p999Us: 1_000 } as const;
export type TailStat = keyof typeof MIN_SAMPLES_FOR;

export const N_TOO_SMALL = 'n too small';

/** The footnote a table prints under a dash. */
export const N_TOO_SMALL_NOTE =
  'n too small: a p99 needs at least 100 successful samples and a p99.9 at least 1,000; with fewer it is the largest samples under another name, so it is not shown.';

/** The tail statistics `count` samples cannot support, in order (empty when all are supported). */
export function tooFewFor(count: number): TailStat[] {
  return (Object.keys(MIN_SAMPLES_FOR) as TailStat[]).filter((key) => count < MIN_SAMPLES_FOR[key]);
}

/** True when the statistic is a figure worth showing for this count. */
export function supports(count: number, key: keyof LatencyStats): boolean {
  return !(key in MIN_SAMPLES_FOR) || count >= MIN_SAMPLES_FOR[key as TailStat];
}

/** Why a statistic is withheld: "n too small: p99 needs 100 samples, 50 were taken". */
export function tooFewReason(count: number, key: TailStat): string {
  const name = key === 'p99Us' ? 'p99' : 'p99.9';
  return `${N_TOO_SMALL}: a ${name} needs at least ${MIN_SAMPLES_FOR[key].toLocaleString('en-US')} successful samples, this one has ${count}`;
}

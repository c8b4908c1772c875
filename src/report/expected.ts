/**
 * "Expected latency for N sequential queries" (the reference blog's table): the first query pays the
 * initial cost, every later one the subsequent cost. Built from p50 so one slow outlier does not
 * decide it; the figures say which statistic they use.
 */
import type { RunResult } from '../shared/result';

export interface ExpectedRow {
  target: string;
  initialUs: number;
  subsequentUs: number;
  /** totalsUs[k-1] = expected wait for k queries on one new connection. */
  totalsUs: number[];
}

export function expectedLatency(result: RunResult, maxQueries: number): ExpectedRow[] {
  const rows: ExpectedRow[] = [];
  for (const target of result.targets) {
    const initial = result.measurements.find((m) => m.target === target.name && m.kind === 'initial');
    const subsequent = result.measurements.find((m) => m.target === target.name && m.kind === 'subsequent');
    if (!initial || !subsequent || initial.stats.count === 0 || subsequent.stats.count === 0) continue;
    const initialUs = initial.stats.p50Us;
    const subsequentUs = subsequent.stats.p50Us;
    const totalsUs = Array.from({ length: maxQueries }, (_, k) => initialUs + k * subsequentUs);
    rows.push({ target: target.name, initialUs, subsequentUs, totalsUs });
  }
  return rows;
}

/**
 * The smallest query count from which `a` is faster than `b` in total, when `a` starts slower but
 * queries faster (TCP vs HTTP). Undefined when that never happens within `maxQueries`.
 */
export function crossover(a: ExpectedRow, b: ExpectedRow): number | undefined {
  const index = a.totalsUs.findIndex((total, k) => total < (b.totalsUs[k] ?? Infinity));
  return index === -1 || index === 0 ? undefined : index + 1;
}

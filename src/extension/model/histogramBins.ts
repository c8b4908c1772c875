/**
 * Latency distribution buckets for the panel's histogram. Log-spaced, because latencies span orders
 * of magnitude (a 0.2 ms cache hit and a 40 ms TLS handshake in one run) and linear bins would crush
 * the fast ones into a single bar.
 */

export interface Bins {
  edgesUs: number[];
  counts: number[];
}

export function logBins(valuesUs: readonly number[], maxBins = 30): Bins {
  const values = valuesUs.filter((v) => Number.isFinite(v) && v >= 0);
  if (values.length === 0) return { edgesUs: [], counts: [] };
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const low = Math.max(1, min);
  const high = Math.max(low + 1, max + 1);
  const bins = Math.max(1, Math.min(maxBins, Math.ceil(Math.sqrt(values.length)) + 1));
  const ratio = Math.pow(high / low, 1 / bins);
  const edgesUs = Array.from({ length: bins + 1 }, (_, i) => Math.round(low * Math.pow(ratio, i)));
  edgesUs[0] = Math.min(edgesUs[0] ?? low, min);
  edgesUs[bins] = high;
  const counts = new Array<number>(bins).fill(0);
  for (const v of values) {
    const index = Math.min(
      bins - 1,
      Math.max(0, Math.floor(Math.log(Math.max(v, low) / low) / Math.log(ratio))),
    );
    counts[index] = (counts[index] ?? 0) + 1;
  }
  return { edgesUs, counts };
}

/**
 * The latency figures every part of a result carries: the statistics of one set of samples and the
 * encoded histogram they came from. Their own file because result.ts and loadResult.ts both use them
 * (result.ts re-exports them, so importers keep reading them from there).
 */
export interface LatencyStats {
  /** Successful samples (the ones with a latency). */
  count: number;
  errors: number;
  /** errors / (count + errors); 0 when nothing ran. */
  errorRate: number;
  minUs: number;
  meanUs: number;
  stddevUs: number;
  p50Us: number;
  p90Us: number;
  p95Us: number;
  p99Us: number;
  p999Us: number;
  maxUs: number;
  /**
   * Tail percentiles the count cannot support (p99 below 100 samples, p99.9 below 1,000: see
   * percentileSupport.ts). Their figures stay for machines; views show "n too small" instead.
   */
  nTooSmall?: ('p99Us' | 'p999Us')[];
}

/** Enough to merge results from several runs or runners exactly. */
export interface EncodedHistogram {
  encoding: 'hdr-compressed-base64';
  lowestUs: number;
  highestUs: number;
  significantDigits: number;
  data: string;
  /** Exact moments (Welford) so merged mean and stddev do not depend on bucket rounding. */
  moments: { count: number; mean: number; m2: number; min: number; max: number };
}

/**
 * HDR histogram settings and the exact-moment accumulator, shared by recording and merging.
 * 4 significant digits: exact to the microsecond below 32.768 ms; above, never below the exact value
 * and at most 1/16,384 (0.006%) above it, at any spread (1 µs to an hour;
 * test/unit/histogram-accuracy.test.ts checks it against sorted arrays).
 */
import * as hdr from 'hdr-histogram-js';
import type { EncodedHistogram } from '../shared/result';
import { PAGE_SIZE, PagedHistogram } from './pagedHistogram';

export const HISTOGRAM_BOUNDS = {
  lowestUs: 1,
  /** One hour: anything slower is a timeout, not a latency. */
  highestUs: 3_600_000_000,
  significantDigits: 4,
} as const;

/**
 * The largest relative distance between a reported percentile and the exact one: a value is
 * reported as the top of its bucket, and a bucket spans at most 1/16,384 of its values (2^-14 for
 * 4 digits); below 32,768 µs buckets are 1 µs wide, so values there are exact.
 */
export const HISTOGRAM_RELATIVE_PRECISION = 1 / 16_384;

export type Histogram = hdr.Histogram;

export function newHistogram(): PagedHistogram {
  // Not hdr-histogram-js's 'packed' storage: it loses counts on wide spreads (see pagedHistogram.ts).
  return new PagedHistogram(
    HISTOGRAM_BOUNDS.lowestUs,
    HISTOGRAM_BOUNDS.highestUs,
    HISTOGRAM_BOUNDS.significantDigits,
  );
}

/** The parts of hdr-histogram-js's JsHistogram that a one-pass percentile scan needs. */
interface CountsScan {
  countsArrayLength: number;
  minNonZeroValue: number;
  totalCount: number;
  countsArrayIndex(value: number): number;
  getCountAtIndex(index: number): number;
  valueFromIndex(index: number): number;
  highestEquivalentValue(value: number): number;
}

function isCountsScan(histogram: unknown): histogram is CountsScan {
  const h = histogram as Partial<CountsScan>;
  return typeof h.countsArrayIndex === 'function' && typeof h.getCountAtIndex === 'function';
}

/**
 * The values at several percentiles (ascending), exactly as getValueAtPercentile gives them, in one
 * scan that starts at the lowest recorded value. getValueAtPercentile scans the whole counts array
 * from zero for every call; with an hour-wide, 4-digit histogram that is ~0.5 M packed slots a call,
 * about 50 ms each, which made the end of a run with a few targets take seconds.
 */
export function valuesAtPercentiles(histogram: Histogram, percentiles: readonly number[]): number[] {
  if (!isCountsScan(histogram)) return percentiles.map((p) => histogram.getValueAtPercentile(p));
  const h = histogram;
  const targets = percentiles.map((p) => countAtPercentile(Math.min(p, 100), h.totalCount));
  const values: number[] = [];
  let next = 0;
  let total = 0;
  const first = h.minNonZeroValue > 0 ? h.countsArrayIndex(h.minNonZeroValue) : 0;
  const skip = histogram instanceof PagedHistogram ? histogram : undefined;
  for (let i = Math.max(0, first); i < h.countsArrayLength && next < targets.length; i++) {
    // Pages with no counts are skipped whole: an hour-wide scan is ~300 page checks, not ~311 k slots.
    if (skip && i % PAGE_SIZE === 0) {
      i = skip.nextUsedIndex(i);
      if (i >= h.countsArrayLength) break;
    }
    total += h.getCountAtIndex(i);
    while (next < targets.length && total >= (targets[next] ?? Infinity)) {
      values.push(h.highestEquivalentValue(h.valueFromIndex(i)));
      next++;
    }
  }
  while (values.length < percentiles.length) values.push(0);
  return values;
}

/** hdr-histogram-js's own rounding of a percentile to a count (see JsHistogram.getValueAtPercentile). */
function countAtPercentile(percentile: number, totalCount: number): number {
  const fp = (percentile / 100) * totalCount;
  const ulp = fp > 0 ? Math.pow(2, Math.floor(Math.log2(fp)) - 52) : 0;
  return Math.max(Math.ceil(fp - ulp), 1);
}

/** Welford moments: exact mean and variance, mergeable (Chan et al.). */
export interface Moments {
  count: number;
  mean: number;
  m2: number;
  min: number;
  max: number;
}

export function emptyMoments(): Moments {
  return { count: 0, mean: 0, m2: 0, min: 0, max: 0 };
}

export function addToMoments(m: Moments, value: number): void {
  m.count += 1;
  const delta = value - m.mean;
  m.mean += delta / m.count;
  m.m2 += delta * (value - m.mean);
  m.min = m.count === 1 ? value : Math.min(m.min, value);
  m.max = m.count === 1 ? value : Math.max(m.max, value);
}

export function mergeMoments(a: Moments, b: Moments): Moments {
  if (a.count === 0) return { ...b };
  if (b.count === 0) return { ...a };
  const count = a.count + b.count;
  const delta = b.mean - a.mean;
  return {
    count,
    mean: a.mean + (delta * b.count) / count,
    m2: a.m2 + b.m2 + (delta * delta * a.count * b.count) / count,
    min: Math.min(a.min, b.min),
    max: Math.max(a.max, b.max),
  };
}

export function encodeHistogram(histogram: Histogram, moments: Moments): EncodedHistogram {
  return {
    encoding: 'hdr-compressed-base64',
    lowestUs: HISTOGRAM_BOUNDS.lowestUs,
    highestUs: HISTOGRAM_BOUNDS.highestUs,
    significantDigits: HISTOGRAM_BOUNDS.significantDigits,
    data: hdr.encodeIntoCompressedBase64(histogram),
    moments: { ...moments },
  };
}

/**
 * Decodes any saved histogram, including those recorded with the old packed storage (the encoding
 * is the same V2 format whatever the storage; what those lost before encoding stays lost).
 */
export function decodeHistogram(encoded: EncodedHistogram): PagedHistogram {
  // 32-bit storage for the moment of decoding only (a full-width array, freed right after): the
  // library decodes into its own classes. Copied into our standard shape so merges line up.
  const decoded = hdr.decodeFromCompressedBase64(encoded.data, 32, false);
  if (!(decoded instanceof hdr.JsHistogram))
    throw new Error('hdr-histogram-js decoded into an unexpected class');
  const histogram = newHistogram();
  histogram.add(decoded);
  return histogram;
}

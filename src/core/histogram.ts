/**
 * HDR histogram settings and the exact-moment accumulator, shared by recording and merging.
 * 4 significant digits: exact to the microsecond below 32.768 ms, within 0.01% above.
 */
import * as hdr from 'hdr-histogram-js';
import type { EncodedHistogram } from '../shared/result';

export const HISTOGRAM_BOUNDS = {
  lowestUs: 1,
  /** One hour: anything slower is a timeout, not a latency. */
  highestUs: 3_600_000_000,
  significantDigits: 4,
} as const;

export type Histogram = hdr.Histogram;

export function newHistogram(): Histogram {
  return hdr.build({
    lowestDiscernibleValue: HISTOGRAM_BOUNDS.lowestUs,
    highestTrackableValue: HISTOGRAM_BOUNDS.highestUs,
    numberOfSignificantValueDigits: HISTOGRAM_BOUNDS.significantDigits,
    // Packed storage grows with the values seen, so idle targets cost almost nothing.
    bitBucketSize: 'packed',
    useWebAssembly: false,
  });
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

export function decodeHistogram(encoded: EncodedHistogram): Histogram {
  const decoded = hdr.decodeFromCompressedBase64(encoded.data, 'packed', false);
  // Decoding keeps the encoded bounds; copy into our standard shape so merges line up.
  const histogram = newHistogram();
  histogram.add(decoded);
  return histogram;
}

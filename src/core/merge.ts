/** Exact merge of measurements from several runs or runners of the same plan. */
import type { EncodedHistogram, LatencyStats } from '../shared/result';
import { decodeHistogram, encodeHistogram, mergeMoments, newHistogram, type Moments } from './histogram';
import { summarize } from './stats';

export interface MergeInput {
  histogram: EncodedHistogram;
  errors: number;
}

export function mergeHistograms(inputs: MergeInput[]): { histogram: EncodedHistogram; stats: LatencyStats } {
  const merged = newHistogram();
  let moments: Moments = { count: 0, mean: 0, m2: 0, min: 0, max: 0 };
  let errors = 0;
  for (const input of inputs) {
    merged.add(decodeHistogram(input.histogram));
    moments = mergeMoments(moments, input.histogram.moments);
    errors += input.errors;
  }
  return { histogram: encodeHistogram(merged, moments), stats: summarize(merged, moments, errors) };
}

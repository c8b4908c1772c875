/**
 * The latency figures every part of a result carries: the statistics of one set of samples and the
 * encoded histogram they came from. Defined once in schema/statsSchema.ts; here (and re-exported by
 * result.ts) for the importers that read them from where they always have.
 */
export type { EncodedHistogram, LatencyStats } from './schema/statsSchema';

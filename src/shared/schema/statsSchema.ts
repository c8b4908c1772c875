/**
 * The figures every part of a result is made of, defined once: a latency, the statistics of one set
 * of samples, the encoded histogram they came from, a failure. Their own file because the result and
 * the load figures both use them (latencyStats.ts and errors.ts re-export the types).
 */
import * as z from 'zod/mini';
import { short } from './fieldRules';
import { ERROR_CLASSES } from './resultValues';

/** One hour in µs: the histogram's top (core/histogram.ts); anything slower is a timeout, not a latency. */
export const HOUR_US = 3_600_000_000;
/** Past these a file is not a run this tool wrote: counts, texts, a sample's start (runs last a day). */
const MAX_COUNT = 1e12;
const MAX_TEXT = 10_000;
export const MAX_AT_US = 86_400_000_000;

const latencyText = (issue: { input?: unknown }) =>
  `must be a latency in µs from 0 to ${HOUR_US} (an hour; got ${short(issue.input)})`;

/** A latency in µs: what every figure a comparison forms is made of. */
export function latencyUs() {
  const error = latencyText;
  return z.number({ error }).check(z.gte(0, { error }), z.lte(HOUR_US, { error }));
}

/** A latency as a sample records it: whole µs (the clock's unit). */
export function wholeUs() {
  const error = latencyText;
  return z
    .number({ error })
    .check(
      z.refine(Number.isInteger, { error }),
      z.gte(0, { error }),
      z.lte(HOUR_US, { error }),
      z.meta({ type: 'integer' }),
    );
}

/** µs from the run's start to a sample's. */
export function atUs() {
  const error = (issue: { input?: unknown }) =>
    `must be µs from the run's start, 0 to ${MAX_AT_US} (got ${short(issue.input)})`;
  return z.number({ error }).check(z.gte(0, { error }), z.lte(MAX_AT_US, { error }));
}

/** A duration in µs that is not a latency (a run, a level). */
export const spanUs = () => z.number().check(z.gte(0));

/** How many of something: a whole number from 0. */
export function count(min = 0) {
  const error = (issue: { input?: unknown }) =>
    `must be a whole number from ${min} to ${MAX_COUNT} (got ${short(issue.input)})`;
  return z
    .number({ error })
    .check(
      z.refine(Number.isInteger, { error }),
      z.gte(min, { error }),
      z.lte(MAX_COUNT, { error }),
      z.meta({ type: 'integer' }),
    );
}

/** A share from 0 to 1 (an error rate, a wait share). */
export const share = () => z.number().check(z.gte(0), z.lte(1));
/** A rate, a throughput, a CPU percentage: a number from 0. */
export const amount = () => z.number().check(z.gte(0));
/** Text a person reads: bounded, so a file that is not a result cannot bury its problem. */
export const text = () => z.string().check(z.maxLength(MAX_TEXT));

export const errorClass = () => z.enum(ERROR_CLASSES);

/** A failure as it may leave the engine: the message is already redacted. */
export const failureSchema = z.strictObject({ class: errorClass(), message: text(), hint: text() });

export const latencyStatsSchema = z.strictObject({
  /** Successful samples (the ones with a latency). */
  count: count(),
  errors: count(),
  /** errors / (count + errors); 0 when nothing ran. */
  errorRate: share(),
  minUs: latencyUs(),
  meanUs: latencyUs(),
  stddevUs: latencyUs(),
  p50Us: latencyUs(),
  p90Us: latencyUs(),
  p95Us: latencyUs(),
  p99Us: latencyUs(),
  p999Us: latencyUs(),
  maxUs: latencyUs(),
  /**
   * Tail percentiles the count cannot support (p99 below 100 samples, p99.9 below 1,000: see
   * percentileSupport.ts). Their figures stay for machines; views show "n too small" instead.
   */
  nTooSmall: z.optional(z.array(z.enum(['p99Us', 'p999Us']))),
});

/** Enough to merge results from several runs or runners exactly. */
export const histogramSchema = z.strictObject({
  encoding: z.literal('hdr-compressed-base64'),
  lowestUs: count(1),
  highestUs: count(2),
  significantDigits: z.number().check(z.int(), z.gte(1), z.lte(5)),
  data: z.string().check(z.meta({ contentEncoding: 'base64' })),
  /** Exact moments (Welford) so merged mean and stddev do not depend on bucket rounding. */
  moments: z.strictObject({
    count: count(),
    mean: z.number(),
    m2: z.number(),
    min: z.number(),
    max: z.number(),
  }),
});

/** Figures that may be negative (a cold start hidden by a slow hot connect), so no histogram. */
export const signedStatsSchema = z.strictObject({
  count: count(),
  minUs: z.number(),
  meanUs: z.number(),
  stddevUs: z.number(),
  p50Us: z.number(),
  p99Us: z.number(),
  maxUs: z.number(),
});

export type ProbeFailure = z.output<typeof failureSchema>;
export type LatencyStats = z.output<typeof latencyStatsSchema>;
export type EncodedHistogram = z.output<typeof histogramSchema>;
export type SignedStats = z.output<typeof signedStatsSchema>;

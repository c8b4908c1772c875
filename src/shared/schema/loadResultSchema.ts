/**
 * What the `load` and `schedule` kinds add to a measurement, defined once (loadResult.ts re-exports
 * the types; loadSchema.ts has their settings).
 */
import * as z from 'zod/mini';
import { LATENCY_STATS, LOAD_MODELS, SCHEDULE_CONNECTIONS } from './planValues';
import {
  amount,
  count,
  histogramSchema,
  latencyStatsSchema,
  latencyUs,
  share,
  spanUs,
  text,
} from './statsSchema';

/** How well a fixed-rate schedule kept its start times. */
export const startFiguresSchema = z.strictObject({
  /** Starts the schedule asked for. */
  asked: count(),
  /** Starts that happened (a query or request was issued). */
  started: count(),
  /** Starts issued more than `lateAfterUs` after their intended time. */
  late: count(),
  lateAfterUs: spanUs(),
  /** Starts never issued: every connection busy and the waiting line full, or the level ended first. */
  dropped: count(),
  askedRate: amount(),
  achievedRate: amount(),
  /** How late starts were issued (from the intended time), p50/p99/max in µs. */
  latenessP50Us: spanUs(),
  latenessP99Us: spanUs(),
  latenessMaxUs: spanUs(),
  /** Fan-out (and threads) only: the lateness histogram, so places merge their start figures exactly. */
  latenessHistogram: z.optional(histogramSchema),
});

export const loadLevelFiguresSchema = z.strictObject({
  /** Connections (closed model) or asked arrivals per second (open model). */
  level: amount(),
  /** How long the level ran: from its clock start to its last answer, or to the cut when `cut`. */
  durationUs: spanUs(),
  /**
   * Set when the level ended before its asked duration (Ctrl-C, a cancel, the run's time limit, a
   * target that cannot succeed): its rates are over `durationUs`, and it is never judged to have
   * kept up; only what its samples show by themselves (error rate, latency) can say it did not.
   */
  cut: z.optional(z.literal(true)),
  /**
   * A fan-out's (or threads') share only: this share had no connection and no arrival in the level,
   * so it sat the level out (no figures, no client verdict). Merges leave it out.
   */
  idle: z.optional(z.literal(true)),
  /** Successful queries per second, over the time the level ran. */
  throughput: amount(),
  /** Service time: from the moment the query was issued to its answer. */
  stats: latencyStatsSchema,
  /** Open model only: from the query's intended start (coordinated omission corrected). */
  corrected: z.optional(latencyStatsSchema),
  starts: z.optional(startFiguresSchema),
  /** Why this level did not keep up (error rate, latency or rate), when it did not. */
  tripped: z.optional(text()),
  /** The client's CPU during the level, % of one core (the process's, or the probe thread's). */
  clientCpuPercent: z.optional(amount()),
  /** Set when the client was the limit at this level: "client-limited: one thread at 99% CPU". */
  clientLimited: z.optional(text()),
  /** Fan-out only: how late this place started the level after the common start (ms). */
  startLagMs: z.optional(amount()),
  /** Fan-out only: the level's histograms, so places merge exactly. */
  histogram: z.optional(histogramSchema),
  correctedHistogram: z.optional(histogramSchema),
});

/** One place's part of a fanned-out level (or schedule). */
export const fanOutPlaceLevelSchema = z.strictObject({
  /** This place's share: connections (closed), arrivals/s (open) or requests/s (schedule). */
  share: amount(),
  /** This share had no connection and no arrival: it sat the level out. */
  idle: z.optional(z.literal(true)),
  /** This place's part of the level was cut short (see LoadLevelFigures.cut). */
  cut: z.optional(z.literal(true)),
  throughput: amount(),
  count: count(),
  errors: count(),
  p50Us: latencyUs(),
  p99Us: latencyUs(),
  /** Fixed-rate levels: achieved start rate, late and dropped starts. */
  achievedRate: z.optional(amount()),
  late: z.optional(count()),
  dropped: z.optional(count()),
  startLagMs: z.optional(amount()),
});

export const fanOutPlaceFiguresSchema = z.strictObject({
  /** Where: "this machine", or the runner's label. */
  label: text(),
  /** One entry per level (one for a schedule); absent levels were not reached (cancel, failure). */
  levels: z.array(fanOutPlaceLevelSchema),
  /** Why this place's part is missing or short (the place failed), redacted. */
  failure: z.optional(text()),
});

export const fanOutFiguresSchema = z.strictObject({
  /** What was split among the places. */
  split: z.enum(['connections', 'rate']),
  /** What the parts were: places (runners, this machine) or one place's probing threads (`--threads`). */
  parts: z.optional(z.enum(['places', 'threads'])),
  /** In words, e.g. "arrivals per second split evenly over 3 places; levels start together". */
  note: text(),
  /** The first level's common start, ISO 8601. */
  startAt: text(),
  places: z.array(fanOutPlaceFiguresSchema),
});

export const loadFiguresSchema = z.strictObject({
  model: z.enum(LOAD_MODELS),
  /** Open model: the driver connections the arrivals shared. */
  connections: z.optional(count(1)),
  durationS: amount(),
  maxErrorRate: share(),
  maxLatencyMs: z.optional(amount()),
  latencyStat: z.enum(LATENCY_STATS),
  levels: z.array(loadLevelFiguresSchema),
  /** The first level that tripped a threshold: where the target stops keeping up. */
  knee: z.optional(z.strictObject({ level: z.number(), reason: text() })),
  /**
   * Open model: the service time (issue to answer) of every query of every level. The measurement's
   * own `stats` are then the corrected figures (from each query's intended start): the headline.
   */
  service: z.optional(latencyStatsSchema),
  /** The level from which throughput stopped growing while the client was saturated: the client's ceiling. */
  clientCeiling: z.optional(z.number()),
  /** A merged fan-out result: how each level was split and what each place measured. */
  fanOut: z.optional(fanOutFiguresSchema),
});

/** `initial + (K-1) x subsequent` against the measured per-request totals, for one statistic. */
export const scheduleModelFiguresSchema = z.strictObject({
  statistic: z.enum(['p50', 'mean']),
  initialUs: spanUs(),
  subsequentUs: spanUs(),
  predictedUs: spanUs(),
  measuredUs: spanUs(),
  /** measured - predicted. */
  differenceUs: z.number(),
  /** difference / predicted (0 when nothing was predicted). */
  differenceRate: z.number(),
});

export const scheduleFiguresSchema = z.strictObject({
  rate: amount(),
  queries: count(1),
  /** The asked duration. */
  durationS: amount(),
  /** How long it ran: from its first intended start to its last answer, or to the cut when `cut`. */
  durationUs: z.optional(spanUs()),
  /** Set when a cancel (or the run's time limit) ended the schedule before its last start. */
  cut: z.optional(z.literal(true)),
  connection: z.enum(SCHEDULE_CONNECTIONS),
  starts: startFiguresSchema,
  /** positions[0] is query 1 (with the connect when `connection` is `new`), then 2..K. */
  positions: z.array(latencyStatsSchema),
  /**
   * Whole requests: from the request's intended start to its last answer (coordinated omission
   * corrected, as the measurement's `stats`).
   */
  totals: latencyStatsSchema,
  /** Whole requests from when each was issued to its last answer: the service time. */
  serviceTotals: z.optional(latencyStatsSchema),
  /** Absent when no request completed. */
  model: z.optional(
    z.strictObject({ p50: scheduleModelFiguresSchema, mean: scheduleModelFiguresSchema, note: text() }),
  ),
  /** Fan-out only: how late this place started after the common start (ms). */
  startLagMs: z.optional(amount()),
  /** Fan-out only: histograms of each position and of the totals, so places merge exactly. */
  positionHistograms: z.optional(z.array(histogramSchema)),
  totalsHistogram: z.optional(histogramSchema),
  /** A merged fan-out result: how the rate was split and what each place measured. */
  fanOut: z.optional(fanOutFiguresSchema),
});

export type StartFigures = z.output<typeof startFiguresSchema>;
export type LoadLevelFigures = z.output<typeof loadLevelFiguresSchema>;
export type FanOutPlaceLevel = z.output<typeof fanOutPlaceLevelSchema>;
export type FanOutPlaceFigures = z.output<typeof fanOutPlaceFiguresSchema>;
export type FanOutFigures = z.output<typeof fanOutFiguresSchema>;
export type LoadFigures = z.output<typeof loadFiguresSchema>;
export type ScheduleModelFigures = z.output<typeof scheduleModelFiguresSchema>;
export type ScheduleFigures = z.output<typeof scheduleFiguresSchema>;

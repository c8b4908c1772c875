/** What the `load` and `schedule` kinds add to a measurement (see loadPlan.ts for their settings). */
import type { ErrorClass } from './errors';
import type { LoadModel, LatencyStatName, ScheduleConnection } from './loadPlan';
import { isRecord } from './guards';
import type { EncodedHistogram, LatencyStats } from './latencyStats';

/**
 * One request of a `load` level or a `schedule`, for the per-request output (`dbprobe run --raw`).
 * Times are whole microseconds from the level's start (the schedule's first intended start).
 */
export interface RawRequest {
  target: string;
  kind: 'load' | 'schedule';
  /** The level: connections (closed), arrivals/s (open) or requests/s (schedule). */
  level: number;
  /** When the schedule meant it to start (the actual start in the closed model, which has no schedule). */
  intendedUs: number;
  /** When it was issued; absent when it never was (its connect failed). */
  startUs?: number;
  /** When its (last) answer or its failure came. */
  endUs: number;
  ok: boolean;
  error?: ErrorClass;
}

/** A request line from another thread or a runner, checked before it is written out. */
export function isRawRequest(value: unknown): value is RawRequest {
  return (
    isRecord(value) &&
    typeof value.target === 'string' &&
    (value.kind === 'load' || value.kind === 'schedule') &&
    typeof value.level === 'number' &&
    typeof value.intendedUs === 'number' &&
    (value.startUs === undefined || typeof value.startUs === 'number') &&
    typeof value.endUs === 'number' &&
    typeof value.ok === 'boolean' &&
    (value.error === undefined || typeof value.error === 'string')
  );
}

/** How well a fixed-rate schedule kept its start times. */
export interface StartFigures {
  /** Starts the schedule asked for. */
  asked: number;
  /** Starts that happened (a query or request was issued). */
  started: number;
  /** Starts issued more than `lateAfterUs` after their intended time. */
  late: number;
  lateAfterUs: number;
  /** Starts never issued: every connection busy and the waiting line full, or the level ended first. */
  dropped: number;
  askedRate: number;
  achievedRate: number;
  /** How late starts were issued (from the intended time), p50/p99/max in µs. */
  latenessP50Us: number;
  latenessP99Us: number;
  latenessMaxUs: number;
  /** Fan-out (and threads) only: the lateness histogram, so places merge their start figures exactly. */
  latenessHistogram?: EncodedHistogram;
}

export interface LoadLevelFigures {
  /** Connections (closed model) or asked arrivals per second (open model). */
  level: number;
  /** How long the level ran: from its clock start to its last answer, or to the cut when `cut`. */
  durationUs: number;
  /**
   * Set when the level ended before its asked duration (Ctrl-C, a cancel, the run's time limit, a
   * target that cannot succeed): its rates are over `durationUs`, and it is never judged to have
   * kept up; only what its samples show by themselves (error rate, latency) can say it did not.
   */
  cut?: true;
  /**
   * A fan-out's (or threads') share only: this share had no connection and no arrival in the level,
   * so it sat the level out (no figures, no client verdict). Merges leave it out.
   */
  idle?: true;
  /** Successful queries per second, over the time the level ran. */
  throughput: number;
  /** Service time: from the moment the query was issued to its answer. */
  stats: LatencyStats;
  /** Open model only: from the query's intended start (coordinated omission corrected). */
  corrected?: LatencyStats;
  starts?: StartFigures;
  /** Why this level did not keep up (error rate, latency or rate), when it did not. */
  tripped?: string;
  /** The client's CPU during the level, % of one core (the process's, or the probe thread's). */
  clientCpuPercent?: number;
  /** Set when the client was the limit at this level: "client-limited: one thread at 99% CPU". */
  clientLimited?: string;
  /** Fan-out only: how late this place started the level after the common start (ms). */
  startLagMs?: number;
  /** Fan-out only: the level's histograms, so places merge exactly. */
  histogram?: EncodedHistogram;
  correctedHistogram?: EncodedHistogram;
}

export interface LoadFigures {
  model: LoadModel;
  /** Open model: the driver connections the arrivals shared. */
  connections?: number;
  durationS: number;
  maxErrorRate: number;
  maxLatencyMs?: number;
  latencyStat: LatencyStatName;
  levels: LoadLevelFigures[];
  /** The first level that tripped a threshold: where the target stops keeping up. */
  knee?: { level: number; reason: string };
  /**
   * Open model: the service time (issue to answer) of every query of every level. The measurement's
   * own `stats` are then the corrected figures (from each query's intended start): the headline.
   */
  service?: LatencyStats;
  /** The level from which throughput stopped growing while the client was saturated: the client's ceiling. */
  clientCeiling?: number;
  /** A merged fan-out result: how each level was split and what each place measured. */
  fanOut?: FanOutFigures;
}

/** One place's part of a fanned-out level (or schedule). */
export interface FanOutPlaceLevel {
  /** This place's share: connections (closed), arrivals/s (open) or requests/s (schedule). */
  share: number;
  /** This share had no connection and no arrival: it sat the level out. */
  idle?: true;
  /** This place's part of the level was cut short (see LoadLevelFigures.cut). */
  cut?: true;
  throughput: number;
  count: number;
  errors: number;
  p50Us: number;
  p99Us: number;
  /** Fixed-rate levels: achieved start rate, late and dropped starts. */
  achievedRate?: number;
  late?: number;
  dropped?: number;
  startLagMs?: number;
}

export interface FanOutPlaceFigures {
  /** Where: "this machine", or the runner's label. */
  label: string;
  /** One entry per level (one for a schedule); absent levels were not reached (cancel, failure). */
  levels: FanOutPlaceLevel[];
  /** Why this place's part is missing or short (the place failed), redacted. */
  failure?: string;
}

export interface FanOutFigures {
  /** What was split among the places. */
  split: 'connections' | 'rate';
  /** What the parts were: places (runners, this machine) or one place's probing threads (`--threads`). */
  parts?: 'places' | 'threads';
  /** In words, e.g. "arrivals per second split evenly over 3 places; levels start together". */
  note: string;
  /** The first level's common start, ISO 8601. */
  startAt: string;
  places: FanOutPlaceFigures[];
}

/** `initial + (K-1) x subsequent` against the measured per-request totals, for one statistic. */
export interface ScheduleModelFigures {
  statistic: 'p50' | 'mean';
  initialUs: number;
  subsequentUs: number;
  predictedUs: number;
  measuredUs: number;
  /** measured - predicted. */
  differenceUs: number;
  /** difference / predicted (0 when nothing was predicted). */
  differenceRate: number;
}

export interface ScheduleFigures {
  rate: number;
  queries: number;
  /** The asked duration. */
  durationS: number;
  /** How long it ran: from its first intended start to its last answer, or to the cut when `cut`. */
  durationUs?: number;
  /** Set when a cancel (or the run's time limit) ended the schedule before its last start. */
  cut?: true;
  connection: ScheduleConnection;
  starts: StartFigures;
  /** positions[0] is query 1 (with the connect when `connection` is `new`), then 2..K. */
  positions: LatencyStats[];
  /**
   * Whole requests: from the request's intended start to its last answer (coordinated omission
   * corrected, as the measurement's `stats`).
   */
  totals: LatencyStats;
  /** Whole requests from when each was issued to its last answer: the service time. */
  serviceTotals?: LatencyStats;
  /** Absent when no request completed. */
  model?: { p50: ScheduleModelFigures; mean: ScheduleModelFigures; note: string };
  /** Fan-out only: how late this place started after the common start (ms). */
  startLagMs?: number;
  /** Fan-out only: histograms of each position and of the totals, so places merge exactly. */
  positionHistograms?: EncodedHistogram[];
  totalsHistogram?: EncodedHistogram;
  /** A merged fan-out result: how the rate was split and what each place measured. */
  fanOut?: FanOutFigures;
}

/** A fixed-rate level or schedule that started less than this share of what was asked did not keep up. */
export const MIN_ACHIEVED_SHARE = 0.95;

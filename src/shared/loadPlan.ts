/**
 * Settings of the two duration-based kinds. `schedule` is the serverless-latency blog's method:
 * R simulated requests per second for D seconds, each running K consecutive queries, started on time
 * whether or not the previous one finished. `load` is a closed model (C connections back to back) or
 * an open model (a fixed arrival rate, timed from each query's intended start), over one level or a
 * sweep of levels.
 */

export const LOAD_MODELS = ['closed', 'open'] as const;
export type LoadModel = (typeof LOAD_MODELS)[number];

export const LATENCY_STATS = ['p50', 'p90', 'p95', 'p99'] as const;
export type LatencyStatName = (typeof LATENCY_STATS)[number];

export interface LoadPlanSpec {
  model: LoadModel;
  /** Connections (closed model) or arrivals per second (open model), one level after another. */
  levels: number[];
  /** Seconds per level. */
  durationS: number;
  /** Open model: driver connections the arrivals share (a start waits when all are busy). */
  connections: number;
  /** A level whose error rate is above this (0..1) did not keep up. */
  maxErrorRate: number;
  /** A level whose latency (`latencyStat`, corrected in the open model) is above this did not keep up. */
  maxLatencyMs?: number;
  latencyStat: LatencyStatName;
}

export const SCHEDULE_CONNECTIONS = ['new', 'pooled'] as const;
export type ScheduleConnection = (typeof SCHEDULE_CONNECTIONS)[number];

export interface SchedulePlanSpec {
  /** Simulated requests started per second. */
  rate: number;
  /** Consecutive queries per request: query 1 is the initial one, 2..K subsequent. */
  queries: number;
  durationS: number;
  /** `new`: every request opens (and closes) its own connection; `pooled`: requests reuse idle ones. */
  connection: ScheduleConnection;
}

/**
 * One place's part in a load run fanned out over several places (runners and this machine): every
 * place runs its share of each level, and all start each level together at a common wall-clock time.
 * Level k of the run (counting every target's levels, load then schedule, in run order) starts at
 * `startAtMs + k x (durationS x 1000 + levelGapMs)`; connections open before that time, in the gap.
 */
export interface FanOutSpec {
  /** Wall-clock time (ms since 1970) of the first level's common start. */
  startAtMs: number;
  /** Between one level's end and the next level's common start: the line drains, connections open. */
  levelGapMs: number;
  /** This place's position (0-based) among `places`. */
  place: number;
  places: number;
  /**
   * True: the plan's load levels, open-model connections and schedule rate are the whole run's, and
   * this place takes its part (core/load/shares.ts): a whole number of the closed model's connections
   * and of the open model's, and every `places`-th start of each fixed-rate timetable from the
   * `place`-th on, so the places' starts add up to exactly the asked schedule. Absent (a plan from an
   * earlier version): the figures are this place's own share.
   */
  dealt?: boolean;
}

export const LOAD_DEFAULTS: LoadPlanSpec = {
  model: 'closed',
  levels: [1, 2, 4, 8, 16],
  durationS: 10,
  connections: 16,
  maxErrorRate: 0.01,
  latencyStat: 'p99',
};

/** The blog's numbers: 10 requests per second, 3 queries each, for 60 s. */
export const SCHEDULE_DEFAULTS: SchedulePlanSpec = {
  rate: 10,
  queries: 3,
  durationS: 60,
  connection: 'new',
};

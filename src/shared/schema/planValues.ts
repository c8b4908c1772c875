/**
 * The plan's lists and defaults as plain values, apart from its definition (planSchema.ts and the
 * files it reads): the panel, the drivers and the extension's entry read these without loading the
 * definition's validator.
 */

export const PROBE_KINDS = ['initial', 'subsequent', 'cold', 'schedule', 'load'] as const;
export type ProbeKind = (typeof PROBE_KINDS)[number];

export const TARGET_ORDERS = ['interleaved', 'sequential'] as const;
export type TargetOrder = (typeof TARGET_ORDERS)[number];

/**
 * The ways to make a database cold: suspend it through Neon's API, wait until it has been idle long
 * enough to sleep on its own, or run a command the user configured (e.g. a provider's CLI).
 */
export const COLD_MODES = ['neon-api', 'idle-wait', 'command'] as const;
export type ColdMode = (typeof COLD_MODES)[number];

/** The TLS version ceilings a target can set (`tls.maxVersion`). */
export const TLS_MAX_VERSIONS = ['1.2', '1.3'] as const;
export type TlsMaxVersion = (typeof TLS_MAX_VERSIONS)[number];

/** HTTP versions a fetch-based target can ask for: `2` offers h2 in TLS's ALPN, `1.1` offers only http/1.1. */
export const HTTP_VERSIONS = ['1.1', '2'] as const;
export type HttpVersion = (typeof HTTP_VERSIONS)[number];

export const LOAD_MODELS = ['closed', 'open'] as const;
export type LoadModel = (typeof LOAD_MODELS)[number];

export const LATENCY_STATS = ['p50', 'p90', 'p95', 'p99'] as const;
export type LatencyStatName = (typeof LATENCY_STATS)[number];

export const SCHEDULE_CONNECTIONS = ['new', 'pooled'] as const;
export type ScheduleConnection = (typeof SCHEDULE_CONNECTIONS)[number];

/** What a plan that names only its targets runs (plan.ts gives it the plan's type). */
export const PLAN_DEFAULT_VALUES = {
  kinds: ['initial', 'subsequent'] as ProbeKind[],
  iterations: 100,
  warmup: 5,
  order: 'interleaved' as TargetOrder,
  timeouts: { connectMs: 10_000, queryMs: 10_000, runMs: 15 * 60_000 },
  sampleCap: 10_000,
  maxConsecutiveErrors: 5,
};

/**
 * The default count of a plan with an ORM layer: a layer adds about a tenth of a warm loopback
 * query, and its per-query difference over 100 pairs was named in 78 of 82 runs on a 2-vCPU VM
 * (a run whose connections answered unevenly could not tell it); three times the pairs narrow the
 * interval by sqrt(3) (`npm run bench:verdict`, verdict_power_orm_*).
 */
export const LAYERED_DEFAULT_ITERATIONS = 300;

export const COLD_DEFAULT_VALUES = { samples: 5, pauseMs: 1_000, suspendTimeoutMs: 120_000 };

/** Closed-model levels when none are given: connections. */
export const CLOSED_DEFAULT_LEVELS = [1, 2, 4, 8, 16];
/** Open-model levels when none are given: arrivals per second. */
export const OPEN_DEFAULT_LEVELS = [10, 100, 1_000];

export const LOAD_DEFAULT_VALUES = {
  model: 'closed' as LoadModel,
  levels: CLOSED_DEFAULT_LEVELS,
  durationS: 10,
  connections: 16,
  maxErrorRate: 0.01,
  latencyStat: 'p99' as LatencyStatName,
};

/** The blog's numbers: 10 requests per second, 3 queries each, for 60 s. */
export const SCHEDULE_DEFAULT_VALUES = {
  rate: 10,
  queries: 3,
  durationS: 60,
  connection: 'new' as ScheduleConnection,
};

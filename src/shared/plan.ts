/** The plan a run executes: what crosses from a caller (CLI, extension, runner client) into the engine. */
import type { MinEffect } from './judgement/minEffect';
import type { FanOutSpec, LoadPlanSpec, SchedulePlanSpec } from './loadPlan';
import type { OrmLayer, OrmQueryPath } from './layerCatalog';
import type { WorkloadPresetId } from './workloadPresets';

export const PROBE_KINDS = ['initial', 'subsequent', 'cold', 'schedule', 'load'] as const;
export type ProbeKind = (typeof PROBE_KINDS)[number];

export const TARGET_ORDERS = ['interleaved', 'sequential'] as const;
export type TargetOrder = (typeof TARGET_ORDERS)[number];

/** A target as a user writes it: the connection is a reference (`env:VAR`, `secret:NAME`), never a literal. */
export interface TargetSpec {
  name: string;
  driver: string;
  connection: string;
  /** Custom workload; the driver's default (`SELECT 1`, `PING`, ...) when absent. */
  query?: string;
  /** Driver-specific options (e.g. neon-ws `pipelineConnect`). Never holds secrets. */
  options?: Record<string, unknown>;
  /** How to make this target cold before each `cold` sample; needed only when `cold` is run. */
  cold?: ColdTargetSpec;
  /** Whom to trust for this target's TLS; the connection string decides whether TLS is used. */
  tls?: TargetTls;
  /** The HTTP version a fetch-based driver speaks; Node's own fetch's choice (HTTP/1.1) when absent. */
  http?: TargetHttp;
  /** A workload preset instead of `query` (see workloadPresets.ts). */
  workload?: WorkloadPresetId;
  /**
   * Statements that are not read-only may run here (after a confirmation), and workload presets may
   * create, write and drop their scratch table, key or collection; refused when absent.
   */
  allowWrites?: boolean;
  /**
   * Measure the workload through this ORM layer as well: the run gets the raw target under `name`
   * and the layered one under `name · orm`, interleaved (core/layerTwins.ts).
   */
  orm?: OrmLayer;
  /** Through `orm`, the workload as raw SQL (the default) or the layer's typed `SELECT 1`. */
  ormQuery?: OrmQueryPath;
  /**
   * Set by the run's expansion, never by a user: the raw target this layered one is measured beside.
   */
  rawTwin?: string;
}

/**
 * TLS trust of one target. Without it a driver trusts the system store (plus NODE_EXTRA_CA_CERTS).
 * Certificate checks are turned off only by an explicit `insecure: true`, which results then show.
 */
export interface TargetTls {
  /** A PEM file of CA certificates (a private CA, a self-hosted database), trusted in place of the system store. */
  caFile?: string;
  /** Accept any certificate: the connection is encrypted but the server is not verified. */
  insecure?: boolean;
  /** The highest TLS version to offer (a ceiling: the server may still pick a lower one). */
  maxVersion?: TlsMaxVersion;
}

/** The TLS version ceilings a target can set (`tls.maxVersion`). */
export const TLS_MAX_VERSIONS = ['1.2', '1.3'] as const;
export type TlsMaxVersion = (typeof TLS_MAX_VERSIONS)[number];

/** HTTP versions a fetch-based target can ask for: `2` offers h2 in TLS's ALPN, `1.1` offers only http/1.1. */
export const HTTP_VERSIONS = ['1.1', '2'] as const;
export type HttpVersion = (typeof HTTP_VERSIONS)[number];

/** How a fetch-based driver (neon-http, planetscale, upstash, libsql over http, http) speaks HTTP. */
export interface TargetHttp {
  version: HttpVersion;
}

/**
 * The ways to make a database cold: suspend it through Neon's API, wait until it has been idle long
 * enough to sleep on its own, or run a command the user configured (e.g. a provider's CLI).
 */
export const COLD_MODES = ['neon-api', 'idle-wait', 'command'] as const;
export type ColdMode = (typeof COLD_MODES)[number];

export interface NeonColdSpec {
  /** Where the key lives: `env:NEON_API_KEY` (CLI) or `secret:NAME` (VS Code). Never the key itself. */
  apiKey?: string;
  /** Neon project id (console: Settings). Not in the connection string, so it must be given. */
  projectId?: string;
  /** `ep-...`; parsed from the connection string's host when absent. */
  endpointId?: string;
  /** The API's base URL; https://console.neon.tech/api/v2 unless a test or proxy says otherwise. */
  apiUrl?: string;
}

export interface ColdTargetSpec {
  mode: ColdMode;
  /** idle-wait: how long the target must sit untouched before a sample (ms). */
  idleMs?: number;
  /** command: the program and its arguments, run without a shell before each sample. */
  command?: string[];
  neon?: NeonColdSpec;
}

/** How cold samples are taken: each one costs a suspend, so they get their own count. */
export interface ColdPlanSpec {
  /** Cold samples per target (each followed by one hot connect). */
  samples: number;
  /** Pause between one cold sample's hot connect and the next suspend (ms). */
  pauseMs: number;
  /** Longest wait for one suspend (API polling or command) before the sample fails (ms). */
  suspendTimeoutMs: number;
}

export const COLD_DEFAULTS: ColdPlanSpec = { samples: 5, pauseMs: 1_000, suspendTimeoutMs: 120_000 };

export interface Timeouts {
  connectMs: number;
  queryMs: number;
  runMs: number;
}

export interface PlanSpec {
  targets: TargetSpec[];
  kinds: ProbeKind[];
  iterations: number;
  /**
   * True when `iterations` is the default, not asked for: a kind whose samples are too slow for the
   * run's time bound (`timeouts.runMs`) shortens its count to fit rather than be cut off
   * (core/sampleBudget.ts), and the result says so (Measurement.shortenedTo).
   */
  iterationsFit?: boolean;
  warmup: number;
  order: TargetOrder;
  timeouts: Timeouts;
  /** Raw samples kept per target and kind, for time series and CSV. */
  sampleCap: number;
  /**
   * Warm connections per target that the `subsequent` kind takes in turn (DEFAULT_WARM_CONNECTIONS
   * when absent): enough that a verdict can tell a target from one of its connections.
   */
  warmConnections?: number;
  /**
   * The smallest difference or change the verdict names (a share of the faster figure, or an
   * amount); absent: none, the run's own intervals decide. Kept in the result, so every surface
   * that reads it judges by the same rule.
   */
  minEffect?: MinEffect;
  /**
   * False: no per-run reading of the database's own time (EXPLAIN ANALYZE, counters), which opens a
   * connection of its own around the kind's samples; absent: read where the driver offers one.
   */
  serverTimeRuns?: boolean;
  /** Consecutive errors with no success after which a target stops being sampled for that kind. */
  maxConsecutiveErrors: number;
  /** Settings of the `cold` kind; COLD_DEFAULTS when absent. */
  cold?: ColdPlanSpec;
  /** Settings of the `load` kind; LOAD_DEFAULTS when absent. */
  load?: LoadPlanSpec;
  /** Settings of the `schedule` kind; SCHEDULE_DEFAULTS when absent. */
  schedule?: SchedulePlanSpec;
  /** Set by a fan-out over several places: this place's position and the common start times. */
  fanOut?: FanOutSpec;
  /**
   * Probing threads the load and schedule kinds spread over (each its own event loop and driver
   * instance); absent: as many as help on the machine that runs the plan (core/load/threadCount.ts).
   */
  threads?: number;
}

export const PLAN_DEFAULTS: Omit<PlanSpec, 'targets'> = {
  kinds: ['initial', 'subsequent'],
  iterations: 100,
  warmup: 5,
  order: 'interleaved',
  timeouts: { connectMs: 10_000, queryMs: 10_000, runMs: 15 * 60_000 },
  sampleCap: 10_000,
  maxConsecutiveErrors: 5,
};

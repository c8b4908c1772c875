/**
 * Every limit dbprobe puts on a plan, in one table: the sizes checked before validation reads a
 * value (core/inputBounds.ts), the bounds the plan's definition accepts (schema/), which command-line
 * flags name in their messages (a runner's own limits are in runnerPlanLimits.ts). A bound changed
 * here changes everywhere it is checked or named.
 */
const HOUR_MS = 3_600_000;

/** The bounds of a plan's own settings (schema/planSchema.ts and the files it reads). */
export const PLAN_LIMITS = {
  iterations: 1_000_000,
  warmup: 100_000,
  /** timeouts.connectMs and timeouts.queryMs. */
  timeoutMs: HOUR_MS,
  /** timeouts.runMs: a day. */
  runMs: 24 * HOUR_MS,
  sampleCap: 1_000_000,
  /** Warm connections per target (subsequent): each is a server session held for the kind. */
  warmConnections: 64,
  /** Explicit `threads` above this are refused: each thread holds a driver instance. */
  threads: 32,
  /** Each cold sample costs a suspend: this many is hours of waiting already. */
  coldSamples: 10_000,
  coldPauseMs: HOUR_MS,
  coldSuspendTimeoutMs: HOUR_MS,
  coldIdleMs: 24 * HOUR_MS,
  coldCommandArgs: 64,
  coldArgChars: 4_096,
  /** A fan-out over more places than this is refused (each is a runner or this machine). */
  fanOutPlaces: 64,
  fanOutLevelGapMs: 600_000,
} as const;

/** The bounds of the `load` and `schedule` settings. */
export const LOAD_LIMITS = {
  levels: 50,
  connections: 1_000,
  rate: 100_000,
  durationS: 3_600,
  queries: 100,
  maxLatencyMs: HOUR_MS,
} as const;

/**
 * Sizes of a plan as it arrives (a config file, a request body), checked before any regular
 * expression or error message sees a value (inputBounds.ts).
 */
export const INPUT_LIMITS = {
  /** A dbprobe.json holds targets and settings, not data. */
  configBytes: 1_048_576,
  targets: 100,
  nameChars: 64,
  connectionChars: 256,
  /** One sample's workload: room for a bulk insert, not for a dump. */
  queryChars: 65_536,
  /** Any other string: option values, kinds, paths, commands. */
  stringChars: 4_096,
  keyChars: 64,
  /** Items of one array or keys of one object. */
  entries: 256,
  /** Nesting below the plan object (targets[0].options.x.y is depth 4). */
  depth: 8,
  /** A connection string from the environment (URLs with long tokens included). */
  connectionStringChars: 16_384,
} as const;

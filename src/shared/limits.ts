/**
 * Every limit dbprobe puts on a plan, in one table: the sizes checked before validation reads a
 * value (core/inputBounds.ts), the bounds validation accepts (core/validate/), which command-line
 * flags name in their messages, and a runner's own limits with the plan figures it checks against
 * them. A bound changed here changes everywhere it is checked or named.
 */
import type { PlanSpec } from './plan';
import type { RunnerLimits } from './runnerApi';

const HOUR_MS = 3_600_000;

/** The bounds of a plan's own settings (validatePlan.ts, validateCold.ts, validateLoad.ts). */
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

/** A runner's limits when its environment sets none (each has a DBPROBE_MAX_... variable). */
export const RUNNER_DEFAULT_LIMITS: RunnerLimits = {
  maxBodyBytes: 64 * 1024,
  maxIterations: 10_000,
  maxWarmup: 1_000,
  maxTargets: 20,
  maxDurationMs: 5 * 60_000,
  maxConcurrentRuns: 2,
};

/**
 * The plan figures a runner checks against its limits before it runs a plan. `what` names the figure
 * in a sentence, `setting` is what the editor user lowers to fit (the runner itself says "lower it").
 */
const RUNNER_PLAN_CHECKS: {
  limit: keyof RunnerLimits;
  what: string;
  setting: string;
  value: (plan: PlanSpec) => number;
}[] = [
  {
    limit: 'maxIterations',
    what: 'iterations',
    setting: 'dbprobe.iterations',
    value: (plan) => plan.iterations,
  },
  { limit: 'maxWarmup', what: 'warm-up samples', setting: 'dbprobe.warmup', value: (plan) => plan.warmup },
  {
    limit: 'maxTargets',
    what: 'targets',
    setting: 'the targets you pick',
    value: (plan) => plan.targets.length,
  },
];

/** A plan figure over a runner's limit: which limit, the figure, the limit and how to lift it. */
export interface PlanLimitOverrun {
  limit: keyof RunnerLimits;
  what: string;
  value: number;
  max: number;
  /** The setting an editor user lowers to fit. */
  setting: string;
  /** The runner's environment variable that raises the limit (DBPROBE_MAX_ITERATIONS...). */
  variable: string;
}

/** The first of the runner's limits the plan goes over, if any (checked before the plan runs). */
export function planLimitOverrun(plan: PlanSpec, limits: RunnerLimits): PlanLimitOverrun | undefined {
  for (const check of RUNNER_PLAN_CHECKS) {
    const value = check.value(plan);
    const max = limits[check.limit];
    if (value > max) {
      return {
        limit: check.limit,
        what: check.what,
        value,
        max,
        setting: check.setting,
        variable: `DBPROBE_${check.limit.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`,
      };
    }
  }
  return undefined;
}

/** The runner's limit a plan breaks, if any, in words a user can act on. */
export function planLimitBreach(
  plan: PlanSpec,
  limits: RunnerLimits,
): { limit: keyof RunnerLimits; message: string } | undefined {
  const over = planLimitOverrun(plan, limits);
  if (!over) return undefined;
  return {
    limit: over.limit,
    message: `${over.what} ${over.value} is over this runner's limit of ${over.max}; lower it or raise ${over.variable} on the runner.`,
  };
}

/**
 * A runner's own limits and the plan figures it checks against them before it runs a plan. Apart from
 * limits.ts, which the plan's definition reads, so that definition does not reach the runner API.
 */
import type { PlanSpec } from './plan';
import type { RunnerLimits } from './runnerApi';

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

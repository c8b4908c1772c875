/** The runner's per-plan limits: which one a plan breaks, if any, in words a user can act on. */
import type { PlanSpec } from '../shared/plan';
import type { RunnerLimits } from '../shared/runnerApi';

const CHECKS: { limit: keyof RunnerLimits; what: string; value: (plan: PlanSpec) => number }[] = [
  { limit: 'maxIterations', what: 'iterations', value: (plan) => plan.iterations },
  { limit: 'maxWarmup', what: 'warmup', value: (plan) => plan.warmup },
  { limit: 'maxTargets', what: 'targets', value: (plan) => plan.targets.length },
];

export function planLimitBreach(
  plan: PlanSpec,
  limits: RunnerLimits,
): { limit: keyof RunnerLimits; message: string } | undefined {
  for (const check of CHECKS) {
    const value = check.value(plan);
    if (value > limits[check.limit]) {
      return {
        limit: check.limit,
        message: `${check.what} ${value} is over this runner's limit of ${limits[check.limit]}; lower it or raise DBPROBE_${check.limit.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()} on the runner.`,
      };
    }
  }
  return undefined;
}

/** Small plan builders for engine tests. */
import { PLAN_DEFAULTS, type PlanSpec, type TargetSpec } from '../../src/shared/plan';

export function plan(targets: TargetSpec[], overrides: Partial<PlanSpec> = {}): PlanSpec {
  return { ...PLAN_DEFAULTS, iterations: 5, warmup: 0, ...overrides, targets };
}

export function target(name: string, driver = name): TargetSpec {
  return { name, driver, connection: `env:${name.toUpperCase()}_URL` };
}

export const TOOL = { name: 'dbprobe', version: 'test' };

/**
 * The plan of an editor run: chosen targets and kinds, with iterations, warm-up, order and timeouts
 * from the `dbprobe.*` settings, which the workspace's dbprobe.json overrides. Validated by the
 * engine's own rules so the editor and the CLI refuse the same mistakes with the same words.
 */
import { formatIssues, validatePlan } from '../../core/validate/validatePlan';
import type { PlanSpec, ProbeKind, TargetSpec } from '../../shared/plan';

export interface PlanSettings {
  iterations?: unknown;
  warmup?: unknown;
  order?: unknown;
  timeouts?: unknown;
  sampleCap?: unknown;
  maxConsecutiveErrors?: unknown;
  load?: unknown;
  schedule?: unknown;
  cold?: unknown;
}

const PLAN_KEYS = [
  'iterations',
  'warmup',
  'order',
  'timeouts',
  'sampleCap',
  'maxConsecutiveErrors',
  'load',
  'schedule',
  'cold',
] as const;

export type PlanOutcome = { ok: true; plan: PlanSpec } | { ok: false; problem: string };

export function buildPlan(
  targets: TargetSpec[],
  kinds: ProbeKind[],
  settings: PlanSettings,
  fileConfig: Record<string, unknown> | undefined,
  knownDrivers: readonly string[],
): PlanOutcome {
  const merged: Record<string, unknown> = { targets, kinds };
  for (const key of PLAN_KEYS) {
    const value = fileConfig?.[key] ?? settings[key];
    // An empty settings object ({} is the settings' default) leaves the kind's own defaults.
    const empty = typeof value === 'object' && value !== null && Object.keys(value).length === 0;
    if (value !== undefined && value !== null && !empty) merged[key] = value;
  }
  const validated = validatePlan(merged, knownDrivers);
  if (!validated.ok) return { ok: false, problem: formatIssues(validated.issues) };
  return { ok: true, plan: validated.value };
}

/**
 * The plan of an editor run: chosen targets and kinds, with iterations, warm-up, order and timeouts
 * from the `dbprobe.*` settings, which the workspace's dbprobe.json overrides. Validated by the
 * engine's own rules so the editor and the CLI refuse the same mistakes with the same words.
 */
import { formatIssues, validatePlan } from '../../core/validate/validatePlan';
import { isRecord } from '../../shared/guards';
import type { PlanSpec, ProbeKind, TargetSpec } from '../../shared/plan';

export interface PlanSettings {
  iterations?: unknown;
  warmup?: unknown;
  minEffect?: unknown;
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
  'minEffect',
  'order',
  'timeouts',
  'sampleCap',
  'maxConsecutiveErrors',
  'load',
  'schedule',
  'cold',
] as const;

/**
 * The settings that are one flat setting per field (`dbprobe.timeouts.connectMs`, ...), so the
 * Settings UI edits each, and that an object in settings.json (`"dbprobe.timeouts": {...}`, as
 * earlier versions declared them) still sets.
 */
export const FLAT_SECTIONS = {
  timeouts: ['connectMs', 'queryMs', 'runMs'],
  schedule: ['rate', 'queries', 'durationS', 'connection'],
  load: ['model', 'levels', 'durationS', 'connections', 'maxErrorRate', 'maxLatencyMs', 'latencyStat'],
  cold: ['samples', 'pauseMs', 'suspendTimeoutMs'],
} as const;

/**
 * One section's value: VS Code's own (its flat settings' defaults and values, with an object a user
 * wrote for the whole section merged in), then each flat setting the user set explicitly, which
 * wins. An empty (null) field is left out: the kind's own default applies.
 */
export function sectionValue(
  configured: unknown,
  explicitFields: Readonly<Record<string, unknown>>,
): Record<string, unknown> {
  const merged: Record<string, unknown> = { ...(isRecord(configured) ? configured : {}), ...explicitFields };
  return Object.fromEntries(
    Object.entries(merged).filter(([, value]) => value !== null && value !== undefined),
  );
}

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

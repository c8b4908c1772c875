/** Validation of the `cold` settings: the plan's sample count and pause, and each target's mode. */
import {
  COLD_DEFAULTS,
  COLD_MODES,
  type ColdMode,
  type ColdPlanSpec,
  type ColdTargetSpec,
  type NeonColdSpec,
} from '../../shared/plan';
import { PLAN_LIMITS } from '../../shared/limits';
import { REFERENCE_PATTERN, isRecord, numberIn, type PlanIssue } from './fields';

const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_-]{0,127}$/;

export function validateColdPlan(value: unknown, issues: PlanIssue[]): ColdPlanSpec {
  if (!isRecord(value)) {
    issues.push({
      path: 'cold',
      message: 'must be an object like {"samples": 5, "pauseMs": 1000, "suspendTimeoutMs": 120000}',
    });
    return { ...COLD_DEFAULTS };
  }
  return {
    samples: numberIn(
      value.samples,
      {
        path: 'cold.samples',
        min: 1,
        max: PLAN_LIMITS.coldSamples,
        fallback: COLD_DEFAULTS.samples,
        whole: true,
      },
      issues,
    ),
    pauseMs: numberIn(
      value.pauseMs,
      {
        path: 'cold.pauseMs',
        min: 0,
        max: PLAN_LIMITS.coldPauseMs,
        fallback: COLD_DEFAULTS.pauseMs,
        whole: true,
      },
      issues,
    ),
    suspendTimeoutMs: numberIn(
      value.suspendTimeoutMs,
      {
        path: 'cold.suspendTimeoutMs',
        min: 1,
        max: PLAN_LIMITS.coldSuspendTimeoutMs,
        fallback: COLD_DEFAULTS.suspendTimeoutMs,
        whole: true,
      },
      issues,
    ),
  };
}

export function validateColdTarget(
  value: unknown,
  path: string,
  issues: PlanIssue[],
): ColdTargetSpec | undefined {
  const allowed: readonly unknown[] = COLD_MODES;
  if (!isRecord(value) || !allowed.includes(value.mode)) {
    issues.push({
      path: `${path}.mode`,
      message: `must be one of: ${COLD_MODES.join(', ')} (e.g. {"mode": "neon-api", "neon": {"projectId": "..."}})`,
    });
    return undefined;
  }
  const mode = value.mode as ColdMode;
  switch (mode) {
    case 'idle-wait': {
      if (value.idleMs === undefined) {
        issues.push({
          path: `${path}.idleMs`,
          message:
            'is required for idle-wait: how long the provider needs without traffic before it sleeps (e.g. 300000 for five minutes)',
        });
        return undefined;
      }
      const idleMs = numberIn(
        value.idleMs,
        { path: `${path}.idleMs`, min: 1, max: PLAN_LIMITS.coldIdleMs, fallback: 0, whole: true },
        issues,
      );
      return { mode, idleMs };
    }
    case 'command': {
      const command = value.command;
      if (
        !Array.isArray(command) ||
        command.length === 0 ||
        command.length > PLAN_LIMITS.coldCommandArgs ||
        !command.every((a) => typeof a === 'string' && a.length > 0 && a.length <= PLAN_LIMITS.coldArgChars)
      ) {
        issues.push({
          path: `${path}.command`,
          message:
            'must be the program and its arguments as a list, run without a shell, e.g. ["fly", "machine", "stop", "MACHINE_ID"]',
        });
        return undefined;
      }
      return { mode, command: [...(command as string[])] };
    }
    case 'neon-api': {
      const neon = validateNeon(value.neon, `${path}.neon`, issues);
      return neon ? { mode, neon } : { mode };
    }
  }
}

function validateNeon(value: unknown, path: string, issues: PlanIssue[]): NeonColdSpec | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    issues.push({
      path,
      message: 'must be an object like {"projectId": "...", "apiKey": "env:NEON_API_KEY"}',
    });
    return undefined;
  }
  const neon: NeonColdSpec = {};
  if (value.apiKey !== undefined) {
    if (typeof value.apiKey === 'string' && REFERENCE_PATTERN.test(value.apiKey)) neon.apiKey = value.apiKey;
    else
      issues.push({
        path: `${path}.apiKey`,
        message:
          'must be a reference like "env:NEON_API_KEY" (or "secret:NAME" in VS Code); never write the key itself into a file',
      });
  }
  for (const field of ['projectId', 'endpointId'] as const) {
    const id = value[field];
    if (id === undefined) continue;
    if (typeof id === 'string' && ID_PATTERN.test(id)) neon[field] = id;
    else
      issues.push({
        path: `${path}.${field}`,
        message: 'must be a Neon id such as "ep-cool-darkness-123456"',
      });
  }
  if (value.apiUrl !== undefined) {
    if (typeof value.apiUrl === 'string' && /^https?:\/\/[^\s]{1,2000}$/.test(value.apiUrl))
      neon.apiUrl = value.apiUrl.replace(/\/+$/, '');
    else issues.push({ path: `${path}.apiUrl`, message: 'must be an http(s) URL' });
  }
  return neon;
}

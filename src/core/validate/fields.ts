/**
 * The field readers the plan validators share (validatePlan.ts, validateCold.ts, validateLoad.ts):
 * each reads one field of untrusted input, returns its value or the fallback, and records a problem
 * that names the field and the accepted values. All problems are collected, none thrown, so a user
 * fixes a config in one pass.
 */
import { isOneOf, isRecord } from '../../shared/guards';

export { isRecord };

/** One problem with the plan: the field's path (`targets[0] ("pg").cold.mode`) and what to do. */
export interface PlanIssue {
  path: string;
  message: string;
}

export type Validated<T> = { ok: true; value: T } | { ok: false; issues: PlanIssue[] };

/** Where a secret lives: `env:VAR` or `secret:NAME`, never the secret itself. */
export const REFERENCE_PATTERN = /^(env|secret):[A-Za-z_][A-Za-z0-9_.-]*$/;

/** A whole number from `min` to `max`, both included; `fallback` when left out. */
export function integerIn(
  value: unknown,
  path: string,
  fallback: number,
  min: number,
  max: number,
  issues: PlanIssue[],
): number {
  if (value === undefined) return fallback;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    issues.push({
      path,
      message: `must be a whole number from ${min} to ${max} (got ${JSON.stringify(value)})`,
    });
    return fallback;
  }
  return value;
}

/** A number in range: `min` excluded unless `minIncluded` (rates and durations must be above 0). */
export function numberIn(
  value: unknown,
  path: string,
  min: number,
  max: number,
  integer: boolean,
  fallback: number,
  issues: PlanIssue[],
  minIncluded = integer,
): number {
  if (value === undefined) return fallback;
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (minIncluded ? value >= min : value > min) &&
    value <= max &&
    (!integer || Number.isInteger(value));
  if (!ok) {
    const range = `${minIncluded ? 'from' : 'above'} ${min} ${minIncluded ? 'to' : 'up to'} ${max}`;
    issues.push({
      path,
      message: `must be a ${integer ? 'whole number' : 'number'} ${range} (got ${short(value)})`,
    });
    return fallback;
  }
  return value;
}

/** One of a list of strings; `fallback` when left out. */
export function oneOf<T extends string>(
  value: unknown,
  path: string,
  allowed: readonly T[],
  fallback: T,
  issues: PlanIssue[],
): T {
  if (value === undefined) return fallback;
  if (typeof value === 'string' && isOneOf(value, allowed)) return value;
  issues.push({ path, message: `must be one of: ${allowed.join(', ')} (got ${short(value)})` });
  return fallback;
}

/** An object with only the given keys (an unknown key is a problem, likely a typo); `{}` when left out. */
export function objectOf(
  value: unknown,
  path: string,
  keys: string[],
  issues: PlanIssue[],
): Record<string, unknown> {
  if (value === undefined) return {};
  if (!isRecord(value)) {
    issues.push({ path, message: `must be an object with any of: ${keys.join(', ')}` });
    return {};
  }
  const unknown = Object.keys(value).filter((k) => !keys.includes(k));
  if (unknown.length > 0)
    issues.push({
      path,
      message: `unknown field ${unknown.map((k) => `"${k}"`).join(', ')}; allowed: ${keys.join(', ')}`,
    });
  return value;
}

/** A value as quoted in a problem: JSON, cut at 60 characters. */
export function short(value: unknown): string {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

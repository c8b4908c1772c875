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

/** A numeric field: where it is, what it accepts, and its value when left out. */
export interface NumberField {
  path: string;
  min: number;
  /** Included. */
  max: number;
  /** The value when the field is left out, or when it is wrong (the problem is recorded). */
  fallback: number;
  /** Whole numbers only. */
  whole?: boolean;
  /**
   * Whether `min` itself is accepted. By default yes for whole numbers and no for the others: a rate
   * or a duration must be above 0.
   */
  minIncluded?: boolean;
}

/** A number within its field's range; the fallback when left out. */
export function numberIn(value: unknown, field: NumberField, issues: PlanIssue[]): number {
  if (value === undefined) return field.fallback;
  const { path, min, max } = field;
  const whole = field.whole === true;
  const minIncluded = field.minIncluded ?? whole;
  const ok =
    typeof value === 'number' &&
    Number.isFinite(value) &&
    (minIncluded ? value >= min : value > min) &&
    value <= max &&
    (!whole || Number.isInteger(value));
  if (!ok) {
    const range = `${minIncluded ? 'from' : 'above'} ${min} ${minIncluded ? 'to' : 'up to'} ${max}`;
    issues.push({
      path,
      message: `must be a ${whole ? 'whole number' : 'number'} ${range} (got ${short(value)})`,
    });
    return field.fallback;
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

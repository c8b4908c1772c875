/**
 * Size limits for a plan as it arrives (a config file, a request body), checked before any regular
 * expression or error message sees a value: a 50 MB target name must cost a length check, not minutes
 * of pattern matching, and must not be echoed back. Each problem names the field and its limit (the
 * limits are in src/shared/limits.ts).
 */
import { INPUT_LIMITS } from '../shared/limits';
import type { PlanIssue } from './validate/validatePlan';

/** More would only bury the first problem. */
const MAX_ISSUES = 10;

export function checkInputSizes(input: unknown): PlanIssue[] {
  const issues: PlanIssue[] = [];
  walk(input, '', 0, issues);
  return issues.slice(0, MAX_ISSUES);
}

function walk(value: unknown, path: string, depth: number, issues: PlanIssue[]): void {
  if (issues.length >= MAX_ISSUES) return;
  if (typeof value === 'string') {
    const limit = stringLimit(path);
    if (value.length > limit)
      issues.push({
        path: path || '(plan)',
        message: `is ${value.length} characters long; the limit is ${limit}`,
      });
    return;
  }
  if (typeof value !== 'object' || value === null) return;
  if (depth >= INPUT_LIMITS.depth) {
    issues.push({
      path: path || '(plan)',
      message: `nests deeper than ${INPUT_LIMITS.depth} levels, the limit; flatten it`,
    });
    return;
  }
  const entries = Array.isArray(value) ? value.length : Object.keys(value).length;
  const maxEntries = path === 'targets' ? INPUT_LIMITS.targets : INPUT_LIMITS.entries;
  if (entries > maxEntries) {
    issues.push({
      path: path || '(plan)',
      message: `has ${entries} ${Array.isArray(value) ? 'items' : 'fields'}; the limit is ${maxEntries}`,
    });
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item: unknown, index) => walk(item, `${path}[${index}]`, depth + 1, issues));
    return;
  }
  for (const [key, item] of Object.entries(value)) {
    if (key.length > INPUT_LIMITS.keyChars) {
      issues.push({
        path: path || '(plan)',
        message: `has a field name of ${key.length} characters; the limit is ${INPUT_LIMITS.keyChars}`,
      });
      continue;
    }
    walk(item, path ? `${path}.${key}` : key, depth + 1, issues);
  }
}

function stringLimit(path: string): number {
  if (/^targets\[\d+\]\.name$/.test(path)) return INPUT_LIMITS.nameChars;
  if (/^targets\[\d+\]\.connection$/.test(path)) return INPUT_LIMITS.connectionChars;
  if (/^targets\[\d+\]\.query$/.test(path)) return INPUT_LIMITS.queryChars;
  return INPUT_LIMITS.stringChars;
}

/**
 * A saved run result read back from a file (`dbprobe compare`, `run --baseline`): checked against the
 * result's one definition (src/shared/schema/resultSchema.ts) before any figure is formed, so a file
 * that is not what it claims (hand-edited, truncated, from another tool) is refused with the field
 * that is wrong, instead of reading as "improved -202%" (negative latencies), "NaN ... no change
 * detected" (text for numbers) or "+6.9e305%" (1e308 µs: no latency this tool records is above an
 * hour, the histogram's top).
 */
import type * as z from 'zod/mini';
import { isRecord } from '../../shared/guards';
import { RESULT_SCHEMA, type RunResult } from '../../shared/result';
import { issueText } from '../../shared/schema/fieldRules';
import { runResultSchema } from '../../shared/schema/resultSchema';

/** Undefined when `value` is a run result every figure can be formed from; else the first problem. */
export function runResultProblem(value: unknown): string | undefined {
  if (!isRecord(value) || value.schema !== RESULT_SCHEMA)
    return `no "schema": "${RESULT_SCHEMA}" at the top: not a dbprobe run result`;
  const checked = runResultSchema.safeParse(value, { error: issueText });
  if (checked.success) return undefined;
  const issue = telling(checked.error.issues[0]!);
  const path = pathText(issue.path);
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** The value as a run result, once runResultProblem found nothing. */
export function asRunResult(value: unknown): RunResult | undefined {
  return runResultProblem(value) === undefined ? (value as RunResult) : undefined;
}

/**
 * A value that fits neither side of a union (a sample is a success or a failure) is told by the side
 * it came nearer to, when one is nearer: the one field that is wrong, not "fits neither".
 */
function telling(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  if (issue.code !== 'invalid_union' || issue.errors.length === 0) return issue;
  const sides = [...issue.errors].sort((a, b) => a.length - b.length);
  const [nearest, next] = sides;
  if (!nearest?.[0] || (next && next.length === nearest.length)) return issue;
  const inner = telling(nearest[0]);
  return { ...inner, path: [...issue.path, ...inner.path] };
}

/** `measurements[0].samples.values[3].us`. */
function pathText(path: readonly PropertyKey[]): string {
  return path
    .map((key, index) => (typeof key === 'number' ? `[${key}]` : `${index > 0 ? '.' : ''}${String(key)}`))
    .join('');
}

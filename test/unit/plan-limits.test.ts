/**
 * One reader for numeric fields (`numberIn` and its field description) and one limits table
 * (src/shared/limits.ts): validation accepts each bound of the table and refuses one past it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { numberIn, type PlanIssue } from '../../src/core/validate/fields';
import { validatePlan } from '../../src/core/validate/validatePlan';
import { LOAD_LIMITS, PLAN_LIMITS } from '../../src/shared/limits';

function read(value: unknown, field: Omit<Parameters<typeof numberIn>[1], 'path'>) {
  const issues: PlanIssue[] = [];
  return { value: numberIn(value, { path: 'x', ...field }, issues), issues };
}

test('numberIn: whole numbers include their minimum, other numbers must be above it unless told', () => {
  assert.deepEqual(read(0, { min: 0, max: 5, fallback: 3, whole: true }), { value: 0, issues: [] });
  assert.deepEqual(read(0, { min: 0, max: 5, fallback: 3 }), {
    value: 3,
    issues: [{ path: 'x', message: 'must be a number above 0 up to 5 (got 0)' }],
  });
  assert.deepEqual(read(0, { min: 0, max: 1, fallback: 0.5, minIncluded: true }), { value: 0, issues: [] });
  assert.deepEqual(read(2.5, { min: 1, max: 5, fallback: 3, whole: true }), {
    value: 3,
    issues: [{ path: 'x', message: 'must be a whole number from 1 to 5 (got 2.5)' }],
  });
  assert.deepEqual(read(undefined, { min: 1, max: 5, fallback: 4, whole: true }), { value: 4, issues: [] });
  assert.equal(read(6, { min: 1, max: 5, fallback: 4, whole: true }).issues.length, 1);
});

/** The paths validation reports for a plan with `fields` set, beside one valid target. */
function problems(fields: Record<string, unknown>): string[] {
  const checked = validatePlan({ targets: [{ name: 'a', driver: 'pg', connection: 'env:A' }], ...fields }, [
    'pg',
  ]);
  return checked.ok ? [] : checked.issues.map((i) => i.path);
}

test('validation takes its bounds from the limits table: each bound passes, one past it does not', () => {
  const cases: [string, Record<string, unknown>, Record<string, unknown>][] = [
    ['iterations', { iterations: PLAN_LIMITS.iterations }, { iterations: PLAN_LIMITS.iterations + 1 }],
    ['warmup', { warmup: PLAN_LIMITS.warmup }, { warmup: PLAN_LIMITS.warmup + 1 }],
    ['sampleCap', { sampleCap: PLAN_LIMITS.sampleCap }, { sampleCap: PLAN_LIMITS.sampleCap + 1 }],
    [
      'timeouts.queryMs',
      { timeouts: { queryMs: PLAN_LIMITS.timeoutMs } },
      { timeouts: { queryMs: PLAN_LIMITS.timeoutMs + 1 } },
    ],
    [
      'cold.samples',
      { cold: { samples: PLAN_LIMITS.coldSamples } },
      { cold: { samples: PLAN_LIMITS.coldSamples + 1 } },
    ],
    [
      'schedule.queries',
      { schedule: { queries: LOAD_LIMITS.queries } },
      { schedule: { queries: LOAD_LIMITS.queries + 1 } },
    ],
    [
      'fanOut.places',
      { fanOut: { places: PLAN_LIMITS.fanOutPlaces } },
      { fanOut: { places: PLAN_LIMITS.fanOutPlaces + 1 } },
    ],
  ];
  for (const [path, atBound, past] of cases) {
    assert.ok(!problems(atBound).includes(path), `${path} at its bound passes`);
    assert.ok(problems(past).includes(path), `${path} past its bound is refused`);
  }
});

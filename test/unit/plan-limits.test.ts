/**
 * One rule per kind of numeric field (src/shared/schema/fieldRules.ts) and one limits table
 * (src/shared/limits.ts): validation accepts each bound of the table and refuses one past it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { numberAbove, numberFrom, wholeIn } from '../../src/shared/schema/fieldRules';
import { validatePlan } from '../../src/core/validate/validatePlan';
import { LOAD_LIMITS, PLAN_LIMITS } from '../../src/shared/limits';

/** The message a numeric rule gives `value`, or undefined when it takes it. */
function refusal(rule: ReturnType<typeof wholeIn>, value: unknown): string | undefined {
  const checked = rule.safeParse(value);
  return checked.success ? undefined : checked.error.issues[0]?.message;
}

test('numeric rules: whole numbers include their minimum, other numbers must be above it unless told', () => {
  assert.equal(refusal(wholeIn(0, 5), 0), undefined);
  assert.equal(refusal(numberAbove(0, 5), 0), 'must be a number above 0 up to 5 (got 0)');
  assert.equal(refusal(numberFrom(0, 1), 0), undefined);
  assert.equal(refusal(wholeIn(1, 5), 2.5), 'must be a whole number from 1 to 5 (got 2.5)');
  assert.equal(refusal(wholeIn(1, 5), '3'), 'must be a whole number from 1 to 5 (got "3")');
  assert.equal(refusal(wholeIn(1, 5), 6), 'must be a whole number from 1 to 5 (got 6)');
  assert.equal(refusal(numberAbove(0, 5), Infinity), 'must be a number above 0 up to 5 (got null)');
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

/**
 * The default sample count against the run's time bound (core/sampleBudget.ts): with no count asked
 * for, a kind too slow for `timeouts.runMs` shortens its count to fit and the run completes, said once
 * in the verdict's notes; a count asked for is kept. On a fake clock, so the figures are exact.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import { validatePlan } from '../../src/core/validate/validatePlan';
import { judgeRun } from '../../src/shared/judgement/judgeRun';
import { samplesPerKind } from '../../src/shared/judgement/shortenedCount';
import type { ProbeEvent } from '../../src/shared/events';
import type { PlanSpec } from '../../src/shared/plan';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';

const resolveConnection = async () => 'fake://user:pw@host/db';
/** 100 ms a query, two targets: a measured round of the warm kind costs 200 ms of the fake clock. */
const QUERY_US = 100_000;
const RUN_MS = 10_000;

async function run(asked: Partial<PlanSpec>, onEvent?: (event: ProbeEvent) => void) {
  const clock = new FakeClock();
  const stats = new FakeDriverStats();
  const registry = fakeRegistry([
    fakeDriver('a', clock, { queryUs: [QUERY_US] }, stats),
    fakeDriver('b', clock, { queryUs: [QUERY_US] }, stats),
  ]);
  return runPlan(
    plan([target('a'), target('b')], {
      kinds: ['subsequent'],
      iterations: 100,
      warmup: 1,
      timeouts: { connectMs: 10_000, queryMs: 10_000, runMs: RUN_MS },
      ...asked,
    }),
    {
      registry,
      resolveConnection,
      tool: TOOL,
      clock,
      watchClient: false,
      serverTimeRuns: false,
      ...(onEvent ? { onEvent } : {}),
    },
  );
}

test('no count asked for: a kind that cannot fit 100 samples in timeouts.runMs shortens to fit, said once', async () => {
  const result = await run({ iterationsFit: true });
  assert.equal(result.state, 'completed');
  // 90% of 10 s for the kind, less the warm-up round: (9000 - 200) / 200 = 44 measured rounds.
  for (const m of result.measurements) {
    assert.equal(m.shortenedTo, 44, `${m.target}`);
    assert.equal(m.stats.count, 44, `${m.target} took what it shortened to`);
  }
  const judgement = judgeRun(result);
  const said = judgement.notes.filter((n) => n.startsWith('The default 100 samples per kind did not fit'));
  assert.deepEqual(said, [
    "The default 100 samples per kind did not fit the run's time limit (timeouts.runMs 10000 ms), so the count shortened to fit: subsequent took 44. Ask for a count (iterations) to have it kept, or raise timeouts.runMs.",
  ]);
  assert.ok(!judgement.lines.some((l) => l.includes('did not fit')), 'a note, not a verdict line');
  assert.equal(samplesPerKind(result), '44');
});

test('the samples after the count shortened say the count, long before the kind ends', async () => {
  const events: ProbeEvent[] = [];
  const result = await run({ iterationsFit: true }, (e) => events.push(e));
  const samples = events.filter((e) => e.type === 'sample');
  const said = samples.filter((e) => e.shortenedTo !== undefined);
  assert.ok(said.length > 0, 'some sample says it');
  // The last count said is what the kind took; it was said from early in the kind on.
  assert.equal(said[said.length - 1]!.shortenedTo, result.measurements[0]!.shortenedTo);
  const first = samples.indexOf(said[0]!);
  assert.ok(first < samples.length / 2, `said from sample ${first} of ${samples.length}`);
  // Every sample after the first that says it says it too; none before the kind shortened.
  assert.ok(samples.slice(first).every((e) => e.shortenedTo !== undefined));
  assert.ok(samples.slice(0, first).every((e) => e.phase === 'warmup' || e.index < said[0]!.shortenedTo!));
});

test('a count asked for is kept: nothing shortens, nothing is said', async () => {
  const result = await run({});
  for (const m of result.measurements) {
    assert.equal(m.shortenedTo, undefined);
    assert.equal(m.stats.count, 100);
  }
  assert.ok(!judgeRun(result).notes.some((n) => n.includes('did not fit')));
  assert.equal(samplesPerKind(result), '100');
});

test('two kinds share what is left of the run: the first half of it, the second the rest', async () => {
  const result = await run({ iterationsFit: true, kinds: ['initial', 'subsequent'] });
  const initial = result.measurements.filter((m) => m.kind === 'initial');
  const subsequent = result.measurements.filter((m) => m.kind === 'subsequent');
  // initial gets half of 9 s; subsequent what is left after it.
  assert.ok(
    initial.every((m) => m.shortenedTo !== undefined && m.shortenedTo < 25),
    JSON.stringify(initial.map((m) => m.shortenedTo)),
  );
  assert.ok(
    subsequent.every((m) => m.shortenedTo !== undefined && m.shortenedTo >= 20),
    JSON.stringify(subsequent.map((m) => m.shortenedTo)),
  );
  assert.equal(result.state, 'completed');
});

test('validatePlan marks a plan with no iterations as the default, one that asks as kept', () => {
  const targets = [{ name: 'a', driver: 'a', connection: 'env:A_URL' }];
  const absent = validatePlan({ targets }, ['a']);
  const asked = validatePlan({ targets, iterations: 100 }, ['a']);
  assert.ok(absent.ok && asked.ok);
  assert.equal(absent.value.iterationsFit, true);
  assert.equal(absent.value.iterations, 100);
  assert.equal(asked.value.iterationsFit, undefined);
  // A plan passed on (to a runner) keeps its mark.
  const passed = validatePlan({ ...absent.value }, ['a']);
  assert.ok(passed.ok);
  assert.equal(passed.value.iterationsFit, true);
});

test('a kind that fits keeps the default: nothing shortens', async () => {
  const result = await run({
    iterationsFit: true,
    timeouts: { connectMs: 10_000, queryMs: 10_000, runMs: 60_000 },
  });
  for (const m of result.measurements) {
    assert.equal(m.shortenedTo, undefined);
    assert.equal(m.stats.count, 100);
  }
});

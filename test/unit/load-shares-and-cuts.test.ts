/**
 * A load or schedule run spread over places (threads, runners) deals one timetable out, so its shares
 * add up to exactly the asked schedule and start at their own times; a share with nothing to do sits
 * the level out; a level cut short is marked cut, its rates are over the time it ran, and it is never
 * said to have kept up. Against an in-memory driver that takes real time, every request seen through
 * the engine's per-request output (`--raw`).
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Driver } from '../../src/core/driver';
import { runPlan } from '../../src/core/engine';
import { mergeFanOut } from '../../src/core/fanOut/mergeFanOut';
import { shareLoad } from '../../src/core/fanOut/split';
import { askedStarts } from '../../src/core/load/pacer';
import { threadsFor } from '../../src/core/load/threadCount';
import { formatMarkdown } from '../../src/report/markdown';
import { LOAD_DEFAULTS, type LoadPlanSpec, type SchedulePlanSpec } from '../../src/shared/loadPlan';
import type { LoadLevelFigures, RawRequest } from '../../src/shared/loadResult';
import type { PlanSpec } from '../../src/shared/plan';
import type { RunResult } from '../../src/shared/result';
import { fakeInfo, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';
import { assertMatchesSchema } from '../helpers/schema';

/** Answers every query after `queryMs` of real time. */
function timed(queryMs: number): Driver {
  return {
    info: fakeInfo('timed'),
    async connect() {
      return {
        query: () => new Promise<void>((resolve) => setTimeout(resolve, queryMs)),
        async close() {},
        destroy() {},
      };
    },
  };
}

async function run(
  spec: PlanSpec,
  options: { queryMs?: number; cancelAfterMs?: number } = {},
): Promise<{ result: RunResult; requests: RawRequest[] }> {
  const requests: RawRequest[] = [];
  const controller = new AbortController();
  const timer =
    options.cancelAfterMs === undefined
      ? undefined
      : setTimeout(() => controller.abort(), options.cancelAfterMs);
  try {
    const result = await runPlan(spec, {
      registry: fakeRegistry([timed(options.queryMs ?? 1)]),
      resolveConnection: async () => 'fake://u:pw@host/db',
      tool: TOOL,
      watchClient: false,
      signal: controller.signal,
      onRequest: (r) => requests.push(r),
    });
    assertMatchesSchema('result', result);
    return { result, requests };
  } finally {
    clearTimeout(timer);
  }
}

function loadPlan(load: Partial<LoadPlanSpec>): PlanSpec {
  return plan([target('timed')], { kinds: ['load'], load: { ...LOAD_DEFAULTS, ...load } });
}

function schedulePlan(schedule: SchedulePlanSpec): PlanSpec {
  return plan([target('timed')], { kinds: ['schedule'], schedule });
}

/** Every share of `whole` run side by side (as threads are), merged as a fan-out merges them. */
async function runShares(whole: PlanSpec, places: number) {
  const startAtMs = Date.now() + 100;
  const shared = shareLoad(whole, places, { startAtMs, levelGapMs: 100, leadMs: 100 });
  const parts = await Promise.all(shared.plans.map((p) => run(p)));
  const merged = mergeFanOut(
    { plan: whole, split: shared.split, note: shared.note, startAtMs },
    parts.map((p, i) => ({ label: `thread ${i + 1}`, result: p.result })),
  );
  assert.ok(merged);
  assertMatchesSchema('result', merged);
  return { parts, merged, shared };
}

describe('one timetable dealt over places', () => {
  test('the shares of every asked schedule add up to it exactly', () => {
    for (const places of [1, 2, 3, 8, 32])
      for (const rate of [0.5, 1, 2, 3, 7, 100, 1234.5])
        for (const durationS of [0.5, 1, 2.5, 10]) {
          const whole = askedStarts(rate, durationS);
          const parts = Array.from({ length: places }, (_, index) =>
            askedStarts(rate, durationS, { index, of: places }),
          );
          assert.equal(
            parts.reduce((a, b) => a + b, 0),
            whole,
            `${rate}/s for ${durationS} s over ${places}`,
          );
          assert.ok(Math.max(...parts) - Math.min(...parts) <= 1, `even deal: ${parts.join(', ')}`);
        }
    assert.deepEqual(
      [0, 1].map((index) => askedStarts(3, 1, { index, of: 2 })),
      [2, 1],
    );
    assert.deepEqual(
      [0, 1].map((index) => askedStarts(1, 1, { index, of: 2 })),
      [1, 0],
    );
  });

  test('--rate 3 --threads 2 issues 3 queries a second, at their own times', async () => {
    const whole = loadPlan({ model: 'open', levels: [3], durationS: 1, connections: 2 });
    const { parts, merged } = await runShares(whole, 2);
    const level = merged.measurements[0]!.load!.levels[0]!;
    assert.equal(level.starts?.asked, 3);
    assert.equal(level.starts?.started, 3);
    assert.equal(level.tripped, undefined, `kept up: ${level.tripped}`);
    // Each thread's requests, from its own start of the level: the timetable's 0, 1/3 and 2/3 s.
    const intended = parts.map((p) => p.requests.map((r) => r.intendedUs));
    assert.deepEqual(intended, [[0, 666_667], [333_333]]);
    for (const p of parts)
      for (const r of p.requests) assert.equal(r.level, 3, 'raw lines name the whole level');
    assert.equal(merged.measurements[0]!.stats.count, 3);
  });

  test('--rate 1 over 2 threads asks for its one arrival, and 100/s over 8 for 100', async () => {
    const one = await runShares(loadPlan({ model: 'open', levels: [1], durationS: 1, connections: 2 }), 2);
    const oneLevel = one.merged.measurements[0]!.load!.levels[0]!;
    assert.equal(oneLevel.starts?.asked, 1);
    assert.equal(oneLevel.stats.count, 1);
    assert.equal(oneLevel.tripped, undefined);
    const second = one.parts[1]!.result.measurements[0]!.load!.levels[0]!;
    assert.equal(second.idle, true, 'the thread without an arrival sat the level out');
    const hundred = await runShares(
      loadPlan({ model: 'open', levels: [100], durationS: 1, connections: 8 }),
      8,
    );
    const level = hundred.merged.measurements[0]!.load!.levels[0]!;
    assert.equal(level.starts?.asked, 100);
    assert.equal(level.stats.count + level.stats.errors, 100);
    assert.equal(level.starts?.askedRate, 100);
    assert.equal(
      hundred.parts.reduce((n, p) => n + p.requests.length, 0),
      100,
      'one raw line per asked arrival',
    );
  });

  test('a 2/s schedule over 2 threads starts its requests half a second apart', async () => {
    const whole = schedulePlan({ rate: 2, queries: 2, durationS: 1, connection: 'new' });
    const { parts, merged } = await runShares(whole, 2);
    assert.deepEqual(
      parts.map((p) => p.requests.map((r) => r.intendedUs)),
      [[0], [500_000]],
    );
    const s = merged.measurements[0]!.schedule!;
    assert.equal(s.rate, 2);
    assert.equal(s.starts.asked, 2);
    assert.equal(s.totals.count, 2);
  });

  test('a sweep over 2 threads names no knee when every level kept up', async () => {
    const whole = loadPlan({ model: 'open', levels: [1, 2, 4, 8], durationS: 0.5, connections: 2 });
    const { merged } = await runShares(whole, 2);
    const load = merged.measurements[0]!.load!;
    assert.deepEqual(
      load.levels.map((l) => [l.level, l.starts?.asked ?? 0, l.tripped]),
      [
        [1, 0, 'no query ran in the level'],
        [2, 1, undefined],
        [4, 2, undefined],
        [8, 4, undefined],
      ],
    );
    // 1/s for 0.5 s asks for no arrival at all: that level, and no other, shows nothing.
    assert.equal(load.knee?.level, 1);
    const longer = await runShares({ ...whole, load: { ...whole.load!, durationS: 1 } }, 2);
    assert.equal(longer.merged.measurements[0]!.load!.knee, undefined, 'kept up at every level');
  });

  test('threads beyond those with work are not started', () => {
    const closed = (levels: number[], threads: number) => ({
      ...loadPlan({ model: 'closed', levels }),
      threads,
    });
    assert.equal(threadsFor(closed([2], 32), 8), 2, '2 connections: 2 threads');
    assert.equal(threadsFor(closed([1, 2, 4], 4), 8), 4);
    assert.equal(threadsFor(closed([1], 4), 8), 1);
    const open = { ...loadPlan({ model: 'open', levels: [1000], connections: 3, durationS: 1 }), threads: 8 };
    assert.equal(threadsFor(open, 8), 3, 'a thread needs a connection of its own');
    const rare = { ...loadPlan({ model: 'open', levels: [2], connections: 16, durationS: 1 }), threads: 8 };
    assert.equal(threadsFor(rare, 8), 2, 'and an arrival');
  });
});

describe('a level cut short', () => {
  /** Its rates over the time it ran, from the same run's raw lines. */
  function checkAgainstRaw(level: LoadLevelFigures, requests: RawRequest[], durationS: number) {
    assert.equal(level.cut, true, 'marked cut');
    assert.ok(level.durationUs < durationS * 1e6, `ran ${level.durationUs} µs of ${durationS} s`);
    const ok = requests.filter((r) => r.ok);
    assert.equal(level.stats.count, ok.length, 'one raw line per answered query');
    const lastAnswer = Math.max(...ok.map((r) => r.endUs));
    assert.ok(
      lastAnswer <= level.durationUs,
      `answers end by the cut (${lastAnswer} <= ${level.durationUs})`,
    );
    assert.equal(level.throughput, Math.round((ok.length * 1e9) / level.durationUs) / 1000);
  }

  test('closed model: throughput over the time it ran; not judged, in JSON and Markdown', async () => {
    const spec = loadPlan({ model: 'closed', levels: [2, 4], durationS: 2 });
    const { result, requests } = await run(spec, { queryMs: 2, cancelAfterMs: 600 });
    const load = result.measurements[0]!.load!;
    assert.equal(load.levels.length, 1, 'the sweep stopped at the cut');
    const level = load.levels[0]!;
    checkAgainstRaw(level, requests, 2);
    assert.ok(level.throughput > (level.stats.count / 2) * 1.5, 'not over the asked 2 s');
    assert.equal(level.tripped, undefined);
    assert.equal(load.knee, undefined);
    const markdown = formatMarkdown(result);
    assert.match(markdown, /\| not judged: cut after 0\.\d\d s of 2 s \|/);
    assert.doesNotMatch(markdown, /Kept up at every level/);
    assert.match(markdown, /Not judged: the level \(2 connections\) was cut short, cut after/);
  });

  test('open model: achieved over the time it ran, no "did not keep up" from the cut', async () => {
    const spec = loadPlan({ model: 'open', levels: [200], durationS: 4, connections: 4 });
    const { result, requests } = await run(spec, { queryMs: 1, cancelAfterMs: 700 });
    const level = result.measurements[0]!.load!.levels[0]!;
    checkAgainstRaw(level, requests, 4);
    const starts = level.starts!;
    assert.ok(starts.asked < 200 * 4, `asked only what was due before the cut (${starts.asked})`);
    assert.ok(
      starts.achievedRate > 200 * 0.8,
      `achieved ${starts.achievedRate}/s over the time it ran, not over 4 s`,
    );
    assert.equal(level.tripped, undefined, `not judged on its starts: ${level.tripped}`);
  });

  test('a cut level still says what its samples show: a 100% error rate did not keep up', async () => {
    const failing: Driver = {
      info: fakeInfo('timed'),
      async connect() {
        return {
          query: () => new Promise<void>((_, reject) => setTimeout(() => reject(new Error('boom')), 2)),
          async close() {},
          destroy() {},
        };
      },
    };
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 400);
    const result = await runPlan(loadPlan({ model: 'closed', levels: [1], durationS: 2 }), {
      registry: fakeRegistry([failing]),
      resolveConnection: async () => 'fake://u:pw@host/db',
      tool: TOOL,
      watchClient: false,
      signal: controller.signal,
    });
    const level = result.measurements[0]!.load!.levels[0]!;
    assert.equal(level.cut, true);
    assert.match(level.tripped ?? '', /^error rate 100\.0% > 1\.0%$/);
  });

  test('a schedule cut short: marked, its rate over the time it ran', async () => {
    const { result, requests } = await run(
      schedulePlan({ rate: 50, queries: 2, durationS: 3, connection: 'new' }),
      { queryMs: 1, cancelAfterMs: 500 },
    );
    const s = result.measurements[0]!.schedule!;
    assert.equal(s.cut, true);
    assert.ok((s.durationUs ?? Infinity) < 3e6);
    // Every start due before the cut was issued or dropped; those in flight at the cut have no line.
    assert.equal(s.starts.asked, s.starts.started + s.starts.dropped);
    assert.equal(s.totals.count, requests.filter((r) => r.ok).length);
    assert.ok(requests.length <= s.starts.started);
    assert.ok(s.starts.achievedRate > 50 * 0.8, `achieved ${s.starts.achievedRate}/s`);
    assert.match(formatMarkdown(result), /Cut short: cut after 0\.\d\d s of 3 s, so not judged\./);
  });

  test('merged: a share cut short, or one that never reached the level, cuts the level', async () => {
    const whole = loadPlan({ model: 'closed', levels: [2, 4], durationS: 0.3 });
    const { parts, shared } = await runShares(whole, 2);
    const [a, b] = parts.map((p) => structuredClone(p.result));
    b!.measurements[0]!.load!.levels.pop();
    const merged = mergeFanOut(
      { plan: whole, split: shared.split, note: shared.note, startAtMs: Date.now() },
      [
        { label: 'one', result: a! },
        { label: 'two', result: b! },
      ],
    )!;
    const levels = merged.measurements[0]!.load!.levels;
    assert.equal(levels[0]!.cut, undefined);
    assert.equal(levels[1]!.cut, true, 'a share never reached level 4');
    assert.equal(levels[1]!.tripped, undefined);
  });
});

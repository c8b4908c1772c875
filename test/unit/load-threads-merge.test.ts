/**
 * What a run over probing threads (or places) merges beyond latencies: start lateness from every
 * share's lateness histogram (exact, not the worst share's percentile), a level's client-limited flag
 * from any share's client watch; and how many threads a plan gets by default.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Driver } from '../../src/core/driver';
import { runPlan } from '../../src/core/engine';
import { mergeFanOut } from '../../src/core/fanOut/mergeFanOut';
import { shareLoad } from '../../src/core/fanOut/split';
import { StartTally } from '../../src/core/load/startFigures';
import { autoThreads, threadsFor } from '../../src/core/load/threadCount';
import { LatencyRecorder } from '../../src/core/stats';
import { validatePlan } from '../../src/core/validate/validatePlan';
import { LOAD_DEFAULTS } from '../../src/shared/loadPlan';
import type { RunResult } from '../../src/shared/result';
import { fakeInfo, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';
import { assertMatchesSchema } from '../helpers/schema';

const instant: Driver = {
  info: fakeInfo('instant'),
  async connect() {
    return { async query() {}, async close() {}, destroy() {} };
  },
};

/** Two shares of an open-model sweep, run here on the fake driver. */
async function twoShares(): Promise<{ results: RunResult[]; merge: () => RunResult }> {
  const whole = plan([target('instant')], {
    kinds: ['load'],
    load: { ...LOAD_DEFAULTS, model: 'open', levels: [100, 200], durationS: 0.2, connections: 2 },
  });
  const startAtMs = Date.now() + 50;
  const shared = shareLoad(whole, 2, { startAtMs, levelGapMs: 100, leadMs: 50 });
  const results = await Promise.all(
    shared.plans.map((p) =>
      runPlan(p, {
        registry: fakeRegistry([instant]),
        resolveConnection: async () => 'fake://host/db',
        tool: TOOL,
        watchClient: false,
      }),
    ),
  );
  const merge = () => {
    const merged = mergeFanOut(
      { plan: whole, split: shared.split, note: shared.note, startAtMs },
      results.map((result, i) => ({ label: `thread ${i + 1}`, result })),
    );
    assert.ok(merged);
    return merged;
  };
  return { results, merge };
}

function tally(values: number[]): StartTally {
  const t = new StartTally();
  t.asked = values.length;
  for (const v of values) t.issued(v);
  return t;
}

test('start lateness merges exactly from the shares: percentiles of all starts together', async () => {
  const { results, merge } = await twoShares();
  // 900 starts 10 µs late in one share, 100 starts 5 ms late in the other: together p50 is 10 µs and
  // p99 5 ms; the worst share's p50 would say 5 ms.
  const early = Array.from({ length: 900 }, () => 10);
  const late = Array.from({ length: 100 }, () => 5_000);
  const [a, b] = results.map((r) => r.measurements[0]!.load!.levels[0]!);
  assert.ok(
    a?.starts?.latenessHistogram && b?.starts?.latenessHistogram,
    'a share sends its lateness histogram',
  );
  a.starts = tally(early).figures(50, 1e6, true);
  b.starts = tally(late).figures(50, 1e6, true);
  const merged = merge();
  assertMatchesSchema('result', merged);
  const starts = merged.measurements[0]!.load!.levels[0]!.starts!;
  const all = new LatencyRecorder();
  for (const v of [...early, ...late]) all.record(v);
  const exact = all.summary();
  assert.equal(starts.started, 1_000);
  assert.equal(starts.latenessP50Us, exact.p50Us, 'p50 of every start');
  assert.equal(starts.latenessP99Us, exact.p99Us, 'p99 of every start');
  assert.equal(starts.latenessMaxUs, exact.maxUs);
  assert.equal(starts.latenessP50Us, 10);
});

test("one share's client-limited level is client-limited merged", async () => {
  const { results, merge } = await twoShares();
  for (const r of results) {
    const levels = r.measurements[0]!.load!.levels;
    levels[0]!.clientCpuPercent = 20;
    levels[1]!.clientCpuPercent = 30;
  }
  const busy = results[1]!.measurements[0]!.load!.levels[1]!;
  busy.clientCpuPercent = 97;
  busy.clientLimited = 'client-limited: one thread at 97% CPU';
  const levels = merge().measurements[0]!.load!.levels;
  assert.equal(levels[0]!.clientLimited, undefined, 'no share was limited at the first level');
  assert.equal(levels[0]!.clientCpuPercent, 20);
  assert.equal(levels[1]!.clientLimited, 'client-limited: one thread at 97% CPU (1 of 2 shares limited)');
  assert.equal(levels[1]!.clientCpuPercent, 97, 'the busiest share speaks for the level');
});

test('threads: the default follows the heaviest level within the cores; other kinds keep one', () => {
  const closed = (levels: number[]) =>
    plan([target('pg')], { kinds: ['load'], load: { ...LOAD_DEFAULTS, model: 'closed', levels } });
  assert.equal(autoThreads(closed([1, 4]), 8), 1);
  assert.equal(autoThreads(closed([1, 16]), 8), 2);
  assert.equal(autoThreads(closed([64]), 2), 2, 'never more than the cores');
  assert.equal(autoThreads(closed([256]), 64), 8, 'never more than 8 by default');
  const open = plan([target('pg')], {
    kinds: ['load'],
    load: { ...LOAD_DEFAULTS, model: 'open', levels: [20_000], connections: 64 },
  });
  assert.equal(autoThreads(open, 8), 4);
  assert.equal(threadsFor({ ...closed([64]), threads: 3 }, 2), 3, 'an explicit count wins');
  assert.equal(threadsFor({ ...closed([64]), kinds: ['subsequent', 'load'] }, 8), 1);
  const mixed = validatePlan({ ...closed([64]), kinds: ['subsequent', 'load'], threads: 2 }, ['pg']);
  assert.ok(!mixed.ok && /spreads only the load and schedule kinds/.test(JSON.stringify(mixed.issues)));
  const tooMany = validatePlan({ ...closed([64]), threads: 33 }, ['pg']);
  assert.ok(!tooMany.ok && tooMany.issues.some((i) => i.path === 'threads'));
});

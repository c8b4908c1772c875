/**
 * Progress events of the duration kinds, and a fan-out run in one process: three "places" (three
 * engines) each run their share of the plan against an in-memory driver that takes real time, start
 * together at a common time, and merge into one result whose counts and rates are the sums of theirs.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Driver, DriverConnection } from '../../src/core/driver';
import { runPlan } from '../../src/core/engine';
import { mergeFanOut } from '../../src/core/fanOut/mergeFanOut';
import { shareLoad, splitWhole } from '../../src/core/fanOut/split';
import { validatePlan } from '../../src/core/validate/validatePlan';
import type { ProbeEvent } from '../../src/shared/events';
import { LOAD_DEFAULTS } from '../../src/shared/loadPlan';
import type { PlanSpec } from '../../src/shared/plan';
import type { RunResult } from '../../src/shared/result';
import { fakeInfo, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';
import { assertMatchesSchema } from '../helpers/schema';

type Progress = Extract<ProbeEvent, { type: 'progress' }>;

/** Connects in `connectMs`, answers every query in `queryMs`; counts open connections. */
function timedDriver(connectMs: number, queryMs: number, open: { n: number }): Driver {
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  return {
    info: fakeInfo('timed'),
    async connect() {
      await wait(connectMs);
      open.n += 1;
      let closed = false;
      const end = () => {
        if (!closed) open.n -= 1;
        closed = true;
      };
      const conn: DriverConnection = {
        async query() {
          await wait(queryMs);
        },
        async close() {
          end();
        },
        destroy: end,
      };
      return conn;
    },
  };
}

async function runHere(
  spec: PlanSpec,
  open: { n: number },
  onEvent?: (e: ProbeEvent) => void,
  signal?: AbortSignal,
): Promise<RunResult> {
  return runPlan(spec, {
    registry: fakeRegistry([timedDriver(2, 4, open)]),
    resolveConnection: async () => 'fake://user:pw@host/db',
    tool: TOOL,
    watchClient: false,
    ...(onEvent ? { onEvent } : {}),
    ...(signal ? { signal } : {}),
  });
}

describe('load progress events', () => {
  test("a level reports at most every 500 ms and once at its end, with the level's own totals", async () => {
    const open = { n: 0 };
    const events: Progress[] = [];
    const result = await runHere(
      plan([target('timed')], {
        kinds: ['load'],
        load: { ...LOAD_DEFAULTS, levels: [2, 4], durationS: 1.2 },
      }),
      open,
      (e) => {
        if (e.type === 'progress') events.push(e);
      },
    );
    const levels = result.measurements[0]!.load!.levels;
    for (const [i, level] of levels.entries()) {
      const own = events.filter((e) => e.levelIndex === i);
      assert.ok(own.length >= 2 && own.length <= 5, `${own.length} progress events for a 1.2 s level`);
      const last = own.at(-1)!;
      assert.equal(last.final, true);
      assert.equal(own.filter((e) => e.final).length, 1);
      assert.equal(last.completed, level.stats.count, 'the last event counts every answered query');
      assert.equal(last.errors, level.stats.errors);
      assert.equal(last.levels, 2);
      assert.equal(last.level, level.level);
      assert.ok(last.achievedRate > 0);
      const elapsed = own.map((e) => e.elapsedMs);
      assert.deepEqual(
        elapsed,
        [...elapsed].sort((a, b) => a - b),
        'elapsed only grows',
      );
    }
    assert.equal(open.n, 0);
  });

  test('a request schedule reports progress too, late and dropped starts included', async () => {
    const events: Progress[] = [];
    const result = await runHere(
      plan([target('timed')], {
        kinds: ['schedule'],
        schedule: { rate: 20, queries: 2, durationS: 1.1, connection: 'new' },
      }),
      { n: 0 },
      (e) => {
        if (e.type === 'progress') events.push(e);
      },
    );
    const last = events.at(-1)!;
    assert.equal(last.kind, 'schedule');
    assert.equal(last.final, true);
    assert.equal(last.completed, result.measurements[0]!.schedule!.totals.count);
    assert.equal(last.dropped, result.measurements[0]!.schedule!.starts.dropped);
  });
});

describe('fan-out', () => {
  test('connections split as whole numbers, the remainder first', () => {
    assert.deepEqual(splitWhole(16, 3), [6, 5, 5]);
    assert.deepEqual(splitWhole(1, 3), [1, 0, 0]);
  });

  test('a place whose share of a closed level is 0 connections sits it out: no figures, no verdict', async () => {
    const whole = plan([target('timed')], {
      kinds: ['load'],
      load: { ...LOAD_DEFAULTS, levels: [1, 4], durationS: 0.2 },
    });
    const shared = shareLoad(whole, 3, { startAtMs: Date.now(), levelGapMs: 100, leadMs: 0 });
    assert.deepEqual(shared.shares[2], [0, 1], 'the third place: no connection at 1, one of 4');
    const third = shared.plans[2]!;
    assert.deepEqual(third.load!.levels, [1, 4], "every place's plan holds the whole run's levels");
    assert.equal(validatePlan(third, ['timed']).ok, true);
    const open = { n: 0 };
    const result = await runHere(third, open);
    const [sat, ran] = result.measurements[0]!.load!.levels;
    assert.ok(sat && ran);
    assert.equal(sat.idle, true, 'no connection at level 1: the share sat it out');
    assert.equal(sat.level, 0);
    assert.equal(sat.tripped, undefined, 'a share that sat out is not judged');
    assert.equal(sat.clientLimited, undefined);
    assert.equal(ran.idle, undefined);
    assert.equal(ran.level, 1, 'one of the 4 connections');
    assert.ok(ran.stats.count > 0, `the share ran its connection at level 4 (n=${ran.stats.count})`);
    assertMatchesSchema('result', result);
    // Merged with the others, the shares that sat out add nothing and are not counted among the
    // shares: even flagged (as an idle thread was, "busy 100%"), the level speaks for the one that ran.
    const others = await Promise.all(shared.plans.slice(0, 2).map((p) => runHere(p, { n: 0 })));
    const results = [...others, result];
    for (const r of results) r.measurements[0]!.load!.levels[0]!.clientLimited = 'client-limited: x';
    const merged = mergeFanOut(
      { plan: whole, split: shared.split, note: shared.note, startAtMs: Date.now() },
      results.map((r, i) => ({ label: `place ${i}`, result: r })),
    );
    const level = merged!.measurements[0]!.load!.levels[0]!;
    assert.equal(
      level.clientLimited,
      'client-limited: x',
      'the one working share speaks for the level alone',
    );
    assert.deepEqual(
      merged!.measurements[0]!.load!.fanOut!.places.map((p) => p.levels[0]!.idle ?? false),
      [false, true, true],
    );
  });

  test('three places start each level together; the merged rate and counts are the sums of theirs', async () => {
    const whole = plan([target('timed')], {
      kinds: ['load'],
      load: { ...LOAD_DEFAULTS, model: 'open', levels: [90, 150], durationS: 0.8, connections: 6 },
    });
    const leadMs = 400;
    const startAtMs = Date.now() + leadMs;
    const shared = shareLoad(whole, 3, { startAtMs, levelGapMs: 1_000, leadMs });
    assert.deepEqual(shared.shares, [
      [30, 50],
      [30, 50],
      [30, 50],
    ]);
    const opens = shared.plans.map(() => ({ n: 0 }));
    /** When each place's first level started, from its first progress event. */
    const firstProgressAt: number[] = [];
    const results = await Promise.all(
      shared.plans.map((p, i) =>
        runHere(p, opens[i]!, (e) => {
          if (e.type === 'progress' && e.levelIndex === 0 && firstProgressAt[i] === undefined)
            firstProgressAt[i] = Date.now() - e.elapsedMs;
        }),
      ),
    );
    for (const r of results) {
      assert.equal(r.state, 'completed');
      for (const level of r.measurements[0]!.load!.levels)
        assert.ok(
          (level.startLagMs ?? 99) < 50,
          `level started ${level.startLagMs} ms after the common start`,
        );
      assertMatchesSchema('result', r);
    }
    // No place started its first level before the common start (the clock started within a few ms of it).
    for (const at of firstProgressAt)
      assert.ok(at >= startAtMs - 3, `a level started ${at - startAtMs} ms after the common start`);
    const merged = mergeFanOut(
      { plan: whole, split: shared.split, note: shared.note, startAtMs },
      results.map((result, i) => ({ label: `place ${i}`, result })),
    );
    assert.ok(merged);
    assertMatchesSchema('result', merged);
    const load = merged.measurements[0]!.load!;
    assert.deepEqual(
      load.levels.map((l) => l.level),
      [90, 150],
    );
    for (const [i, level] of load.levels.entries()) {
      const parts = results.map((r) => r.measurements[0]!.load!.levels[i]!);
      const sum = (f: (l: (typeof parts)[number]) => number) => parts.reduce((s, l) => s + f(l), 0);
      assert.equal(
        level.stats.count,
        sum((l) => l.stats.count),
        'merged count = sum of counts',
      );
      assert.equal(
        level.corrected!.count,
        sum((l) => l.corrected!.count),
      );
      assert.ok(Math.abs(level.throughput - sum((l) => l.throughput)) < 0.01, 'merged throughput = sum');
      assert.ok(Math.abs(level.starts!.achievedRate - sum((l) => l.starts!.achievedRate)) < 0.01);
      assert.equal(
        level.starts!.asked,
        sum((l) => l.starts!.asked),
      );
      assert.equal(
        level.starts!.late,
        sum((l) => l.starts!.late),
      );
      assert.equal(
        level.starts!.dropped,
        sum((l) => l.starts!.dropped),
      );
      assert.ok(
        level.starts!.achievedRate > level.level * 0.8,
        `achieved ${level.starts!.achievedRate}/s of ${level.level}`,
      );
      // The merged p99 lies within the places' own p99s: a merge of histograms, not an average.
      const p99s = parts.map((l) => l.stats.p99Us);
      assert.ok(level.stats.p99Us >= Math.min(...p99s) && level.stats.p99Us <= Math.max(...p99s));
    }
    assert.equal(
      merged.measurements[0]!.stats.count,
      results.reduce((s, r) => s + r.measurements[0]!.stats.count, 0),
    );
    assert.equal(load.fanOut?.places.length, 3);
    assert.equal(load.fanOut?.split, 'rate');
    assert.deepEqual(
      load.fanOut?.places[1]?.levels.map((l) => l.share),
      [30, 50],
    );
    assert.match(merged.environment.location.label, /fan-out over 3 places/);
    assert.deepEqual(
      opens.map((o) => o.n),
      [0, 0, 0],
    );
  });
});

/**
 * The `schedule` and `load` kinds against an in-memory driver that takes real time (timers), so the
 * open schedules, the waiting line and the thresholds run exactly as against a server.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import type { Driver, DriverConnection } from '../../src/core/driver';
import { runPlan } from '../../src/core/engine';
import type { LoadPlanSpec, SchedulePlanSpec } from '../../src/shared/loadPlan';
import { LOAD_DEFAULTS } from '../../src/shared/loadPlan';
import { PLAN_DEFAULTS, type PlanSpec } from '../../src/shared/plan';
import type { Measurement, RunResult } from '../../src/shared/result';
import { fakeInfo, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';
import { assertMatchesSchema } from '../helpers/schema';

interface TimedBehaviour {
  connectMs: number;
  /** Real milliseconds per query, by call number. */
  queryMs: (call: number) => number;
  /** Connections beyond this are refused, like max_connections. */
  maxOpen?: number;
  /** Real milliseconds a graceful close takes (a server's goodbye). */
  closeMs?: number;
}

class Counts {
  connects = 0;
  queries = 0;
  open = 0;
  refused = 0;
}

function timedDriver(behaviour: TimedBehaviour, counts: Counts): Driver {
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
  return {
    info: fakeInfo('timed'),
    async connect() {
      counts.connects += 1;
      await wait(behaviour.connectMs);
      if (behaviour.maxOpen !== undefined && counts.open >= behaviour.maxOpen) {
        counts.refused += 1;
        throw Object.assign(new Error('sorry, too many clients already'), { code: 'ECONNRESET' });
      }
      counts.open += 1;
      let closed = false;
      // A query's wait, dropped with the connection as a socket's would be: a query that never
      // answers (60 s) must not keep the test process alive after the run destroyed its connection.
      const waits = new Set<NodeJS.Timeout>();
      const end = () => {
        if (!closed) counts.open -= 1;
        closed = true;
        for (const timer of waits) clearTimeout(timer);
        waits.clear();
      };
      const conn: DriverConnection = {
        query() {
          const call = counts.queries++;
          return new Promise<void>((resolve) => {
            const timer = setTimeout(() => {
              waits.delete(timer);
              resolve();
            }, behaviour.queryMs(call));
            waits.add(timer);
          });
        },
        async close() {
          if (behaviour.closeMs) await wait(behaviour.closeMs);
          end();
        },
        destroy: end,
      };
      return conn;
    },
  };
}

async function run(
  behaviour: TimedBehaviour,
  settings: { schedule?: SchedulePlanSpec; load?: LoadPlanSpec; timeouts?: PlanSpec['timeouts'] },
  signal?: AbortSignal,
): Promise<{ result: RunResult; m: Measurement; counts: Counts }> {
  const counts = new Counts();
  const kind = settings.schedule ? 'schedule' : 'load';
  const result = await runPlan(plan([target('timed')], { kinds: [kind], ...settings }), {
    registry: fakeRegistry([timedDriver(behaviour, counts)]),
    resolveConnection: async () => 'fake://user:pw@host/db',
    tool: TOOL,
    watchClient: false,
    ...(signal ? { signal } : {}),
  });
  const m = result.measurements.find((x) => x.kind === kind);
  assert.ok(m, 'a measurement for the kind');
  return { result, m, counts };
}

const ms = (us: number) => us / 1000;

describe('request schedule', () => {
  test('per-position p50s, totals and the model: query 1 pays the connect, 2..K only the query', async () => {
    // The connect far longer than a query: a query that paid the connect (46 ms and more) and one
    // that did not (6 ms) lie 40 ms apart, so the bounds between them sit 20 ms from either side,
    // beyond what timer lateness on a loaded 2-core host moves a p50 of 40 requests by.
    const { result, m, counts } = await run(
      { connectMs: 40, queryMs: () => 6 },
      { schedule: { rate: 40, queries: 3, durationS: 1, connection: 'new' } },
    );
    const s = m.schedule;
    assert.ok(s, 'schedule figures');
    assert.equal(s.positions.length, 3);
    assert.equal(s.starts.asked, 40);
    assert.equal(s.starts.started, 40);
    assert.equal(counts.connects, 40, 'a new connection per request');
    assert.equal(counts.open, 0, 'every connection closed');
    const [q1, q2, q3] = s.positions.map((p) => ms(p.p50Us));
    // Timers fire by libuv's cached loop time, so a 6 ms timer can measure up to ~1 ms short on hrtime.
    assert.ok(q1! >= 44 && q1! < 80, `query 1 p50 ${q1} ms (connect 40 + query 6)`);
    assert.ok(q2! >= 4.5 && q2! < 26, `query 2 p50 ${q2} ms (query 6; with the connect it would be 46)`);
    assert.ok(q3! >= 4.5 && q3! < 26, `query 3 p50 ${q3} ms (query 6; with the connect it would be 46)`);
    assert.equal(s.totals.count, 40);
    assert.equal(m.stats.count, 40, 'the measurement counts requests');
    const model = s.model;
    assert.ok(model, 'a model');
    assert.ok(
      Math.abs(model.mean.differenceRate) < 0.1,
      `mean totals within 10% of the model: ${JSON.stringify(model.mean)}`,
    );
    assert.equal(model.p50.predictedUs, model.p50.initialUs + 2 * model.p50.subsequentUs);
    assert.equal(model.p50.differenceUs, model.p50.measuredUs - model.p50.predictedUs);
    assertMatchesSchema('result', result);
  });

  test('the schedule is open: slow requests do not delay the next start', async () => {
    // Each request takes ~100 ms at 50 requests per second: five run at once.
    const { m } = await run(
      { connectMs: 1, queryMs: () => 33 },
      { schedule: { rate: 50, queries: 3, durationS: 0.6, connection: 'new' } },
    );
    const s = m.schedule!;
    assert.equal(s.starts.started, 30);
    assert.ok(s.starts.achievedRate > 45, `achieved ${s.starts.achievedRate}/s`);
    assert.ok(s.starts.latenessP50Us < 5_000, `start lateness p50 ${s.starts.latenessP50Us} µs`);
  });

  test('pooled requests reuse idle connections', async () => {
    const { m, counts } = await run(
      { connectMs: 5, queryMs: () => 2 },
      { schedule: { rate: 20, queries: 2, durationS: 1, connection: 'pooled' } },
    );
    assert.equal(m.schedule!.totals.count, 20);
    assert.ok(counts.connects < 5, `${counts.connects} connects for 20 pooled requests`);
    assert.equal(counts.open, 0);
  });
});

describe('request schedule: cancel', () => {
  test('cancel stops a schedule within a second, mid-request, and closes every connection', async () => {
    const controller = new AbortController();
    const started = performance.now();
    setTimeout(() => controller.abort(), 300);
    const { result, counts } = await run(
      { connectMs: 5, queryMs: () => 80 },
      { schedule: { rate: 10, queries: 3, durationS: 30, connection: 'new' } },
      controller.signal,
    );
    const took = performance.now() - started;
    assert.equal(result.state, 'cancelled');
    assert.ok(took < 1_300, `stopped after ${Math.round(took)} ms`);
    assert.ok(counts.connects >= 3, 'requests were running');
    assert.equal(counts.open, 0);
    assertMatchesSchema('result', result);
  });
});

describe('load: open model', () => {
  test('one stall shows in the corrected p99, not in the uncorrected p99', async () => {
    // 200 arrivals/s on one connection, 1 ms each; query 60 stalls for 300 ms: the ~60 arrivals behind it wait.
    const { result, m } = await run(
      { connectMs: 1, queryMs: (call) => (call === 60 ? 300 : 1) },
      { load: { ...LOAD_DEFAULTS, model: 'open', levels: [200], connections: 1, durationS: 2 } },
    );
    const level = m.load?.levels[0];
    assert.ok(level?.corrected && level.starts, 'open-model figures');
    assert.ok(level.corrected.p99Us > 200_000, `corrected p99 ${ms(level.corrected.p99Us)} ms`);
    assert.ok(level.stats.p99Us < 100_000, `uncorrected p99 ${ms(level.stats.p99Us)} ms`);
    assert.ok(level.stats.maxUs >= 290_000, 'the stalled query itself is kept (max)');
    assert.ok(level.starts.late > 20, `${level.starts.late} late starts`);
    assert.equal(level.starts.asked, 400);
    assert.equal(level.starts.started + level.starts.dropped, 400);
    assertMatchesSchema('result', result);
  });

  test('a target slower than the arrival rate trips the level on its achieved rate', async () => {
    const { m } = await run(
      { connectMs: 1, queryMs: () => 25 },
      { load: { ...LOAD_DEFAULTS, model: 'open', levels: [10, 100], connections: 1, durationS: 0.5 } },
    );
    const [ten, hundred] = m.load!.levels;
    assert.equal(ten!.tripped, undefined, JSON.stringify(ten!.starts));
    // One connection serves 40/s of the 100/s asked: the waiting line drains long after the schedule.
    assert.ok(hundred!.starts!.achievedRate < 60, `achieved ${hundred!.starts!.achievedRate}/s`);
    assert.match(hundred!.tripped ?? '', /achieved .* of 100\/s asked/);
    assert.ok(hundred!.corrected!.p99Us > 300_000, 'the wait shows in the corrected figures');
    assert.equal(m.load!.knee?.level, 100);
  });
});

describe('load: closed model and sweeps', () => {
  test('throughput grows with connections until the server refuses them; the knee names the error rate', async () => {
    const { result, m, counts } = await run(
      { connectMs: 1, queryMs: () => 5, maxOpen: 2 },
      { load: { ...LOAD_DEFAULTS, model: 'closed', levels: [1, 2, 4], durationS: 0.5 } },
    );
    const load = m.load!;
    assert.deepEqual(
      load.levels.map((l) => l.level),
      [1, 2, 4],
    );
    const [one, two, four] = load.levels;
    assert.ok(two!.throughput > one!.throughput * 1.5, `1: ${one!.throughput}/s, 2: ${two!.throughput}/s`);
    assert.equal(one!.tripped, undefined);
    assert.equal(two!.tripped, undefined);
    assert.match(four!.tripped ?? '', /error rate/);
    assert.deepEqual(load.knee?.level, 4);
    assert.ok(counts.refused > 0);
    assert.equal(counts.open, 0, 'every connection closed');
    assert.ok(m.stats.errors > 0 && Object.keys(m.errorsByClass).length > 0, JSON.stringify(m.errorsByClass));
    assertMatchesSchema('result', result);
  });

  test('a latency threshold marks the level where queries start to queue', async () => {
    // A server that serves one query at a time: latency grows with the connections.
    let busyUntil = 0;
    const serial = (): number => {
      const now = performance.now();
      busyUntil = Math.max(busyUntil, now) + 4;
      return busyUntil - now;
    };
    const { m } = await run(
      { connectMs: 1, queryMs: serial },
      { load: { ...LOAD_DEFAULTS, levels: [1, 4], durationS: 0.4, maxLatencyMs: 10, latencyStat: 'p50' } },
    );
    const [one, four] = m.load!.levels;
    assert.equal(one!.tripped, undefined, `level 1 p50 ${ms(one!.stats.p50Us)} ms`);
    assert.match(four!.tripped ?? '', /p50 .* > 10 ms/);
    assert.equal(m.load!.knee?.level, 4);
  });

  test('a query that never answers is cut at the query timeout, its connection dropped, the level goes on', async () => {
    // Queries 0-7 answer; each worker's next query hangs for good. Every worker reconnects after
    // its timeout, so the level ends on time with answers and timeouts both counted.
    const started = performance.now();
    const { m, counts } = await run(
      { connectMs: 1, queryMs: (call) => (call < 8 || call >= 16 ? 2 : 60_000) },
      {
        load: { ...LOAD_DEFAULTS, levels: [8], durationS: 0.6 },
        timeouts: { ...PLAN_DEFAULTS.timeouts, queryMs: 150 },
      },
    );
    const took = performance.now() - started;
    const level = m.load!.levels[0]!;
    assert.ok(took < 2_000, `the level ended after ${Math.round(took)} ms`);
    assert.equal(m.errorsByClass.timeout, 8, JSON.stringify(m.errorsByClass));
    assert.equal(level.stats.errors, 8);
    assert.ok(level.stats.count > 16, `${level.stats.count} answers`);
    // The 8 hung connections were destroyed and replaced; all closed at the end.
    assert.equal(counts.connects, 16);
    assert.equal(counts.open, 0);
    assert.ok(
      level.stats.maxUs < 100_000,
      `no answer is timed past its timeout: max ${level.stats.maxUs} µs`,
    );
  });

  test("closing the level's connections is not part of its duration or throughput", async () => {
    // Each graceful close takes 1.5 s; the level asked for 0.3 s of queries.
    const { m, counts } = await run(
      { connectMs: 1, queryMs: () => 5, closeMs: 1_500 },
      { load: { ...LOAD_DEFAULTS, levels: [4], durationS: 0.3 } },
    );
    const level = m.load!.levels[0]!;
    assert.equal(counts.open, 0, 'every connection closed');
    assert.ok(
      level.durationUs < 1_000_000,
      `the level lasted ${level.durationUs} µs: its connections' closing was counted in it`,
    );
    const expected = (level.stats.count * 1e6) / Math.max(level.durationUs, 300_000);
    assert.ok(Math.abs(level.throughput - expected) < 1, `${level.throughput} q/s, ${expected} expected`);
  });

  // Cancel 300 ms in, with queries answering in 3 ms and with queries still waiting for an answer
  // that never comes (a level's cancel subscription must end those too, not only the loop).
  for (const [what, queryMs] of [
    ['a load level', 3],
    ['queries that are still waiting for their answer', 60_000],
  ] as const) {
    test(`cancel stops ${what} within a second and closes every connection`, async () => {
      const controller = new AbortController();
      const started = performance.now();
      setTimeout(() => controller.abort(), 300);
      const { result, counts } = await run(
        { connectMs: 1, queryMs: () => queryMs },
        { load: { ...LOAD_DEFAULTS, levels: [8], durationS: 30 } },
        controller.signal,
      );
      const took = performance.now() - started;
      assert.equal(result.state, 'cancelled');
      assert.ok(took < 1_300, `stopped after ${Math.round(took)} ms`);
      assert.equal(counts.open, 0);
    });
  }
});

describe('panel view model', () => {
  test('carries each target’s levels and schedule figures, and nothing for runs without them', async () => {
    const { buildRunViewModel } = await import('../../src/extension/model/runViewModel');
    const { result } = await run(
      { connectMs: 1, queryMs: () => 2 },
      { load: { ...LOAD_DEFAULTS, levels: [1, 2], durationS: 0.2 } },
    );
    const view = buildRunViewModel(result);
    assert.deepEqual(
      view.load?.map((l) => [l.target, l.figures.levels.map((x) => x.level)]),
      [['timed', [1, 2]]],
    );
    assert.equal(view.schedules, undefined);
    const scheduled = await run(
      { connectMs: 1, queryMs: () => 2 },
      { schedule: { rate: 20, queries: 2, durationS: 0.3, connection: 'new' } },
    );
    const scheduleView = buildRunViewModel(scheduled.result);
    assert.equal(scheduleView.schedules?.[0]?.figures.positions.length, 2);
    assert.equal(scheduleView.load, undefined);
  });
});

describe('panel view model: the open model’s headline', () => {
  test('load: the panel’s figures are the saved result’s corrected ones, the service time beside them', async () => {
    const { buildRunViewModel } = await import('../../src/extension/model/runViewModel');
    // One connection, 4 ms queries, 400 arrivals/s: the queue grows, so corrected and service differ.
    const { result, m } = await run(
      { connectMs: 1, queryMs: () => 4 },
      { load: { ...LOAD_DEFAULTS, model: 'open', levels: [50, 400], durationS: 0.3, connections: 1 } },
    );
    const view = buildRunViewModel(result);
    const entry = view.load?.[0];
    assert.equal(entry?.timedFrom, 'intended start');
    const saved = m.load!.levels;
    assert.equal(entry.levels.length, saved.length);
    for (const [k, level] of entry.levels.entries()) {
      assert.ok(saved[k]!.corrected, 'the saved level has corrected figures');
      assert.deepEqual(level.latency, saved[k]!.corrected, `level ${level.level}: headline = corrected`);
      assert.deepEqual(level.service, saved[k]!.stats, `level ${level.level}: service = uncorrected`);
    }
    const queued = entry.levels[1]!;
    assert.ok(
      queued.latency.p99Us > queued.service!.p99Us,
      `a queue shows in the corrected p99 (${queued.latency.p99Us} µs) over the service p99 (${queued.service!.p99Us} µs)`,
    );
    // The statistics table and the card: the measurement's corrected stats, named; the service time beside.
    const { shownStats } = await import('../../src/extension/model/runViewModel');
    const row = view.stats.find((r) => r.kind === 'load');
    // The table shows what the count supports (a p99.9 needs 1,000 samples): the saved stats, so withheld.
    assert.deepEqual(row?.stats, shownStats(m.stats));
    assert.ok(m.load!.service, 'the saved result has the service time');
    assert.deepEqual(row.service, shownStats(m.load!.service));
    assert.ok(m.stats.p99Us >= m.load!.service.p99Us, 'the saved stats are the corrected ones');
    // The card pools no levels into one "load p50" (a figure of no level): it names the levels instead.
    assert.equal(
      view.cards[0]?.kinds.find((k) => k.kind === 'load'),
      undefined,
    );
    assert.equal(view.cards[0]?.loadLevels, m.load!.levels.length);
  });

  test('closed model: the service time is the headline and nothing claims a correction', async () => {
    const { buildRunViewModel } = await import('../../src/extension/model/runViewModel');
    const { result, m } = await run(
      { connectMs: 1, queryMs: () => 2 },
      { load: { ...LOAD_DEFAULTS, levels: [1, 2], durationS: 0.2 } },
    );
    const view = buildRunViewModel(result);
    const entry = view.load?.[0];
    assert.equal(entry?.timedFrom, 'issue');
    assert.deepEqual(
      entry.levels.map((l) => [l.latency, l.service]),
      m.load!.levels.map((l) => [l.stats, undefined]),
    );
    assert.equal(view.stats.find((r) => r.kind === 'load')?.service, undefined);
    assert.equal(view.cards[0]?.kinds.find((k) => k.kind === 'load')?.corrected, undefined);
  });

  test('schedule: request totals from the intended start, the service totals beside them', async () => {
    const { buildRunViewModel } = await import('../../src/extension/model/runViewModel');
    const { result, m } = await run(
      { connectMs: 1, queryMs: () => 3 },
      { schedule: { rate: 40, queries: 2, durationS: 0.3, connection: 'pooled' } },
    );
    const view = buildRunViewModel(result);
    const entry = view.schedules?.[0];
    assert.ok(m.schedule!.serviceTotals, 'the saved result has the service totals');
    assert.deepEqual(entry?.totals, m.schedule!.totals);
    assert.deepEqual(entry.serviceTotals, m.schedule!.serviceTotals);
    const { shownStats } = await import('../../src/extension/model/runViewModel');
    const row = view.stats.find((r) => r.kind === 'schedule');
    assert.deepEqual(
      [row?.stats, row?.service],
      [shownStats(m.stats), shownStats(m.schedule!.serviceTotals)],
    );
    assert.equal(view.cards[0]?.kinds.find((k) => k.kind === 'schedule')?.corrected, true);
  });
});

describe('Markdown', () => {
  test('a schedule run prints the per-position table, the model and its difference, and a chart', async () => {
    const { formatMarkdown } = await import('../../src/report/markdown');
    const { result, m } = await run(
      { connectMs: 4, queryMs: () => 2 },
      { schedule: { rate: 20, queries: 3, durationS: 0.5, connection: 'new' } },
    );
    const text = formatMarkdown(result);
    assert.match(
      text,
      /## Request schedule: timed\n\n20 requests per second for 0\.5 s, 3 consecutive queries each, a new connection per request/,
    );
    assert.match(text, /^\| query 1 \(initial\) \| 10 \|/m);
    assert.match(text, /^\| query 3 \| 10 \|/m);
    assert.match(text, /^\| \*\*request total\*\* \(from the intended start\) \| 10 \|/m);
    const p50 = m.schedule!.model!.p50;
    const diff = `${p50.differenceUs > 0 ? '+' : ''}${(p50.differenceUs / 1000).toFixed(3)}`;
    assert.ok(text.includes(`| p50 | ${(p50.initialUs / 1000).toFixed(3)} | `), text);
    assert.ok(text.includes(`| ${diff} (`), `the p50 difference ${diff} is printed`);
    assert.match(text, /x-axis \["query 1", "query 2", "query 3", "total", "model"\]/);
    assert.doesNotMatch(
      text,
      /samples per target and kind after/,
      'no sample-count sentence for a duration-only run',
    );
  });
});

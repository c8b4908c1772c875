/**
 * The database's own time in the result: per sample from each answer, per run on a connection of
 * its own around a kind's samples, or a note; a refused source never fails the run.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Driver, ServerTimeSupport } from '../../src/core/driver';
import { runPlan } from '../../src/core/engine';
import { runResultProblem } from '../../src/core/validate/validateRunResult';
import { NOT_GIVEN, type ServerTime } from '../../src/shared/serverTime';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';
import { assertMatchesSchema } from '../helpers/schema';

const resolveConnection = async () => 'fake://user:pw@host/db';

interface Extra {
  support?: ServerTimeSupport;
  perSample?: (call: number) => number | undefined;
  /** The per-run reading, or the error its finish throws. */
  perRun?: () => Promise<ServerTime>;
  /** Statements the per-run reading saw, and when (relative to the samples). */
  log?: string[];
}

function withServerTime(base: Driver, extra: Extra): Driver {
  let answers = 0;
  return {
    ...base,
    ...(extra.support ? { serverTime: extra.support } : {}),
    async connect(options) {
      const conn = await base.connect(options);
      return {
        ...conn,
        // The answer is the value serverTimeOf gets: here, its call number.
        query: (workload) => conn.query(workload).then(() => answers++),
        ...(extra.perSample
          ? { serverTimeOf: (answer: unknown) => extra.perSample?.(answer as number) }
          : {}),
        ...(extra.perRun
          ? {
              serverTimeRun: async (workload: string) => {
                extra.log?.push(`start:${workload}`);
                return { finish: () => (extra.log?.push('finish'), extra.perRun!()) };
              },
            }
          : {}),
      };
    },
  };
}

async function run(extra: Extra, kinds: ('initial' | 'subsequent')[] = ['initial', 'subsequent']) {
  const clock = new FakeClock();
  const stats = new FakeDriverStats();
  const driver = withServerTime(fakeDriver('a', clock, { connectUs: [900], queryUs: [300] }, stats), extra);
  const result = await runPlan(plan([target('a')], { kinds, iterations: 5, warmup: 1 }), {
    registry: fakeRegistry([driver]),
    resolveConnection,
    tool: TOOL,
    clock,
    watchClient: false,
  });
  assertMatchesSchema('result', JSON.parse(JSON.stringify(result)));
  assert.equal(runResultProblem(JSON.parse(JSON.stringify(result))), undefined);
  return { result, stats };
}

test('per sample: the p50 of the answers own times, with its source, kept on each sample', async () => {
  const { result } = await run({
    support: { per: 'sample', source: 'planetscale-timing', absent: 'none sent' },
    // 100, 200, ... µs: the warm-up's answer (call 0) is not among the measured ones.
    perSample: (call) => (call + 1) * 100,
  });
  for (const m of result.measurements) {
    assert.equal(m.serverTime?.source, 'planetscale-timing', m.kind);
    assert.equal(m.serverTime?.samples, 5);
    assert.equal(m.serverTime?.figure, 'p50');
    const kept = m.samples.values.map((s) => s.serverUs);
    assert.equal(kept.length, 5);
    assert.ok(
      kept.every((us) => typeof us === 'number' && us >= 200),
      `${m.kind}: ${kept.join(',')}`,
    );
  }
  // initial: calls 1..5 measured -> 200..600 µs, p50 400.
  assert.equal(result.measurements[0]?.serverTime?.p50Us, 400);
});

test('per sample, but no answer said: the driver note, with the source that was looked for', async () => {
  const { result } = await run({
    support: { per: 'sample', source: 'hrana', absent: 'no answer carried query_duration_ms' },
    perSample: () => undefined,
  });
  for (const m of result.measurements)
    assert.deepEqual(m.serverTime, { note: 'no answer carried query_duration_ms', source: 'hrana' });
});

test('a driver whose server says nothing: "not given by this server"', async () => {
  const { result } = await run({});
  for (const m of result.measurements) assert.deepEqual(m.serverTime, { note: NOT_GIVEN });
});

test('per run: read on a side connection around each kind, outside the samples', async () => {
  const log: string[] = [];
  const figure: ServerTime = { p50Us: 20_100, source: 'explain-analyze', samples: 1, figure: 'once' };
  const { result, stats } = await run({
    support: { per: 'run', sources: ['explain-analyze'] },
    perRun: async () => figure,
    log,
  });
  assert.deepEqual(log, ['start:SELECT 1', 'finish', 'start:SELECT 1', 'finish']);
  for (const m of result.measurements) {
    assert.deepEqual(m.serverTime, figure);
    // The side connection is no sample: 5 measured + 1 warm-up, none failed.
    assert.equal(m.stats.count, 5);
  }
  // initial: 6 connects; subsequent: its 4 warm connections; the side connections: 1 per kind. All closed.
  assert.equal(stats.connects, 6 + 4 + 2);
  assert.equal(stats.open, 0);
});

test('per run, refused (a privilege, an extension): one note, the run green', async () => {
  const { result } = await run(
    {
      support: { per: 'run', sources: ['pg_stat_statements'] },
      perRun: () => Promise.reject(new Error('relation "pg_stat_statements" does not exist')),
    },
    ['subsequent'],
  );
  const m = result.measurements[0]!;
  assert.equal(result.state, 'completed');
  assert.equal(m.failed, false);
  assert.equal(m.stats.errors, 0);
  assert.match(m.serverTime?.note ?? '', /could not read the database's own time: .*does not exist/);
  assert.equal(m.serverTime?.p50Us, undefined);
});

test('a saved result: without serverTime it reads; a negative server time is refused', async () => {
  const { result } = await run({
    support: { per: 'sample', source: 'planetscale-timing', absent: 'x' },
    perSample: () => 150,
  });
  const old = JSON.parse(JSON.stringify(result));
  for (const m of old.measurements) {
    delete m.serverTime;
    for (const s of m.samples.values) delete s.serverUs;
  }
  assert.equal(runResultProblem(old), undefined);
  const bad = JSON.parse(JSON.stringify(result));
  bad.measurements[0].samples.values[0].serverUs = -5;
  assert.match(runResultProblem(bad) ?? '', /serverUs/);
  const badFigure = JSON.parse(JSON.stringify(result));
  badFigure.measurements[0].serverTime.p50Us = -1;
  assert.match(runResultProblem(badFigure) ?? '', /serverTime\.p50Us/);
});

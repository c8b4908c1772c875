/** Reading the database's own time from answers: Hrana's query_duration_ms, Server-Timing, PlanetScale's time. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { HranaDurations, pipelineDurationMs } from '../../src/drivers/hranaDurations';
import { planetscaleServerUs } from '../../src/drivers/planetscale';
import { serverTimingDatabaseMs } from '../../src/drivers/serverTimingHeader';

test('Hrana: the executed statements of a pipeline answer, summed; none when no result says', () => {
  const execute = (ms?: number) => ({
    type: 'ok',
    response: {
      type: 'execute',
      result: { cols: [], rows: [], ...(ms === undefined ? {} : { query_duration_ms: ms }) },
    },
  });
  const close = { type: 'ok', response: { type: 'close' } };
  assert.equal(pipelineDurationMs({ results: [execute(20.4), close] }), 20.4);
  assert.equal(pipelineDurationMs({ results: [execute(1.5), execute(2)] }), 3.5);
  const batch = {
    type: 'ok',
    response: {
      type: 'batch',
      result: { step_results: [{ query_duration_ms: 1 }, null, { query_duration_ms: 2 }] },
    },
  };
  assert.equal(pipelineDurationMs({ results: [batch] }), 3);
  assert.equal(pipelineDurationMs({ results: [execute(), close] }), undefined);
  assert.equal(pipelineDurationMs({ error: 'x' }), undefined);
});

test('Hrana: the wrapped fetch reads the answer the client parses, once, then forgets it', async () => {
  const durations = new HranaDurations();
  const body = { results: [{ type: 'ok', response: { type: 'execute', result: { query_duration_ms: 7 } } }] };
  let parses = 0;
  const inner = async () => ({ json: async () => (parses++, body) }) as unknown as Response;
  const response = await durations.wrap(inner)('http://127.0.0.1/v3/pipeline');
  assert.equal(durations.serverUs(), undefined, 'nothing before the client reads the body');
  assert.deepEqual(await response.json(), body);
  assert.equal(parses, 1);
  assert.equal(durations.serverUs(), 7000);
  assert.equal(durations.serverUs(), undefined, 'taken once');
});

test('Server-Timing: the database metric only (PostgREST: transaction), in ms', () => {
  const postgrest = 'jwt;dur=0.5, parse;dur=0.1, plan;dur=0.3, transaction;dur=20.2, response;dur=0.4';
  assert.equal(serverTimingDatabaseMs(postgrest), 20.2);
  assert.equal(serverTimingDatabaseMs('db;desc="Database";dur=3.25'), 3.25);
  assert.equal(serverTimingDatabaseMs('cache;desc="hit", app;dur=12'), undefined, 'not the database');
  assert.equal(serverTimingDatabaseMs('transaction'), undefined, 'a metric without dur');
  assert.equal(serverTimingDatabaseMs(null), undefined);
});

test("PlanetScale: the client's `time` (ms) as µs; 0 is the client's reading of no `timing`", () => {
  assert.equal(planetscaleServerUs({ time: 20.4 }), 20_400);
  assert.equal(planetscaleServerUs({ time: 0 }), undefined);
  assert.equal(planetscaleServerUs(undefined), undefined);
});

test('a sleep is read-only (EXPLAIN ANALYZE may run it); a function that changes state is not', async () => {
  const { classifySql } = await import('../../src/shared/classify');
  assert.equal(classifySql('SELECT pg_sleep(0.02)').readOnly, true);
  assert.equal(classifySql('SELECT SLEEP(0.02)').readOnly, true);
  assert.match(classifySql("SELECT nextval('s')").reason, /nextval\(\) changes state/);
});

test('a counter pair read before and after: the mean per execution in µs, or a note when none ran', async () => {
  const { counterDeltaRun } = await import('../../src/drivers/counterDelta');
  const reads = [
    { count: 10, total: 5_000_000_000 },
    { count: 30, total: 405_000_000_000 },
  ];
  const shape = {
    source: 'performance_schema' as const,
    unitUs: 1e-6,
    none: 'none ran',
    note: 'all sessions',
  };
  const run = await counterDeltaRun(async () => reads.shift()!, shape);
  // 400e9 ps over 20 executions: 20 ms each.
  assert.deepEqual(await run.finish(), {
    p50Us: 20_000,
    source: 'performance_schema',
    samples: 20,
    figure: 'mean',
    note: 'all sessions',
  });
  const idle = await counterDeltaRun(async () => ({ count: 3, total: 9 }), shape);
  assert.deepEqual(await idle.finish(), { note: 'none ran', source: 'performance_schema' });
});

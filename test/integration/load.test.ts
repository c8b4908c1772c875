/**
 * The `schedule` and `load` kinds against the real testbed: PostgreSQL through toxiproxy (known
 * latency, one injected stall), pgbouncer with a pool of 2 server connections, and PostgreSQL with a
 * role limited to 2 connections.
 */
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { runPlan } from '../../src/core/engine';
import { createRegistry } from '../../src/drivers/registry';
import { LOAD_DEFAULTS, type LoadPlanSpec, type SchedulePlanSpec } from '../../src/shared/loadPlan';
import { PLAN_DEFAULTS, type ProbeKind } from '../../src/shared/plan';
import type { Measurement, RunResult } from '../../src/shared/result';
import { createToxiProxy, type ToxiProxy } from '../fixtures/toxiproxy';
import { assertMatchesSchema } from '../helpers/schema';
import { assertNoSecret, testbedEnv, withUrl } from '../helpers/testbed';

async function probe(
  url: string,
  kind: ProbeKind,
  settings: { schedule?: SchedulePlanSpec; load?: LoadPlanSpec },
  query?: string,
  kinds: ProbeKind[] = [kind],
): Promise<{ result: RunResult; m: Measurement }> {
  const result = await runPlan(
    {
      ...PLAN_DEFAULTS,
      targets: [{ name: 'pg', driver: 'pg', connection: 'env:PG', ...(query ? { query } : {}) }],
      kinds,
      iterations: 20,
      warmup: 2,
      ...settings,
    },
    {
      registry: createRegistry(),
      resolveConnection: async () => url,
      tool: { name: 'dbprobe', version: 'test' },
    },
  );
  assertMatchesSchema('result', result);
  assertNoSecret([JSON.stringify(result)]);
  const m = result.measurements.find((x) => x.kind === kind);
  assert.ok(m, `a ${kind} measurement`);
  return { result, m };
}

/** p50 of new connection + first query through a proxy without toxics: the part of query 1 no toxic adds. */
async function initialP50(url: string): Promise<number> {
  const result = await runPlan(
    {
      ...PLAN_DEFAULTS,
      targets: [{ name: 'direct', driver: 'pg', connection: 'env:PG' }],
      kinds: ['initial'],
      iterations: 15,
      warmup: 2,
    },
    {
      registry: createRegistry(),
      resolveConnection: async () => url,
      tool: { name: 'dbprobe', version: 'test' },
    },
  );
  return result.measurements[0]?.stats.p50Us ?? 0;
}

const ms = (us: number) => Math.round(us / 100) / 10;
const ROUND_TRIP_MS = 20;

describe('request schedule through toxiproxy with 20 ms per round trip', () => {
  let proxy: ToxiProxy;
  let plain: ToxiProxy;
  before(async () => {
    const url = new URL(testbedEnv('DBPROBE_TEST_PG_URL'));
    const api = testbedEnv('DBPROBE_TEST_TOXIPROXY_URL');
    proxy = await createToxiProxy(api, `${url.hostname}:${url.port}`, 'sched');
    plain = await createToxiProxy(api, `${url.hostname}:${url.port}`, 'sched_plain');
    await proxy.addToxic('latency', { latency: ROUND_TRIP_MS, jitter: 0 });
  });
  after(async () => {
    await proxy?.remove();
    await plain?.remove();
  });

  // The blog's schedule (10/s x 3 queries) for 20 s, as the issue asks: 200 requests.
  test('10/s x 3 queries: query 1 = the handshake round trips + the query, queries 2 and 3 = one round trip, totals = the model', async () => {
    const url = withUrl(testbedEnv('DBPROBE_TEST_PG_URL'), (u) => (u.port = String(proxy.port)));
    const { result, m } = await probe(
      url,
      'schedule',
      { schedule: { rate: 10, queries: 3, durationS: 20, connection: 'new' } },
      undefined,
      ['initial', 'schedule'],
    );
    const s = m.schedule;
    assert.ok(s?.model, `schedule figures: ${JSON.stringify(m.firstErrors)}`);
    assert.equal(s.totals.errors, 0, JSON.stringify(m.firstErrors));
    assert.equal(s.totals.count, 200);
    const [q1, q2, q3] = s.positions.map((p) => ms(p.p50Us));
    // What a new connection costs without the toxic (SCRAM's hashing, the proxy's own hop, a busy
    // machine) is measured through the same proxy without it; the rest is round trips of 20 ms:
    // PostgreSQL's login and the first query.
    const local = ms(
      await initialP50(withUrl(testbedEnv('DBPROBE_TEST_PG_URL'), (u) => (u.port = String(plain.port)))),
    );
    const trips = (q1! - local) / ROUND_TRIP_MS;
    console.log(`query 1 p50 ${q1} ms = ${local} ms locally + ${trips.toFixed(2)} round trips of 20 ms`);
    assert.ok(trips >= 2.9 && trips <= 6, `query 1 paid ${trips.toFixed(2)} round trips`);
    // Query 1 is the initial kind's work: the two figures of one run agree.
    const initial = ms(result.measurements.find((x) => x.kind === 'initial')!.stats.p50Us);
    assert.ok(Math.abs(q1! - initial) < initial * 0.1, `query 1 p50 ${q1} ms vs initial p50 ${initial} ms`);
    for (const q of [q2!, q3!]) assert.ok(q >= 19.5 && q < 26, `subsequent p50 ${q} ms`);
    assert.ok(Math.abs(s.model.p50.differenceRate) < 0.1, `p50 model ${JSON.stringify(s.model.p50)}`);
    assert.ok(Math.abs(s.model.mean.differenceRate) < 0.1, `mean model ${JSON.stringify(s.model.mean)}`);
    assert.equal(s.starts.started, 200);
    assert.equal(s.starts.dropped, 0);
  });
});

describe('open model: one 500 ms stall of the server', () => {
  let proxy: ToxiProxy;
  before(async () => {
    const url = new URL(testbedEnv('DBPROBE_TEST_PG_URL'));
    proxy = await createToxiProxy(
      testbedEnv('DBPROBE_TEST_TOXIPROXY_URL'),
      `${url.hostname}:${url.port}`,
      'stall',
    );
  });
  after(() => proxy?.remove());

  test('shows in the corrected p99 and not in the uncorrected p99', async () => {
    const url = withUrl(testbedEnv('DBPROBE_TEST_PG_URL'), (u) => (u.port = String(proxy.port)));
    // Toxiproxy holds answers while a latency toxic is in place and lets them go when it is removed:
    // a 10 s latency removed after 500 ms is a stall of 500 ms.
    const stall = (async () => {
      await new Promise((resolve) => setTimeout(resolve, 1_500));
      await proxy.addToxic('latency', { latency: 10_000, jitter: 0 });
      await new Promise((resolve) => setTimeout(resolve, 500));
      await fetch(
        new URL(`/proxies/${proxy.name}/toxics/latency_downstream`, testbedEnv('DBPROBE_TEST_TOXIPROXY_URL')),
        {
          method: 'DELETE',
          signal: AbortSignal.timeout(5_000),
        },
      );
    })();
    const { m } = await probe(url, 'load', {
      load: { ...LOAD_DEFAULTS, model: 'open', levels: [100], connections: 1, durationS: 4 },
    });
    await stall;
    const level = m.load?.levels[0];
    assert.ok(level?.corrected && level.starts, `open-model figures: ${JSON.stringify(m.firstErrors)}`);
    assert.equal(level.stats.errors, 0, JSON.stringify(m.firstErrors));
    assert.ok(level.stats.maxUs > 400_000, `the stalled query: max ${ms(level.stats.maxUs)} ms`);
    assert.ok(level.corrected.p99Us > 300_000, `corrected p99 ${ms(level.corrected.p99Us)} ms`);
    assert.ok(level.stats.p99Us < 100_000, `uncorrected p99 ${ms(level.stats.p99Us)} ms`);
    assert.ok(level.starts.late >= 20, `${level.starts.late} starts waited behind the stall`);
  });
});

describe('sweeps: where the target stops keeping up', () => {
  const role = `dbprobe_limited_${randomUUID().slice(0, 8)}`;
  let admin: pg.Client;
  before(async () => {
    admin = new pg.Client({ connectionString: testbedEnv('DBPROBE_TEST_PG_ADMIN_URL') });
    await admin.connect();
    const password = testbedEnv('DBPROBE_TEST_PASSWORD').replace(/'/g, "''");
    await admin.query(`CREATE ROLE "${role}" LOGIN PASSWORD '${password}' CONNECTION LIMIT 2`);
  });
  after(async () => {
    await admin.query(`SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE usename = $1`, [role]);
    await admin.query(`DROP ROLE IF EXISTS "${role}"`);
    await admin.end();
  });

  test('pgbouncer with 2 server connections: throughput levels off and the latency threshold trips at 4', async () => {
    const url = withUrl(testbedEnv('DBPROBE_TEST_PGBOUNCER_URL'), (u) => (u.pathname = '/dbprobe_small'));
    const { m } = await probe(
      url,
      'load',
      {
        load: {
          ...LOAD_DEFAULTS,
          levels: [1, 2, 4, 8],
          durationS: 1.5,
          maxLatencyMs: 15,
          latencyStat: 'p50',
        },
      },
      'SELECT pg_sleep(0.01)',
    );
    const levels = m.load!.levels;
    const [one, two, four, eight] = levels;
    const curve = levels
      .map((l) => `${l.level}: ${Math.round(l.throughput)}/s p50 ${ms(l.stats.p50Us)} ms`)
      .join(', ');
    assert.equal(m.stats.errors, 0, JSON.stringify(m.firstErrors));
    assert.ok(two!.throughput > one!.throughput * 1.6, curve);
    // Two server connections, each sleeping 10 ms a query, serve at most 200/s however many clients
    // queue for them: past that the curve is flat. (Not "eight below two x 1.3": level 2 pays the
    // client's own turn between queries, which pgbouncer's queue hides from 4 on; one CI run gave
    // 128/s at 2 and 172/s at 4 and 8.)
    assert.ok(eight!.throughput < 2 * 100 * 1.05, `two server connections cap it at 200/s: ${curve}`);
    assert.ok(eight!.throughput < four!.throughput * 1.25, `it levels off from 4: ${curve}`);
    assert.equal(two!.tripped, undefined, curve);
    assert.match(four!.tripped ?? '', /p50 .* > 15 ms/, curve);
    assert.equal(m.load!.knee?.level, 4, curve);
  });

  test('PostgreSQL with a role limited to 2 connections: the error threshold trips at 4', async () => {
    const url = withUrl(testbedEnv('DBPROBE_TEST_PG_URL'), (u) => (u.username = role));
    const { m } = await probe(
      url,
      'load',
      { load: { ...LOAD_DEFAULTS, levels: [1, 2, 4], durationS: 1.5 } },
      'SELECT pg_sleep(0.01)',
    );
    const [one, two, four] = m.load!.levels;
    const curve = m
      .load!.levels.map((l) => `${l.level}: ${Math.round(l.throughput)}/s errors ${l.stats.errors}`)
      .join(', ');
    assert.ok(two!.throughput > one!.throughput * 1.6, curve);
    assert.equal(two!.stats.errors, 0, curve);
    assert.match(four!.tripped ?? '', /error rate/, curve);
    assert.equal(m.load!.knee?.level, 4, curve);
    assert.match(m.firstErrors[0]?.message ?? '', /too many connections/, JSON.stringify(m.firstErrors[0]));
  });
});

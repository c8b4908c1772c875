/**
 * A pair of pg targets on one database, "direct" (PostgreSQL) and "pooled" (pgbouncer in transaction
 * mode in front of it), probed together. Counting TCP pass-throughs in front of both count client
 * connections; pg_stat_database counts the Postgres sessions: pooled `initial` opens a client
 * connection per sample but pgbouncer keeps its server connections, which is what pooling buys.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { waitFor } from '../fixtures/connections';
import { startCountingProxy, type CountingProxy } from '../fixtures/countingProxy';
import { describeErrors, measurement, probeTargets } from '../fixtures/probe';
import { pgCounter } from '../helpers/serverCounters';
import { assertNoSecret, testbedEnv, withUrl } from '../helpers/testbed';

const ITERATIONS = 15;
const WARMUP = 2;
const SAMPLES = ITERATIONS + WARMUP;

describe('pg direct vs pooled (pgbouncer)', () => {
  let direct: CountingProxy;
  let pooled: CountingProxy;
  before(async () => {
    const pgUrl = new URL(testbedEnv('DBPROBE_TEST_PG_URL'));
    const bouncer = new URL(testbedEnv('DBPROBE_TEST_PGBOUNCER_URL'));
    direct = await startCountingProxy(pgUrl.hostname, Number(pgUrl.port));
    pooled = await startCountingProxy(bouncer.hostname, Number(bouncer.port));
  });
  after(async () => {
    await direct?.close();
    await pooled?.close();
  });

  const targets = () => [
    {
      name: 'direct',
      driver: 'pg',
      url: withUrl(testbedEnv('DBPROBE_TEST_PG_URL'), (u) => (u.port = String(direct.port))),
    },
    {
      name: 'pooled',
      driver: 'pg',
      url: withUrl(testbedEnv('DBPROBE_TEST_PGBOUNCER_URL'), (u) => (u.port = String(pooled.port))),
    },
  ];

  test('initial: a client connection per sample on both; Postgres sessions only for direct', async () => {
    const database = new URL(testbedEnv('DBPROBE_TEST_PG_URL')).pathname.slice(1);
    const counter = await pgCounter(testbedEnv('DBPROBE_TEST_PG_ADMIN_URL'), database);
    try {
      const sessionsBefore = await counter.accepted();
      const directBefore = direct.stats();
      const pooledBefore = pooled.stats();
      const result = await probeTargets(targets(), {
        kinds: ['initial'],
        iterations: ITERATIONS,
        warmup: WARMUP,
      });
      for (const name of ['direct', 'pooled']) {
        const m = measurement(result, name, 'initial');
        assert.equal(m.stats.count, ITERATIONS, `${name}: ${describeErrors(m)}`);
        assert.equal(m.stats.errors, 0);
      }
      const directAfter = await waitFor(
        () => direct.stats(),
        (s) => s.open === 0,
      );
      const pooledAfter = await waitFor(
        () => pooled.stats(),
        (s) => s.open === 0,
      );
      assert.equal(
        directAfter.accepted - directBefore.accepted,
        SAMPLES,
        'direct: one connection per sample',
      );
      assert.equal(
        pooledAfter.accepted - pooledBefore.accepted,
        SAMPLES,
        'pooled: one client connection per sample',
      );
      assert.equal(directAfter.open + pooledAfter.open, 0);
      const sessions = (await counter.accepted()) - sessionsBefore;
      // Direct opened SAMPLES sessions; pgbouncer at most a few server connections, not one per sample.
      assert.ok(sessions >= SAMPLES && sessions < SAMPLES + SAMPLES / 2, `${sessions} Postgres sessions`);
      assertNoSecret([JSON.stringify(result)]);
    } finally {
      await counter.close();
    }
  });

  test('subsequent: one client connection each', async () => {
    const directBefore = direct.stats();
    const pooledBefore = pooled.stats();
    const result = await probeTargets(targets(), {
      kinds: ['subsequent'],
      iterations: ITERATIONS,
      warmup: WARMUP,
    });
    for (const name of ['direct', 'pooled']) {
      const m = measurement(result, name, 'subsequent');
      assert.equal(m.stats.count, ITERATIONS, `${name}: ${describeErrors(m)}`);
    }
    assert.equal(
      (
        await waitFor(
          () => direct.stats(),
          (s) => s.open === 0,
        )
      ).accepted - directBefore.accepted,
      1,
    );
    assert.equal(
      (
        await waitFor(
          () => pooled.stats(),
          (s) => s.open === 0,
        )
      ).accepted - pooledBefore.accepted,
      1,
    );
  });
});

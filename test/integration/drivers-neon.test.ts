/**
 * Neon's serverless driver through the engine, both transports, against the real PostgreSQL:
 * - neon-http through the Neon SQL-over-HTTP stand-in (test/fixtures/neonHttpStandIn.ts): its own
 *   TCP counter proves `initial` opened a new HTTP connection per sample and `subsequent` one in all;
 * - neon-ws through websockify in front of PostgreSQL: every WebSocket is a Postgres session, counted
 *   in pg_stat_database of a scratch database.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { waitFor } from '../fixtures/connections';
import { startNeonHttpStandIn, type NeonHttpStandIn } from '../fixtures/neonHttpStandIn';
import { createScratchDatabase, type ScratchDatabase } from '../fixtures/pgDatabase';
import { describeErrors, measurement, probeTargets } from '../fixtures/probe';
import { pgCounter } from '../helpers/serverCounters';
import { countSocketAttempts } from '../helpers/socketAttempts';
import { assertNoSecret, testbedEnv } from '../helpers/testbed';

const ITERATIONS = 12;
const WARMUP = 2;
const SAMPLES = ITERATIONS + WARMUP;

function wsOptions(): Record<string, unknown> {
  // websockify ignores ?address= and always forwards to the testbed PostgreSQL; SCRAM needs
  // pipelineConnect off; plain ws: is allowed because the proxy is on loopback.
  return {
    wsProxy: `127.0.0.1:${testbedEnv('DBPROBE_TEST_WEBSOCKIFY_PORT')}/v1`,
    useSecureWebSocket: false,
    pipelineConnect: false,
  };
}

describe('neon-http through the SQL-over-HTTP stand-in', () => {
  let standIn: NeonHttpStandIn;
  before(async () => {
    standIn = await startNeonHttpStandIn();
  });
  after(async () => standIn?.close());

  test('initial: a new HTTP connection per sample, none left open', async () => {
    const before = standIn.stats();
    const result = await probeTargets(
      [
        {
          name: 'neon http',
          driver: 'neon-http',
          url: testbedEnv('DBPROBE_TEST_PG_URL'),
          options: { fetchEndpoint: standIn.endpoint },
        },
      ],
      { kinds: ['initial'], iterations: ITERATIONS, warmup: WARMUP },
    );
    const m = measurement(result, 'neon http', 'initial');
    assert.equal(m.stats.count, ITERATIONS, describeErrors(m));
    assert.equal(m.stats.errors, 0);
    assert.equal(result.targets[0]?.transport, 'http');
    const after = await waitFor(
      () => standIn.stats(),
      (s) => s.open === 0,
    );
    assert.equal(after.accepted - before.accepted, SAMPLES, 'one TCP connection per sample');
    assert.equal(after.requests - before.requests, SAMPLES, 'one POST per sample');
    assert.equal(after.open, 0, 'every connection closed');
    assertNoSecret([JSON.stringify(result)]);
  });

  test('subsequent: every query over one kept-alive connection', async () => {
    const before = standIn.stats();
    const result = await probeTargets(
      [
        {
          name: 'neon http',
          driver: 'neon-http',
          url: testbedEnv('DBPROBE_TEST_PG_URL'),
          options: { fetchEndpoint: standIn.endpoint },
        },
      ],
      { kinds: ['subsequent'], iterations: ITERATIONS, warmup: WARMUP },
    );
    const m = measurement(result, 'neon http', 'subsequent');
    assert.equal(m.stats.count, ITERATIONS, describeErrors(m));
    assert.equal(m.stats.errors, 0);
    assert.deepEqual(m.reused, ['connection']);
    const after = await waitFor(
      () => standIn.stats(),
      (s) => s.open === 0,
    );
    assert.equal(after.accepted - before.accepted, 1, 'one TCP connection in all');
    assert.equal(after.requests - before.requests, SAMPLES);
    assert.equal(after.open, 0);
  });

  test('a plain http: endpoint on a remote host is refused before anything is sent', async () => {
    const sockets = countSocketAttempts();
    try {
      const remote = await probeTargets(
        [
          {
            name: 'remote',
            driver: 'neon-http',
            url: testbedEnv('DBPROBE_TEST_PG_URL'),
            options: { fetchEndpoint: 'http://db.example.com/sql' },
          },
        ],
        { iterations: 1, warmup: 0 },
      );
      const m = measurement(remote, 'remote', 'initial');
      assert.equal(m.stats.count, 0);
      assert.equal(m.firstErrors[0]?.class, 'config');
      assert.match(m.firstErrors[0]?.message ?? '', /plain http/);
      assert.equal(sockets.count(), 0, 'no socket opened to any host');
      // The counter sees this driver's sockets: the same target on loopback opens one.
      await probeTargets(
        [
          {
            name: 'loopback',
            driver: 'neon-http',
            url: testbedEnv('DBPROBE_TEST_PG_URL'),
            options: { fetchEndpoint: `http://127.0.0.1:${standIn.port}/sql` },
          },
        ],
        { iterations: 1, warmup: 0 },
      );
      assert.ok(sockets.count() >= 1, 'the loopback control opened a socket');
    } finally {
      sockets.stop();
    }
  });
});

describe('neon-ws through websockify in front of PostgreSQL', () => {
  let db: ScratchDatabase;
  before(async () => {
    db = await createScratchDatabase(
      testbedEnv('DBPROBE_TEST_PG_ADMIN_URL'),
      testbedEnv('DBPROBE_TEST_PG_URL'),
      'neonws',
    );
  });
  after(async () => db?.drop());

  for (const [kind, expected] of [
    ['initial', SAMPLES],
    ['subsequent', 1],
  ] as const) {
    test(`${kind}: ${expected === 1 ? 'one Postgres session in all' : 'a new WebSocket and Postgres session per sample'}`, async () => {
      const counter = await pgCounter(testbedEnv('DBPROBE_TEST_PG_ADMIN_URL'), db.name);
      try {
        const before = await counter.accepted();
        const result = await probeTargets(
          [{ name: 'neon ws', driver: 'neon-ws', url: db.url, options: wsOptions() }],
          {
            kinds: [kind],
            iterations: ITERATIONS,
            warmup: WARMUP,
          },
        );
        const m = measurement(result, 'neon ws', kind);
        assert.equal(m.stats.count, ITERATIONS, describeErrors(m));
        assert.equal(m.stats.errors, 0);
        assert.equal(result.targets[0]?.transport, 'ws');
        assert.equal((await counter.accepted()) - before, expected);
        assert.equal(await counter.open(), 0, 'no session left open');
        assertNoSecret([JSON.stringify(result)]);
      } finally {
        await counter.close();
      }
    });
  }

  test('useSecureWebSocket=false towards a remote proxy is refused as a config error, before any socket', async () => {
    const sockets = countSocketAttempts();
    try {
      const result = await probeTargets(
        [
          {
            name: 'remote ws',
            driver: 'neon-ws',
            url: db.url,
            options: { wsProxy: 'proxy.example.com/v1', useSecureWebSocket: false },
          },
        ],
        { iterations: 1, warmup: 0 },
      );
      const m = measurement(result, 'remote ws', 'initial');
      assert.equal(m.stats.count, 0);
      assert.equal(m.firstErrors[0]?.class, 'config');
      assert.match(m.firstErrors[0]?.message ?? '', /unencrypted/);
      assert.equal(sockets.count(), 0, 'no socket opened to any host');
      await probeTargets([{ name: 'loopback ws', driver: 'neon-ws', url: db.url, options: wsOptions() }], {
        iterations: 1,
        warmup: 0,
      });
      assert.ok(sockets.count() >= 1, 'the loopback control opened a socket');
    } finally {
      sockets.stop();
    }
  });
});

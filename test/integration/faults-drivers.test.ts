/**
 * Every driver against four faults, through the engine, each ending in a classified, redacted error
 * within the configured timeout (plus a margin) and with no connection left open:
 *
 * - wrong URL scheme (another database's connection string): `config`, and nothing is contacted;
 * - wrong credentials, where the server checks them: `auth` (pg, mysql2, ioredis; neon-ws and
 *   neon-http via PostgreSQL; planetscale via ps-http-sim and MariaDB; libsql, upstash and http via
 *   the stand-ins' tokens; mongodb via the testbed's FerretDB over PostgreSQL, which checks passwords);
 * - a refused port: `refused`;
 * - a server that hangs: toxiproxy's `timeout` toxic (data dropped, connection kept) -> `timeout`.
 *
 * Connections are counted by a TCP pass-through in front of the real server (or stand-in); in the
 * hang case it sits between toxiproxy and the server, so it sees the upstream link close once the
 * driver dropped its socket.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type AddressInfo } from 'node:net';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { createRegistry } from '../../src/drivers/registry';
import type { ErrorClass } from '../../src/shared/errors';
import type { RunResult } from '../../src/shared/result';
import { waitFor } from '../fixtures/connections';
import { startCountingProxy, type CountingProxy } from '../fixtures/countingProxy';
import { startHranaStandIn, type HranaStandIn } from '../fixtures/hranaStandIn';
import { startNeonHttpStandIn, type NeonHttpStandIn } from '../fixtures/neonHttpStandIn';
import { startPostgrestStandIn, type PostgrestStandIn } from '../fixtures/postgrestStandIn';
import { probeTargets, type ProbeTarget } from '../fixtures/probe';
import { createToxiProxy } from '../fixtures/toxiproxy';
import { startUpstashStandIn, type UpstashStandIn } from '../fixtures/upstashStandIn';
import { assertNoSecret, sentinelPassword, testbedEnv, withUrl } from '../helpers/testbed';
import { tempDir } from '../helpers/tempDir';

const TIMEOUT_MS = 1_000;
/** Engine bookkeeping, closing and the event loop on a 2-core machine. */
const MARGIN_MS = 700;

const TOKEN = `tok-${randomBytes(12).toString('hex')}`;

let neonHttp: NeonHttpStandIn;
let hrana: HranaStandIn;
let upstash: UpstashStandIn;
let postgrest: PostgrestStandIn;

before(async () => {
  neonHttp = await startNeonHttpStandIn();
  hrana = await startHranaStandIn({
    file: path.join(tempDir('faults'), 'f.db'),
    token: TOKEN,
  });
  upstash = await startUpstashStandIn(testbedEnv('DBPROBE_TEST_REDIS_URL'), TOKEN);
  postgrest = await startPostgrestStandIn(testbedEnv('DBPROBE_TEST_PG_URL'), TOKEN);
});
after(async () => {
  await Promise.all([neonHttp?.close(), hrana?.close(), upstash?.close(), postgrest?.close()]);
});

interface FaultCase {
  driver: string;
  /** host:port of the real server (or stand-in) this driver talks to. */
  upstream: () => { host: string; port: number };
  /** The target reaching that server through 127.0.0.1:port. */
  at: (port: number) => Omit<ProbeTarget, 'name' | 'driver'>;
  /** The same target with wrong credentials, or why the server cannot check them. */
  wrongCredentials: ((port: number) => Omit<ProbeTarget, 'name' | 'driver'>) | string;
  /**
   * Another database's connection string (the classic mistake), aimed at 127.0.0.1:port so that the
   * counting proxy there would see any attempt to connect.
   */
  wrongScheme: (port: number) => string;
  /** Secrets that must not appear in any output. */
  secrets: () => string[];
}

const hostPort = (url: string) => {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port) };
};
const port = (url: string, p: number) => withUrl(url, (u) => (u.port = String(p)));
const password = (url: string, pw: string) => withUrl(url, (u) => (u.password = pw));
const WRONG = 'wrong-password-123';

const CASES: FaultCase[] = [
  {
    driver: 'pg',
    upstream: () => hostPort(testbedEnv('DBPROBE_TEST_PG_URL')),
    at: (p) => ({ url: port(testbedEnv('DBPROBE_TEST_PG_URL'), p) }),
    wrongCredentials: (p) => ({ url: password(port(testbedEnv('DBPROBE_TEST_PG_URL'), p), WRONG) }),
    wrongScheme: (p) => port(testbedEnv('DBPROBE_TEST_MYSQL_URL'), p),
    secrets: () => [sentinelPassword()],
  },
  {
    driver: 'mysql2',
    upstream: () => hostPort(testbedEnv('DBPROBE_TEST_MYSQL_URL')),
    at: (p) => ({ url: port(testbedEnv('DBPROBE_TEST_MYSQL_URL'), p) }),
    wrongCredentials: (p) => ({ url: password(port(testbedEnv('DBPROBE_TEST_MYSQL_URL'), p), WRONG) }),
    wrongScheme: (p) => port(testbedEnv('DBPROBE_TEST_PG_URL'), p),
    secrets: () => [sentinelPassword()],
  },
  {
    driver: 'ioredis',
    upstream: () => hostPort(testbedEnv('DBPROBE_TEST_REDIS_URL')),
    at: (p) => ({ url: port(testbedEnv('DBPROBE_TEST_REDIS_URL'), p) }),
    wrongCredentials: (p) => ({ url: password(port(testbedEnv('DBPROBE_TEST_REDIS_URL'), p), WRONG) }),
    wrongScheme: (p) => `http://127.0.0.1:${p}`,
    secrets: () => [sentinelPassword()],
  },
  {
    driver: 'neon-http',
    upstream: () => ({ host: '127.0.0.1', port: neonHttp.port }),
    at: (p) => ({
      url: testbedEnv('DBPROBE_TEST_PG_URL'),
      options: { fetchEndpoint: `http://127.0.0.1:${p}/sql` },
    }),
    wrongCredentials: (p) => ({
      url: password(testbedEnv('DBPROBE_TEST_PG_URL'), WRONG),
      options: { fetchEndpoint: `http://127.0.0.1:${p}/sql` },
    }),
    wrongScheme: (p) => port(testbedEnv('DBPROBE_TEST_MYSQL_URL'), p),
    secrets: () => [sentinelPassword()],
  },
  {
    driver: 'neon-ws',
    upstream: () => ({ host: '127.0.0.1', port: Number(testbedEnv('DBPROBE_TEST_WEBSOCKIFY_PORT')) }),
    at: (p) => ({
      url: testbedEnv('DBPROBE_TEST_PG_URL'),
      options: { wsProxy: `127.0.0.1:${p}/v1`, useSecureWebSocket: false, pipelineConnect: false },
    }),
    wrongCredentials: (p) => ({
      url: password(testbedEnv('DBPROBE_TEST_PG_URL'), WRONG),
      options: { wsProxy: `127.0.0.1:${p}/v1`, useSecureWebSocket: false, pipelineConnect: false },
    }),
    wrongScheme: (p) => port(testbedEnv('DBPROBE_TEST_REDIS_URL'), p),
    secrets: () => [sentinelPassword()],
  },
  {
    driver: 'planetscale',
    upstream: () => hostPort(testbedEnv('DBPROBE_TEST_PS_URL')),
    at: (p) => ({ url: port(testbedEnv('DBPROBE_TEST_PS_URL'), p) }),
    wrongCredentials: (p) => ({ url: password(port(testbedEnv('DBPROBE_TEST_PS_URL'), p), WRONG) }),
    wrongScheme: (p) => port(testbedEnv('DBPROBE_TEST_PG_URL'), p),
    secrets: () => [sentinelPassword()],
  },
  {
    driver: 'libsql',
    upstream: () => ({ host: '127.0.0.1', port: hrana.port }),
    at: (p) => ({ url: `http://127.0.0.1:${p}?authToken=${TOKEN}` }),
    wrongCredentials: (p) => ({ url: `http://127.0.0.1:${p}?authToken=not-the-token` }),
    wrongScheme: (p) => port(testbedEnv('DBPROBE_TEST_PG_URL'), p),
    secrets: () => [TOKEN],
  },
  {
    driver: 'libsql (ws)',
    upstream: () => ({ host: '127.0.0.1', port: hrana.port }),
    at: (p) => ({ url: `ws://127.0.0.1:${p}?authToken=${TOKEN}` }),
    wrongCredentials: (p) => ({ url: `ws://127.0.0.1:${p}?authToken=not-the-token` }),
    wrongScheme: (p) => port(testbedEnv('DBPROBE_TEST_REDIS_URL'), p),
    secrets: () => [TOKEN],
  },
  {
    driver: 'mongodb',
    // The FerretDB that authenticates (PostgreSQL handler): PLAIN, checked on the first command.
    upstream: () => hostPort(testbedEnv('DBPROBE_TEST_MONGO_AUTH_URL')),
    at: (p) => ({ url: port(testbedEnv('DBPROBE_TEST_MONGO_AUTH_URL'), p) }),
    wrongCredentials: (p) => ({ url: password(port(testbedEnv('DBPROBE_TEST_MONGO_AUTH_URL'), p), WRONG) }),
    wrongScheme: (p) => port(testbedEnv('DBPROBE_TEST_PG_URL'), p),
    secrets: () => [sentinelPassword()],
  },
  {
    driver: 'upstash',
    upstream: () => ({ host: '127.0.0.1', port: upstash.port }),
    at: (p) => ({ url: `http://default:${TOKEN}@127.0.0.1:${p}` }),
    wrongCredentials: (p) => ({ url: `http://127.0.0.1:${p}?token=not-the-token` }),
    wrongScheme: (p) => port(testbedEnv('DBPROBE_TEST_REDIS_URL'), p).replace(/:[^:@/]*@/, `:${TOKEN}@`),
    secrets: () => [TOKEN],
  },
  {
    driver: 'http',
    upstream: () => ({ host: '127.0.0.1', port: postgrest.port }),
    at: (p) => ({ url: `http://apikey:${TOKEN}@127.0.0.1:${p}/rest/v1`, query: 'GET /pg_namespace?limit=1' }),
    wrongCredentials: (p) => ({
      url: `http://apikey:not-the-key@127.0.0.1:${p}/rest/v1`,
      query: 'GET /pg_namespace?limit=1',
    }),
    wrongScheme: (p) => port(testbedEnv('DBPROBE_TEST_PG_URL'), p),
    secrets: () => [TOKEN],
  },
];

const driverId = (c: FaultCase) => c.driver.replace(/ \(.*\)$/, '');

/** One `initial` sample; returns the result, the error class and how long the run took. */
async function oneSample(
  c: FaultCase,
  target: Omit<ProbeTarget, 'name' | 'driver'>,
  timeoutMs: number = TIMEOUT_MS,
) {
  // Load the driver first, so the timing below is the fault's and not the module's.
  await createRegistry().load(driverId(c));
  const started = performance.now();
  const result = await probeTargets([{ name: `${c.driver} fault`, driver: driverId(c), ...target }], {
    kinds: ['initial'],
    iterations: 1,
    warmup: 0,
    connectMs: timeoutMs,
    queryMs: timeoutMs,
  });
  const elapsedMs = performance.now() - started;
  const m = result.measurements[0];
  assert.ok(m, 'one measurement');
  assert.equal(m.stats.count, 0, 'the sample failed');
  const failure = m.firstErrors[0];
  assert.ok(failure, 'a failure is recorded');
  return { result, failure, elapsedMs };
}

/** How long one right `initial` sample took (ms, the run's wall time), with a generous timeout. */
async function timedConnectMs(c: FaultCase, target: Omit<ProbeTarget, 'name' | 'driver'>): Promise<number> {
  await createRegistry().load(driverId(c));
  const started = performance.now();
  const result = await probeTargets([{ name: `${c.driver} right`, driver: driverId(c), ...target }], {
    kinds: ['initial'],
    iterations: 1,
    warmup: 0,
    connectMs: 10 * TIMEOUT_MS,
    queryMs: 10 * TIMEOUT_MS,
  });
  const elapsedMs = performance.now() - started;
  const m = result.measurements[0];
  assert.ok(m && m.stats.count === 1, `the right login failed: ${JSON.stringify(m?.firstErrors)}`);
  return elapsedMs;
}

function assertRedacted(c: FaultCase, result: RunResult): void {
  assertNoSecret([JSON.stringify(result)], c.secrets()[0]);
  for (const secret of c.secrets()) assertNoSecret([JSON.stringify(result)], secret);
}

async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port: p } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return p;
}

async function withCounter<T>(c: FaultCase, run: (proxy: CountingProxy) => Promise<T>): Promise<T> {
  const { host, port: p } = c.upstream();
  const proxy = await startCountingProxy(host, p);
  try {
    return await run(proxy);
  } finally {
    await proxy.close();
  }
}

function expectClass(actual: ErrorClass, expected: ErrorClass, message: string): void {
  assert.equal(actual, expected, message);
}

for (const c of CASES) {
  describe(`${c.driver}: faults`, () => {
    test('wrong URL scheme: a config error, nothing contacted', async () => {
      await withCounter(c, async (proxy) => {
        // The wrong-scheme URL (and any endpoint option) points at the counting proxy, so an attempt
        // to connect would be seen there.
        const { result, failure, elapsedMs } = await oneSample(c, {
          ...c.at(proxy.port),
          url: c.wrongScheme(proxy.port),
        });
        expectClass(failure.class, 'config', failure.message);
        assert.match(failure.message, /expects/);
        assert.ok(elapsedMs < MARGIN_MS, `${elapsedMs} ms`);
        assert.equal(proxy.stats().accepted, 0, 'nothing contacted');
        assertNoSecret([JSON.stringify(result)]);
        // The counter is on the path: the right connection string through the same proxy reaches it.
        await probeTargets([{ name: `${c.driver} control`, driver: driverId(c), ...c.at(proxy.port) }], {
          kinds: ['initial'],
          iterations: 1,
          warmup: 0,
          connectMs: TIMEOUT_MS,
          queryMs: TIMEOUT_MS,
        });
        assert.ok(proxy.stats().accepted >= 1, 'the control run reached the proxy');
      });
    });

    if (typeof c.wrongCredentials === 'string') {
      // Reported as a todo, never counted as a pass.
      test.todo(`wrong credentials: not testable here (${c.wrongCredentials})`);
    } else {
      const wrong = c.wrongCredentials;
      test('wrong credentials: an auth error, connection closed', async () => {
        await withCounter(c, async (proxy) => {
          // A login with the wrong password does the client's whole share of it (neon-ws: SCRAM in
          // JavaScript, 150-300 ms of CPU) before the server refuses it: on a crowded host that alone
          // passed the 1 s connect timeout (a series of five at load average 32 read "connect timed
          // out" for neon-ws). So the timeout is the larger of 1 s and three times a right login timed
          // here just before, on the same path: the host's pace measured in the same run.
          const right = await timedConnectMs(c, c.at(proxy.port));
          const timeoutMs = Math.max(TIMEOUT_MS, Math.ceil(3 * right));
          const { result, failure, elapsedMs } = await oneSample(c, wrong(proxy.port), timeoutMs);
          expectClass(
            failure.class,
            'auth',
            `${failure.message} (timeout ${timeoutMs} ms; a right login took ${Math.round(right)} ms)`,
          );
          assert.ok(elapsedMs < timeoutMs + MARGIN_MS, `${elapsedMs} ms`);
          const stats = await waitFor(
            () => proxy.stats(),
            (s) => s.open === 0,
          );
          assert.ok(stats.accepted >= 1, 'the server was reached');
          assert.equal(stats.open, 0, 'no connection left open');
          assertRedacted(c, result);
          assert.doesNotMatch(JSON.stringify(result), new RegExp(WRONG));
        });
      });
    }

    test('refused port: a refused error', async () => {
      const { result, failure, elapsedMs } = await oneSample(c, c.at(await closedPort()));
      expectClass(failure.class, 'refused', failure.message);
      assert.ok(elapsedMs < TIMEOUT_MS + MARGIN_MS, `${elapsedMs} ms`);
      assertRedacted(c, result);
    });

    test('server hangs (toxiproxy timeout toxic): a timeout error, upstream link closed', async () => {
      await withCounter(c, async (proxy) => {
        const toxi = await createToxiProxy(
          testbedEnv('DBPROBE_TEST_TOXIPROXY_URL'),
          `127.0.0.1:${proxy.port}`,
          driverId(c).replace(/\W/g, ''),
        );
        try {
          await toxi.addToxic('timeout', { timeout: 0 });
          const { result, failure, elapsedMs } = await oneSample(c, c.at(toxi.port));
          expectClass(failure.class, 'timeout', failure.message);
          assert.ok(elapsedMs >= TIMEOUT_MS * 0.75, `gave up after ${elapsedMs} ms, before the timeout`);
          assert.ok(elapsedMs < TIMEOUT_MS + MARGIN_MS, `${elapsedMs} ms`);
          const stats = await waitFor(
            () => proxy.stats(),
            (s) => s.open === 0,
          );
          assert.ok(stats.accepted >= 1, 'toxiproxy connected upstream');
          assert.equal(stats.open, 0, 'the driver dropped its socket, so the upstream link closed');
          assertRedacted(c, result);
        } finally {
          await toxi.remove();
        }
      });
    });
  });
}

/**
 * The connect phase split on the driver's own socket over plaintext, for real servers: DNS (when a
 * name is looked up), TCP, and the handshake after it; no TLS step at all (absent, not unmeasured);
 * the steps and the first query add up to the sample. Where a driver cannot see its socket (libsql
 * over ws) the result says so, per step; an embedded file has no network steps. Two runs at once in
 * one process never mix their sockets.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import { LIBSQL_WS_UNMEASURED } from '../../src/drivers/libsql';
import { createRegistry } from '../../src/drivers/registry';
import { PLAN_DEFAULTS } from '../../src/shared/plan';
import type { Measurement, RunResult } from '../../src/shared/result';
import { startHranaStandIn, type HranaStandIn } from '../fixtures/hranaStandIn';
import { createToxiProxy } from '../fixtures/toxiproxy';
import { assertStepsByRoundTrips } from '../helpers/stepsByRoundTrips';
import { assertMatchesSchema } from '../helpers/schema';
import { tempDir } from '../helpers/tempDir';
import { testbedEnv, withUrl } from '../helpers/testbed';

const ITERATIONS = 15;

function probe(driver: string, url: string, options?: Record<string, unknown>): Promise<RunResult> {
  return runPlan(
    {
      ...PLAN_DEFAULTS,
      targets: [{ name: driver, driver, connection: 'env:X', ...(options ? { options } : {}) }],
      kinds: ['initial'],
      iterations: ITERATIONS,
      warmup: 2,
    },
    {
      registry: createRegistry(),
      resolveConnection: async () => url,
      tool: { name: 'dbprobe', version: 'test' },
    },
  );
}

for (const [driver, env] of [
  ['pg', 'DBPROBE_TEST_PG_URL'],
  ['mysql2', 'DBPROBE_TEST_MYSQL_URL'],
  ['ioredis', 'DBPROBE_TEST_REDIS_URL'],
] as const) {
  test(`${driver}: TCP and handshake from the socket, DNS when the host is a name`, async () => {
    const byIp = (await probe(driver, testbedEnv(env))).measurements[0]!;
    assert.equal(byIp.phases?.tcp?.count, ITERATIONS, 'every sample has its TCP time');
    assert.equal(byIp.phases?.handshake?.count, ITERATIONS);
    assert.equal(byIp.phases?.dns, undefined, 'an IP address needs no lookup');
    assertPlaintextAnatomy(driver, byIp);
    for (const s of byIp.samples.values) {
      assert.ok(
        s.tcpUs !== undefined && s.connectUs !== undefined && s.tcpUs <= s.connectUs,
        JSON.stringify(s),
      );
    }
    const byName = (
      await probe(
        driver,
        withUrl(testbedEnv(env), (u) => (u.hostname = 'localhost')),
      )
    ).measurements[0]!;
    assert.equal(byName.stats.errors, 0, JSON.stringify(byName.firstErrors));
    assert.equal(byName.phases?.dns?.count, ITERATIONS, 'localhost is looked up every sample');
    for (const s of byName.samples.values) {
      assert.ok(
        (s.dnsUs ?? 0) + (s.tcpUs ?? 0) <= (s.connectUs ?? 0) + 1,
        `parts within the whole: ${JSON.stringify(s)}`,
      );
    }
  });
}

test('pg behind a 40 ms link: each step moves by the round trips it waits for', async () => {
  const url = new URL(testbedEnv('DBPROBE_TEST_PG_URL'));
  const proxy = await createToxiProxy(testbedEnv('DBPROBE_TEST_TOXIPROXY_URL'), url.host, 'phases');
  try {
    await proxy.addToxic('latency', { latency: 40, jitter: 0 });
    url.port = String(proxy.port);
    const m = (await probe('pg', url.toString())).measurements[0]!;
    assert.equal(m.stats.errors, 0, JSON.stringify(m.firstErrors));
    // The testbed's PostgreSQL asks for SCRAM: three answers to wait for before it is ready.
    assertStepsByRoundTrips('pg', m, 40, { handshakeAtLeast: 3 });
  } finally {
    await proxy.remove();
  }
});

/**
 * Plaintext: TCP and handshake on every sample, no TLS step or count, nothing unmeasured, sums hold
 * (bookkeeping only: handshake is the remainder; the test above checks each step's own size).
 */
function assertPlaintextAnatomy(driver: string, m: Measurement): void {
  assert.equal(m.stats.errors, 0, JSON.stringify(m.firstErrors));
  assert.equal(m.phases?.tcp?.count, ITERATIONS, `${driver}: TCP on every sample`);
  assert.equal(m.phases?.handshake?.count, ITERATIONS, `${driver}: handshake on every sample`);
  assert.equal(m.phases?.tls, undefined, `${driver}: plaintext has no TLS step`);
  assert.equal(m.phases?.tlsHandshakes, undefined, `${driver}: no TLS handshake counted`);
  assert.equal(m.phases?.unmeasured, undefined, `${driver}: nothing unmeasured`);
  for (const s of m.samples.values) {
    assert.ok(s.us !== undefined && s.connectUs !== undefined, JSON.stringify(s));
    assert.equal(s.tlsUs, undefined, JSON.stringify(s));
    const sum = (s.dnsUs ?? 0) + (s.tcpUs ?? 0) + (s.handshakeUs ?? 0) + (s.us - s.connectUs);
    assert.ok(
      Math.abs(sum - s.us) <= Math.max(0.05 * s.us, 200),
      `${driver}: steps sum to ${sum} µs for a ${s.us} µs sample: ${JSON.stringify(s)}`,
    );
  }
}

let hrana: HranaStandIn;
let hranaDir: string;

before(async () => {
  hranaDir = tempDir('phases');
  hrana = await startHranaStandIn({ file: path.join(hranaDir, 'hrana.db') });
});

after(async () => {
  await hrana?.close();
});

test('mongodb, neon-ws over ws:, and the HTTP drivers over http: TCP and handshake from their sockets, no TLS step', async () => {
  const cases: [string, () => string, Record<string, unknown>?][] = [
    ['mongodb', () => testbedEnv('DBPROBE_TEST_MONGO_URL')],
    [
      'neon-ws',
      () => testbedEnv('DBPROBE_TEST_PG_URL'),
      {
        wsProxy: `127.0.0.1:${testbedEnv('DBPROBE_TEST_WEBSOCKIFY_PORT')}/v1`,
        useSecureWebSocket: false,
        pipelineConnect: false,
      },
    ],
    ['libsql', () => hrana.httpUrl],
    ['planetscale', () => testbedEnv('DBPROBE_TEST_PS_URL')],
  ];
  for (const [driver, url, options] of cases) {
    const m = (await probe(driver, url(), options)).measurements[0]!;
    assertPlaintextAnatomy(driver, m);
  }
});

test('libsql over ws: its socket is out of reach, so dns, tcp and handshake are unmeasured with why; no tls step', async () => {
  const result = await probe('libsql', hrana.wsUrl);
  assertMatchesSchema('result', result);
  const m = result.measurements[0]!;
  assert.equal(m.stats.errors, 0, JSON.stringify(m.firstErrors));
  assert.deepEqual(m.phases?.unmeasured, {
    dns: LIBSQL_WS_UNMEASURED,
    tcp: LIBSQL_WS_UNMEASURED,
    handshake: LIBSQL_WS_UNMEASURED,
  });
  for (const step of ['dns', 'tcp', 'tls', 'handshake'] as const)
    assert.equal(m.phases?.[step], undefined, `${step}: never a guess`);
  assert.equal(m.phases?.firstQuery.count, ITERATIONS, 'the setup is inside the first query');
});

test('libsql file: no network steps at all, nothing unmeasured', async () => {
  const m = (await probe('libsql', `file:${path.join(hranaDir, 'embedded.db')}`)).measurements[0]!;
  assert.equal(m.stats.errors, 0, JSON.stringify(m.firstErrors));
  assert.equal(m.phases?.connect.count, ITERATIONS);
  for (const step of ['dns', 'tcp', 'tls', 'handshake'] as const) assert.equal(m.phases?.[step], undefined);
  assert.equal(m.phases?.unmeasured, undefined);
});

test('two runs at once in one process keep their own sockets', async () => {
  const [a, b] = await Promise.all([
    probe('pg', testbedEnv('DBPROBE_TEST_PG_URL')),
    probe('ioredis', testbedEnv('DBPROBE_TEST_REDIS_URL')),
  ]);
  for (const result of [a, b]) {
    const m = result.measurements[0]!;
    assert.equal(m.phases?.tcp?.count, ITERATIONS, `${m.target}: one socket per sample, none borrowed`);
  }
});

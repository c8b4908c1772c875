/**
 * Every driver over TLS, as hosted databases serve it, with the testbed's own CA named in the
 * target's `tls.caFile` (verify-full or its equivalent: the certificate chain and the name 127.0.0.1
 * are both checked):
 * - `initial` pays one full TLS handshake per connection per sample and never resumes a session;
 *   `subsequent` pays the handshakes of its one connection and none per sample. A passive handshake
 *   counter between driver and server reads every ClientHello/ServerHello to tell full from resumed;
 * - every `initial` sample shows its connection's anatomy: TCP, TLS (> 0, never resumed) and handshake
 *   apart, summing with the first query to the sample's total; the result counts one full TLS
 *   handshake per sample, as the counter sees on the wire;
 * - a wrong CA fails as class `tls`, with a hint naming tls.caFile and NODE_EXTRA_CA_CERTS;
 * - `tls.insecure` connects to the same servers and the result says so.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { copyFileSync, readFileSync } from 'node:fs';
import * as path from 'node:path';
import { connect as tlsConnect, type TLSSocket } from 'node:tls';
import { after, before, describe, test } from 'node:test';
import { startHranaStandIn, type HranaStandIn } from '../fixtures/hranaStandIn';
import { startNeonHttpStandIn, type NeonHttpStandIn } from '../fixtures/neonHttpStandIn';
import { startPostgrestStandIn, type PostgrestStandIn } from '../fixtures/postgrestStandIn';
import { describeErrors, measurement, probeTargets, type ProbeTarget } from '../fixtures/probe';
import { testbedServeTls, type ServeTls } from '../fixtures/standInServer';
import { startTlsFront, type TlsFront } from '../fixtures/tlsFront';
import {
  startTlsHandshakeCounter,
  type HandshakeStats,
  type TlsHandshakeCounter,
} from '../fixtures/tlsHandshakeCounter';
import { startUpstashStandIn, type UpstashStandIn } from '../fixtures/upstashStandIn';
import { configDir, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/tempDir';
import { assertNoSecret, testbedEnv, withUrl } from '../helpers/testbed';
import type { Measurement } from '../../src/shared/result';
import { assertMatchesSchema } from '../helpers/schema';
import { createToxiProxy } from '../fixtures/toxiproxy';
import { assertStepsByRoundTrips } from '../helpers/stepsByRoundTrips';
import { LIBSQL_WS_UNMEASURED } from '../../src/drivers/libsql';
import type { RunResult } from '../../src/shared/result';

const ITERATIONS = 6;
const WARMUP = 1;
const SAMPLES = ITERATIONS + WARMUP;
const TOKEN = `tls-${randomBytes(12).toString('hex')}`;

interface TlsCase {
  driver: string;
  /** What is in front of the counter: the server that does the TLS. */
  server: string;
  /**
   * TLS connections one driver connection opens: 1, except mongodb, whose client keeps a monitoring
   * connection beside the one its operations use.
   */
  handshakesPerConnection: number;
  target(): Omit<ProbeTarget, 'name'>;
  counter(): TlsHandshakeCounter;
}

let serveTls: ServeTls;
const counters = new Map<string, TlsHandshakeCounter>();
let neonHttp: NeonHttpStandIn;
let hrana: HranaStandIn;
let upstash: UpstashStandIn;
let postgrest: PostgrestStandIn;
let psFront: TlsFront;

const tlsPort = (envName: string) => Number(new URL(testbedEnv(envName)).port);
const viaCounter = (envName: string, counterName: string) =>
  withUrl(testbedEnv(envName), (u) => (u.port = String(counters.get(counterName)!.port)));
const counterOf = (name: string) => () => counters.get(name)!;

const CASES: TlsCase[] = [
  {
    driver: 'pg',
    server: 'PostgreSQL, sslmode=verify-full',
    handshakesPerConnection: 1,
    target: () => ({ driver: 'pg', url: viaCounter('DBPROBE_TEST_PG_TLS_URL', 'pg') }),
    counter: counterOf('pg'),
  },
  {
    driver: 'mysql2',
    server: 'MariaDB, mysqls:',
    handshakesPerConnection: 1,
    target: () => ({ driver: 'mysql2', url: viaCounter('DBPROBE_TEST_MYSQL_TLS_URL', 'mysql') }),
    counter: counterOf('mysql'),
  },
  {
    driver: 'ioredis',
    server: 'Redis tls-port, rediss:',
    handshakesPerConnection: 1,
    target: () => ({ driver: 'ioredis', url: viaCounter('DBPROBE_TEST_REDIS_TLS_URL', 'redis') }),
    counter: counterOf('redis'),
  },
  {
    driver: 'mongodb',
    server: 'FerretDB listen-tls, tls=true',
    handshakesPerConnection: 2,
    target: () => ({ driver: 'mongodb', url: viaCounter('DBPROBE_TEST_MONGO_TLS_URL', 'mongo') }),
    counter: counterOf('mongo'),
  },
  {
    driver: 'neon-ws',
    server: 'websockify wss',
    handshakesPerConnection: 1,
    target: () => ({
      driver: 'neon-ws',
      url: testbedEnv('DBPROBE_TEST_PG_URL'),
      options: { wsProxy: `127.0.0.1:${counters.get('websockify')!.port}/v1`, pipelineConnect: false },
    }),
    counter: counterOf('websockify'),
  },
  {
    driver: 'neon-http',
    server: 'Neon SQL-over-HTTP stand-in, https',
    handshakesPerConnection: 1,
    target: () => ({
      driver: 'neon-http',
      url: testbedEnv('DBPROBE_TEST_PG_URL'),
      options: { fetchEndpoint: `https://127.0.0.1:${counters.get('neon-http')!.port}/sql` },
    }),
    counter: counterOf('neon-http'),
  },
  {
    driver: 'libsql',
    server: 'Hrana stand-in, https',
    handshakesPerConnection: 1,
    target: () => ({
      driver: 'libsql',
      url: `https://127.0.0.1:${counters.get('hrana')!.port}?authToken=${TOKEN}`,
    }),
    counter: counterOf('hrana'),
  },
  {
    driver: 'planetscale',
    server: 'TLS front before ps-http-sim',
    handshakesPerConnection: 1,
    target: () => ({
      driver: 'planetscale',
      url: withUrl(viaCounter('DBPROBE_TEST_PS_URL', 'ps'), (u) => (u.protocol = 'https:')),
    }),
    counter: counterOf('ps'),
  },
  {
    driver: 'upstash',
    server: 'Upstash REST stand-in, https',
    handshakesPerConnection: 1,
    target: () => ({
      driver: 'upstash',
      url: `https://default:${TOKEN}@127.0.0.1:${counters.get('upstash')!.port}`,
    }),
    counter: counterOf('upstash'),
  },
  {
    driver: 'http',
    server: 'PostgREST stand-in, https',
    handshakesPerConnection: 1,
    target: () => ({
      driver: 'http',
      url: `https://apikey:${TOKEN}@127.0.0.1:${counters.get('postgrest')!.port}/rest/v1`,
      query: 'GET /',
    }),
    counter: counterOf('postgrest'),
  },
];

/**
 * The anatomy of every measured `initial` sample: DNS absent (the host is 127.0.0.1), TCP, TLS > 0
 * and not resumed, handshake; DNS + TCP + TLS + handshake + first query within 5% (or 0.2 ms) of the
 * sample's total. Prints the p50s, so a run shows where each millisecond went.
 */
function assertTlsAnatomy(driver: string, m: Measurement): void {
  const phases = m.phases;
  assert.ok(phases, `${driver}: initial has phases`);
  assert.equal(phases.dns, undefined, `${driver}: no lookup for an IP address`);
  for (const step of ['tcp', 'tls', 'handshake'] as const)
    assert.equal(
      phases[step]?.count,
      ITERATIONS,
      `${driver}: ${step} on every sample ${JSON.stringify(phases)}`,
    );
  assert.equal(phases.unmeasured, undefined, `${driver}: every step seen`);
  assert.deepEqual(
    phases.tlsHandshakes,
    { full: ITERATIONS, resumed: 0 },
    `${driver}: one full TLS handshake per sample`,
  );
  for (const s of m.samples.values) {
    assert.ok(s.us !== undefined && s.connectUs !== undefined, JSON.stringify(s));
    assert.ok((s.tlsUs ?? 0) > 0, `${driver}: TLS took time: ${JSON.stringify(s)}`);
    assert.equal(s.tlsResumed, false, `${driver}: full handshake: ${JSON.stringify(s)}`);
    const sum =
      (s.dnsUs ?? 0) + (s.tcpUs ?? 0) + (s.tlsUs ?? 0) + (s.handshakeUs ?? 0) + (s.us - s.connectUs);
    assert.ok(
      Math.abs(sum - s.us) <= Math.max(0.05 * s.us, 200),
      `${driver}: steps sum to ${sum} µs for a ${s.us} µs sample: ${JSON.stringify(s)}`,
    );
  }
  const ms = (us: number | undefined) => ((us ?? 0) / 1000).toFixed(2);
  console.log(
    `${driver} over TLS, p50 ms: tcp ${ms(phases.tcp?.p50Us)} tls ${ms(phases.tls?.p50Us)} handshake ${ms(phases.handshake?.p50Us)} firstQuery ${ms(phases.firstQuery.p50Us)} total ${ms(m.stats.p50Us)}`,
  );
}

/** Waits (bounded) until the counter has seen every handshake the drivers started. */
async function settledStats(counter: TlsHandshakeCounter, expectedTotal: number): Promise<HandshakeStats> {
  let stats = counter.stats();
  for (let i = 0; i < 30 && stats.full + stats.resumed < expectedTotal; i++) {
    await new Promise((r) => setTimeout(r, 100));
    stats = counter.stats();
  }
  return stats;
}

before(async () => {
  serveTls = testbedServeTls();
  neonHttp = await startNeonHttpStandIn(serveTls);
  hrana = await startHranaStandIn({
    file: path.join(tempDir('tls'), 'hrana.db'),
    token: TOKEN,
    tls: serveTls,
  });
  upstash = await startUpstashStandIn(testbedEnv('DBPROBE_TEST_REDIS_URL'), TOKEN, serveTls);
  postgrest = await startPostgrestStandIn(testbedEnv('DBPROBE_TEST_PG_URL'), TOKEN, serveTls);
  psFront = await startTlsFront(serveTls, tlsPort('DBPROBE_TEST_PS_URL'));
  const upstreams: Record<string, number> = {
    pg: tlsPort('DBPROBE_TEST_PG_TLS_URL'),
    mysql: tlsPort('DBPROBE_TEST_MYSQL_TLS_URL'),
    redis: tlsPort('DBPROBE_TEST_REDIS_TLS_URL'),
    mongo: tlsPort('DBPROBE_TEST_MONGO_TLS_URL'),
    websockify: Number(testbedEnv('DBPROBE_TEST_WEBSOCKIFY_TLS_PORT')),
    'neon-http': neonHttp.port,
    hrana: hrana.port,
    upstash: upstash.port,
    postgrest: postgrest.port,
    ps: psFront.port,
  };
  for (const [name, port] of Object.entries(upstreams))
    counters.set(name, await startTlsHandshakeCounter(port));
});

after(async () => {
  await Promise.all([...counters.values()].map((c) => c.close()));
  await Promise.all([
    neonHttp?.close(),
    hrana?.close(),
    upstash?.close(),
    postgrest?.close(),
    psFront?.close(),
  ]);
});

test('the handshake counter tells full from resumed handshakes (TLS 1.3 and 1.2), as the server sees them', async () => {
  for (const maxVersion of ['TLSv1.3', 'TLSv1.2'] as const) {
    const front = await startTlsFront(serveTls, tlsPort('DBPROBE_TEST_PS_URL'), { maxVersion });
    const counter = await startTlsHandshakeCounter(front.port);
    try {
      const ca = readFileSync(testbedEnv('DBPROBE_TEST_CA_FILE'), 'utf8');
      let session: Buffer | undefined;
      for (let i = 0; i < 3; i++) {
        const socket = await new Promise<TLSSocket>((resolve, reject) => {
          const s: TLSSocket = tlsConnect(
            { host: '127.0.0.1', port: counter.port, ca, ...(session ? { session } : {}) },
            () => resolve(s),
          );
          s.once('error', reject);
          s.on('session', (ticket: Buffer) => (session = ticket));
        });
        // TLS 1.3 tickets arrive after the handshake: give them a moment before closing.
        await new Promise((r) => setTimeout(r, 50));
        socket.destroy();
      }
      const seen = await settledStats(counter, 3);
      assert.deepEqual(front.stats(), { connections: 3, full: 1, resumed: 2 }, `${maxVersion} front`);
      assert.equal(seen.full, 1, `${maxVersion}: ${JSON.stringify(seen)}`);
      assert.equal(seen.resumed, 2, `${maxVersion}: ${JSON.stringify(seen)}`);
      assert.deepEqual(seen.versions, { [maxVersion]: 3 });
    } finally {
      await counter.close();
      await front.close();
    }
  }
});

for (const c of CASES) {
  describe(`${c.driver} over TLS (${c.server})`, () => {
    test(`initial: ${c.handshakesPerConnection} full handshake(s) per sample, none resumed; subsequent: none per sample`, async () => {
      for (const [kind, connections] of [
        ['initial', SAMPLES],
        ['subsequent', 1],
      ] as const) {
        const counter = c.counter();
        const before = counter.stats();
        const result = await probeTargets(
          [{ name: c.driver, ...c.target(), tls: { caFile: testbedEnv('DBPROBE_TEST_CA_FILE') } }],
          { kinds: [kind], iterations: ITERATIONS, warmup: WARMUP },
        );
        const m = measurement(result, c.driver, kind);
        assert.equal(m.stats.count, ITERATIONS, `${kind}: ${describeErrors(m)}`);
        assert.equal(m.stats.errors, 0, `${kind}: ${describeErrors(m)}`);
        assert.deepEqual(result.targets[0]?.tls, { caFile: testbedEnv('DBPROBE_TEST_CA_FILE') });
        assertMatchesSchema('result', result);
        if (kind === 'initial') assertTlsAnatomy(c.driver, m);
        else assert.equal(m.phases, undefined, 'subsequent opens no connection per sample');
        const expected = connections * c.handshakesPerConnection;
        const seen = await settledStats(counter, before.full + before.resumed + expected);
        assert.equal(seen.full - before.full, expected, `${kind}: full handshakes ${JSON.stringify(seen)}`);
        assert.equal(seen.resumed - before.resumed, 0, `${kind}: resumed handshakes ${JSON.stringify(seen)}`);
        assertNoSecret([JSON.stringify(result)]);
        assertNoSecret([JSON.stringify(result)], TOKEN);
      }
    });

    test('a wrong CA fails as class tls, with a hint naming tls.caFile and NODE_EXTRA_CA_CERTS', async () => {
      const result = await probeTargets(
        [{ name: c.driver, ...c.target(), tls: { caFile: testbedEnv('DBPROBE_TEST_WRONG_CA_FILE') } }],
        { kinds: ['initial'], iterations: 1, warmup: 0, connectMs: 4_000 },
      );
      const m = measurement(result, c.driver, 'initial');
      assert.equal(m.stats.count, 0, describeErrors(m));
      assert.deepEqual(m.errorsByClass, { tls: 1 }, describeErrors(m));
      const hint = m.firstErrors[0]?.hint ?? '';
      assert.match(hint, /tls\.caFile/);
      assert.match(hint, /NODE_EXTRA_CA_CERTS/);
      assertNoSecret([JSON.stringify(result)]);
    });

    test('tls.insecure connects without the CA, and the result says the certificate was not checked', async () => {
      const result = await probeTargets([{ name: c.driver, ...c.target(), tls: { insecure: true } }], {
        kinds: ['initial'],
        iterations: 2,
        warmup: 0,
      });
      const m = measurement(result, c.driver, 'initial');
      assert.equal(m.stats.count, 2, describeErrors(m));
      assert.deepEqual(result.targets[0]?.tls, { insecure: true });
    });
  });
}

test('pg over TLS behind a 40 ms link: TCP, TLS and the login each move by their own round trips', async () => {
  // The sum of the steps holds by construction (handshake is the remainder); their sizes do not.
  const url = new URL(testbedEnv('DBPROBE_TEST_PG_TLS_URL'));
  const proxy = await createToxiProxy(testbedEnv('DBPROBE_TEST_TOXIPROXY_URL'), url.host, 'tlsphases');
  try {
    await proxy.addToxic('latency', { latency: 40, jitter: 0 });
    url.port = String(proxy.port);
    const result = await probeTargets(
      [
        {
          name: 'pg',
          driver: 'pg',
          url: url.toString(),
          tls: { caFile: testbedEnv('DBPROBE_TEST_CA_FILE') },
        },
      ],
      { kinds: ['initial'], iterations: ITERATIONS, warmup: WARMUP },
    );
    const m = measurement(result, 'pg', 'initial');
    assert.equal(m.stats.errors, 0, describeErrors(m));
    // TLS 1.3 takes two round trips here: PostgreSQL's default ssl_ecdh_curve (prime256v1) is not the
    // key share Node offers first (X25519), so the server asks again (a HelloRetryRequest). Before
    // TLS the SSLRequest's answer, after it SCRAM's three: four in the handshake step.
    assertStepsByRoundTrips('pg over TLS', m, 40, { tls: 2, handshakeAtLeast: 4 });
  } finally {
    await proxy.remove();
  }
});

test('without tls.caFile (system store only) the testbed certificate is refused: verification is on by default', async () => {
  const c = CASES.find((x) => x.driver === 'pg')!;
  const result = await probeTargets([{ name: 'pg', ...c.target() }], {
    kinds: ['initial'],
    iterations: 1,
    warmup: 0,
  });
  assert.deepEqual(measurement(result, 'pg', 'initial').errorsByClass, { tls: 1 });
});

test('CLI: tls.caFile beside dbprobe.json verifies; a wrong CA is one line of class tls naming tls.caFile; insecure is in the report', async () => {
  const cwd = configDir({
    targets: [
      { name: 'pg-ca', driver: 'pg', connection: 'env:PG_TLS_URL', tls: { caFile: 'ca.pem' } },
      { name: 'pg-wrong-ca', driver: 'pg', connection: 'env:PG_TLS_URL', tls: { caFile: 'wrong-ca.pem' } },
      { name: 'redis-insecure', driver: 'ioredis', connection: 'env:REDIS_TLS_URL', tls: { insecure: true } },
    ],
    kinds: ['initial'],
    iterations: 2,
    warmup: 0,
  });
  copyFileSync(testbedEnv('DBPROBE_TEST_CA_FILE'), path.join(cwd, 'ca.pem'));
  copyFileSync(testbedEnv('DBPROBE_TEST_WRONG_CA_FILE'), path.join(cwd, 'wrong-ca.pem'));
  const run = await runCli(['run'], {
    cwd,
    env: {
      PG_TLS_URL: testbedEnv('DBPROBE_TEST_PG_TLS_URL'),
      REDIS_TLS_URL: testbedEnv('DBPROBE_TEST_REDIS_TLS_URL'),
    },
  });
  assert.equal(run.code, 1, run.stderr);
  assert.ok(run.stdout.includes('| pg-ca | pg | tcp | 2 |'), run.stdout);
  assert.ok(run.stdout.includes('| redis-insecure (TLS not verified) | ioredis | tcp | 2 |'), run.stdout);
  assert.match(run.stdout, /\*\*TLS not verified for redis-insecure:\*\* the target sets tls\.insecure/);
  const lines = run.stderr.split('\n').filter((l) => l.startsWith('dbprobe: target'));
  assert.equal(lines.length, 1, run.stderr);
  assert.match(lines[0]!, /pg-wrong-ca/);
  assert.match(lines[0]!, /\btls\b/);
  assert.match(lines[0]!, /tls\.caFile/);
  assertNoSecret([run.stdout, run.stderr]);
});

test('libsql over wss (CA from NODE_EXTRA_CA_CERTS, the only trust its WebSocket takes): every step unmeasured with why, one full handshake per sample', async () => {
  const counter = counters.get('hrana')!;
  const before = counter.stats();
  const cwd = configDir({
    targets: [{ name: 'libsql-wss', driver: 'libsql', connection: 'env:LIBSQL_WSS_URL' }],
    kinds: ['initial'],
    iterations: ITERATIONS,
    warmup: WARMUP,
  });
  const run = await runCli(['run', '--format', 'json'], {
    cwd,
    env: {
      LIBSQL_WSS_URL: `wss://127.0.0.1:${counter.port}?authToken=${TOKEN}`,
      NODE_EXTRA_CA_CERTS: testbedEnv('DBPROBE_TEST_CA_FILE'),
    },
  });
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout) as RunResult;
  assertMatchesSchema('result', result);
  const m = measurement(result, 'libsql-wss', 'initial');
  assert.equal(m.stats.count, ITERATIONS, describeErrors(m));
  assert.deepEqual(m.phases?.unmeasured, {
    dns: LIBSQL_WS_UNMEASURED,
    tcp: LIBSQL_WS_UNMEASURED,
    tls: LIBSQL_WS_UNMEASURED,
    handshake: LIBSQL_WS_UNMEASURED,
  });
  for (const step of ['dns', 'tcp', 'tls', 'handshake'] as const)
    assert.equal(m.phases?.[step], undefined, `${step}: never a guess`);
  assert.equal(m.phases?.tlsHandshakes, undefined, 'no handshake seen on its socket, none counted');
  const seen = await settledStats(counter, before.full + before.resumed + SAMPLES);
  assert.equal(seen.full - before.full, SAMPLES, `full handshakes ${JSON.stringify(seen)}`);
  assert.equal(seen.resumed - before.resumed, 0, `resumed handshakes ${JSON.stringify(seen)}`);
  assertNoSecret([run.stdout, run.stderr], TOKEN);
});

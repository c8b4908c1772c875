/**
 * Wire accounting against the wire itself. For every networked driver, over plaintext and
 * over TLS (1.3, and 1.2 through `tls.maxVersion`):
 * - the round trips counted on the driver's own sockets (`wire.roundTrips`, median of `initial` and
 *   of `subsequent`) equal the number derived from toxiproxy: the time a downstream latency toxic
 *   of D ms adds (a proxy with it against one without, interleaved; p50 of the paired differences),
 *   divided by D and rounded (each wait for the server costs D once; see accuracy.test.ts). Both
 *   equal the number written below per case, with its why (docs/measuring.md, "Round trips");
 * - the bytes counted per `initial` sample add up, within 10%, to what a counting proxy in front of
 *   the server saw (less a goodbye the client sends while closing, after its sample, and its reply);
 * - neon-ws's client CPU per connect under SCRAM (4096 awaited crypto.subtle calls) is at least ten
 *   times pg's (whose PBKDF2 is one native call).
 * Few samples keep it short. neon-ws's round-trip cases log in as role dbprobe_neon, which gives its
 * password in clear text as Neon's proxy asks (scripts/testbed/svc-pg.sh): under SCRAM its connects
 * were ~200 ms of the client's CPU each, varying by tens of ms, and its three cases took 46 s of the
 * file's 70 at 150 ms a turn.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { ProbeKind } from '../../src/shared/plan';
import type { Measurement, RunResult } from '../../src/shared/result';
import { startHranaStandIn, type HranaStandIn } from '../fixtures/hranaStandIn';
import { startNeonHttpStandIn, type NeonHttpStandIn } from '../fixtures/neonHttpStandIn';
import { startPostgrestStandIn, type PostgrestStandIn } from '../fixtures/postgrestStandIn';
import { describeErrors, probeTargets, type ProbeTarget } from '../fixtures/probe';
import { testbedServeTls, type ServeTls } from '../fixtures/standInServer';
import { startTlsFront, type TlsFront } from '../fixtures/tlsFront';
import { createToxiProxy, type ToxiProxy } from '../fixtures/toxiproxy';
import { startUpstashStandIn, type UpstashStandIn } from '../fixtures/upstashStandIn';
import { startByteCountingProxy } from '../helpers/byteCountingProxy';
import { assertTurns, derivedTurns, ITERATION_STEPS, probeUntilTurnsDecided } from '../helpers/delayTurns';
import { tempDir } from '../helpers/tempDir';
import { testbedEnv, withUrl } from '../helpers/testbed';

/**
 * 50 ms a turn: a loaded 2-core machine moves a p50 of 5 samples by 10-40 ms now and then, and
 * toxiproxy adds up to 1.5 ms per delayed chunk; at 20 ms that reads as a turn more or less.
 */
const DELAY_MS = 50;
const BYTE_TOLERANCE = 0.1;
const TOKEN = `wire-${randomBytes(12).toString('hex')}`;

type Security = 'plain' | 'TLS 1.3' | 'TLS 1.2';

interface Case {
  driver: string;
  security: Security;
  /** Round trips of an `initial` sample (connect + first query) and of a `subsequent` one. */
  initial: number;
  subsequent: number;
  why: string;
  /** host:port of the server (toxiproxy and the byte counter forward there). */
  upstream: () => string;
  /** The target with the server at 127.0.0.1:port (a proxy in front of it). */
  target: (port: number) => Omit<ProbeTarget, 'name'>;
  /** A chunk the client sends while closing, after its sample ended (never counted by a sample). */
  goodbye?: (chunk: Buffer) => boolean;
  /**
   * Bytes per connection the client may send while closing when they cannot be told apart by
   * content (encrypted): the proxy sees them, no sample counts them.
   */
  closingBytes?: number;
}

let serveTls: ServeTls;
let neonHttp: NeonHttpStandIn;
let neonHttps: NeonHttpStandIn;
let upstash: UpstashStandIn;
let upstashS: UpstashStandIn;
let postgrest: PostgrestStandIn;
let postgrestS: PostgrestStandIn;
let hrana: HranaStandIn;
let hranaS: HranaStandIn;
let psFront: TlsFront;

const hostPort = (url: string) => `${new URL(url).hostname}:${new URL(url).port}`;
const local = (port: number) => `127.0.0.1:${port}`;
const viaPort = (envName: string) => (port: number) => ({
  url: withUrl(testbedEnv(envName), (u) => (u.port = String(port))),
});
const ca = () => ({ caFile: testbedEnv('DBPROBE_TEST_CA_FILE') });

const PLAIN: Case[] = [
  {
    driver: 'pg',
    security: 'plain',
    initial: 4,
    subsequent: 1,
    why: 'StartupMessage -> AuthenticationSASL; SASLInitialResponse -> SASLContinue; SASLResponse -> SASLFinal..ReadyForQuery; Query -> rows',
    upstream: () => hostPort(testbedEnv('DBPROBE_TEST_PG_URL')),
    target: (port) => ({ driver: 'pg', ...viaPort('DBPROBE_TEST_PG_URL')(port) }),
  },
  {
    driver: 'mysql2',
    security: 'plain',
    initial: 3,
    subsequent: 1,
    why: 'greeting (answers the TCP handshake); HandshakeResponse -> OK; COM_QUERY -> result set',
    upstream: () => hostPort(testbedEnv('DBPROBE_TEST_MYSQL_URL')),
    target: (port) => ({ driver: 'mysql2', ...viaPort('DBPROBE_TEST_MYSQL_URL')(port) }),
  },
  {
    driver: 'ioredis',
    security: 'plain',
    initial: 2,
    subsequent: 1,
    why: 'AUTH + CLIENT SETINFO x2 written back to back -> replies; PING -> PONG',
    upstream: () => hostPort(testbedEnv('DBPROBE_TEST_REDIS_URL')),
    target: (port) => ({ driver: 'ioredis', ...viaPort('DBPROBE_TEST_REDIS_URL')(port) }),
  },
  {
    driver: 'mongodb',
    security: 'plain',
    initial: 3,
    subsequent: 1,
    why: "the monitor socket's hello; the pool socket's hello; the command",
    // MongoClient.close() sends endSessions (about 118 bytes) after the sample's last reply.
    goodbye: (chunk) => chunk.includes('endSessions'),
    upstream: () => hostPort(testbedEnv('DBPROBE_TEST_MONGO_URL')),
    target: (port) => ({ driver: 'mongodb', ...viaPort('DBPROBE_TEST_MONGO_URL')(port) }),
  },
  {
    driver: 'planetscale',
    security: 'plain',
    initial: 1,
    subsequent: 1,
    why: 'connect opens the socket only; POST .../Execute -> response',
    upstream: () => hostPort(testbedEnv('DBPROBE_TEST_PS_URL')),
    target: (port) => ({ driver: 'planetscale', ...viaPort('DBPROBE_TEST_PS_URL')(port) }),
  },
  {
    driver: 'neon-http',
    security: 'plain',
    initial: 1,
    subsequent: 1,
    why: 'POST /sql -> response',
    upstream: () => local(neonHttp.port),
    target: (port) => ({
      driver: 'neon-http',
      url: testbedEnv('DBPROBE_TEST_PG_URL'),
      options: { fetchEndpoint: `http://127.0.0.1:${port}/sql` },
    }),
  },
  {
    driver: 'upstash',
    security: 'plain',
    initial: 1,
    subsequent: 1,
    why: 'POST / [command] -> response',
    upstream: () => local(upstash.port),
    target: (port) => ({ driver: 'upstash', url: `http://default:${TOKEN}@127.0.0.1:${port}` }),
  },
  {
    driver: 'http',
    security: 'plain',
    initial: 1,
    subsequent: 1,
    why: 'GET -> response',
    upstream: () => local(postgrest.port),
    target: (port) => ({
      driver: 'http',
      url: `http://apikey:${TOKEN}@127.0.0.1:${port}/rest/v1`,
      query: 'GET /',
    }),
  },
  {
    driver: 'libsql',
    security: 'plain',
    initial: 1,
    subsequent: 1,
    why: 'Hrana over HTTP: POST /v2/pipeline -> response',
    upstream: () => local(hrana.port),
    target: (port) => ({ driver: 'libsql', url: `http://127.0.0.1:${port}?authToken=${TOKEN}` }),
  },
  {
    driver: 'libsql ws',
    security: 'plain',
    initial: 2,
    subsequent: 1,
    why: 'HTTP Upgrade -> 101; hello + open_stream + execute back to back -> replies',
    upstream: () => local(hrana.port),
    target: (port) => ({ driver: 'libsql', url: `ws://127.0.0.1:${port}?authToken=${TOKEN}` }),
  },
  {
    driver: 'neon-ws',
    security: 'plain',
    initial: 4,
    subsequent: 1,
    why: 'HTTP Upgrade -> 101; startup -> password asked; clear-text password -> ready; query (pipelineConnect off)',
    upstream: () => local(Number(testbedEnv('DBPROBE_TEST_WEBSOCKIFY_PORT'))),
    target: (port) => ({
      driver: 'neon-ws',
      url: testbedEnv('DBPROBE_TEST_PG_NEON_URL'),
      options: { wsProxy: `127.0.0.1:${port}/v1`, useSecureWebSocket: false, pipelineConnect: false },
    }),
  },
];

/**
 * TLS adds its handshake's turns: one for TLS 1.3 (the client's Finished rides with its first
 * message), two for a full TLS 1.2 handshake; a HelloRetryRequest adds one (PostgreSQL 15 offers
 * only P-256, Node's ClientHello carries an X25519 key share: see docs/measuring.md).
 */
const TLS_BASE: (Omit<Case, 'security' | 'initial'> & { tls13: number; tls12: number })[] = [
  {
    driver: 'pg',
    tls13: 7,
    tls12: 7,
    subsequent: 1,
    why: 'SSLRequest -> S; TLS 1.3 with a HelloRetryRequest (2) or TLS 1.2 (2); then the four of plaintext',
    upstream: () => hostPort(testbedEnv('DBPROBE_TEST_PG_TLS_URL')),
    target: (port) => ({ driver: 'pg', ...viaPort('DBPROBE_TEST_PG_TLS_URL')(port) }),
  },
  {
    driver: 'mysql2',
    tls13: 4,
    tls12: 5,
    subsequent: 1,
    why: 'greeting; SSLRequest and ClientHello back to back -> TLS (1 or 2); HandshakeResponse -> OK; query',
    upstream: () => hostPort(testbedEnv('DBPROBE_TEST_MYSQL_TLS_URL')),
    target: (port) => ({ driver: 'mysql2', ...viaPort('DBPROBE_TEST_MYSQL_TLS_URL')(port) }),
  },
  {
    driver: 'ioredis',
    tls13: 3,
    tls12: 4,
    subsequent: 1,
    why: 'TLS (1 or 2); AUTH + SETINFO -> replies; PING',
    upstream: () => hostPort(testbedEnv('DBPROBE_TEST_REDIS_TLS_URL')),
    target: (port) => ({ driver: 'ioredis', ...viaPort('DBPROBE_TEST_REDIS_TLS_URL')(port) }),
  },
  {
    driver: 'mongodb',
    tls13: 5,
    tls12: 7,
    subsequent: 1,
    why: 'two sockets (monitor, pool), each with its TLS handshake (1 or 2) and hello; the command',
    upstream: () => hostPort(testbedEnv('DBPROBE_TEST_MONGO_TLS_URL')),
    target: (port) => ({ driver: 'mongodb', ...viaPort('DBPROBE_TEST_MONGO_TLS_URL')(port) }),
  },
  {
    driver: 'planetscale',
    tls13: 2,
    tls12: 3,
    subsequent: 1,
    why: 'TLS (1 or 2) at connect; POST .../Execute',
    upstream: () => local(psFront.port),
    target: (port) => ({
      driver: 'planetscale',
      url: withUrl(testbedEnv('DBPROBE_TEST_PS_URL'), (u) => {
        u.protocol = 'https:';
        u.port = String(port);
      }),
    }),
  },
  {
    driver: 'neon-http',
    tls13: 2,
    tls12: 3,
    subsequent: 1,
    why: 'TLS (1 or 2); POST /sql',
    upstream: () => local(neonHttps.port),
    target: (port) => ({
      driver: 'neon-http',
      url: testbedEnv('DBPROBE_TEST_PG_URL'),
      options: { fetchEndpoint: `https://127.0.0.1:${port}/sql` },
    }),
  },
  {
    driver: 'upstash',
    tls13: 2,
    tls12: 3,
    subsequent: 1,
    why: 'TLS (1 or 2); POST /',
    upstream: () => local(upstashS.port),
    target: (port) => ({ driver: 'upstash', url: `https://default:${TOKEN}@127.0.0.1:${port}` }),
  },
  {
    driver: 'http',
    tls13: 2,
    tls12: 3,
    subsequent: 1,
    why: 'TLS (1 or 2); GET',
    upstream: () => local(postgrestS.port),
    target: (port) => ({
      driver: 'http',
      url: `https://apikey:${TOKEN}@127.0.0.1:${port}/rest/v1`,
      query: 'GET /',
    }),
  },
  {
    driver: 'libsql',
    tls13: 2,
    tls12: 3,
    subsequent: 1,
    why: 'TLS (1 or 2); POST /v2/pipeline',
    upstream: () => local(hranaS.port),
    target: (port) => ({ driver: 'libsql', url: `https://127.0.0.1:${port}?authToken=${TOKEN}` }),
  },
  {
    driver: 'neon-ws',
    tls13: 5,
    tls12: 6,
    subsequent: 1,
    // Closing sends pg's Terminate, the WebSocket close frame and TLS's close_notify, each in a TLS
    // record of its own (5-byte header, 8-byte nonce and 16-byte tag on TLS 1.2): CI saw 121 a connection.
    closingBytes: 150,
    why: 'TLS (1 or 2); HTTP Upgrade -> 101; the clear-text login (2); query',
    upstream: () => local(Number(testbedEnv('DBPROBE_TEST_WEBSOCKIFY_TLS_PORT'))),
    target: (port) => ({
      driver: 'neon-ws',
      url: testbedEnv('DBPROBE_TEST_PG_NEON_URL'),
      options: { wsProxy: `127.0.0.1:${port}/v1`, pipelineConnect: false },
    }),
  },
];

/**
 * HTTP/2 through the testbed's nginx (a provider's edge: TLS + HTTP/2, service `h2front`), each
 * fetch driver with `http.version: "2"`: the TLS handshake's turns, then one per request, as over
 * HTTP/1.1. The client's connection preface and SETTINGS go out with its first request, without
 * waiting for the server's SETTINGS, so HTTP/2 adds no turn of its own. The session reads and writes
 * its socket in native code; the turns come from the session's own requests and answers.
 */
const H2_FRONTS: { driver: string; url: string; target: (url: string) => Omit<ProbeTarget, 'name'> }[] = [
  { driver: 'planetscale', url: 'DBPROBE_TEST_H2_PS_URL', target: (url) => ({ driver: 'planetscale', url }) },
  {
    driver: 'neon-http',
    url: 'DBPROBE_TEST_H2_NEON_HTTP_ENDPOINT',
    target: (url) => ({
      driver: 'neon-http',
      url: testbedEnv('DBPROBE_TEST_PG_URL'),
      options: { fetchEndpoint: url },
    }),
  },
  { driver: 'libsql', url: 'DBPROBE_TEST_H2_LIBSQL_URL', target: (url) => ({ driver: 'libsql', url }) },
  { driver: 'upstash', url: 'DBPROBE_TEST_H2_UPSTASH_URL', target: (url) => ({ driver: 'upstash', url }) },
  {
    driver: 'http',
    url: 'DBPROBE_TEST_H2_REST_URL',
    target: (url) => ({ driver: 'http', url, query: 'GET /pg_namespace?select=nspname&limit=1' }),
  },
];

const H2_BASE: (Omit<Case, 'security' | 'initial'> & { tls13: number; tls12: number })[] = H2_FRONTS.map(
  (front) => ({
    driver: `${front.driver} h2`,
    tls13: 2,
    tls12: 3,
    subsequent: 1,
    why: 'TLS (1 or 2); preface + SETTINGS + request -> SETTINGS + response',
    upstream: () => hostPort(testbedEnv(front.url)),
    target: (port) => ({
      ...front.target(withUrl(testbedEnv(front.url), (u) => (u.port = String(port)))),
      http: { version: '2' },
    }),
  }),
);

const TLS: Case[] = [...TLS_BASE, ...H2_BASE].flatMap(({ tls13, tls12, ...c }) => [
  { ...c, security: 'TLS 1.3' as const, initial: tls13 },
  { ...c, security: 'TLS 1.2' as const, initial: tls12 },
]);

function withSecurity(c: Case, port: number): Omit<ProbeTarget, 'name'> {
  const target = c.target(port);
  if (c.security === 'plain') return target;
  return { ...target, tls: { ...ca(), maxVersion: c.security === 'TLS 1.2' ? '1.2' : '1.3' } };
}

before(async () => {
  serveTls = testbedServeTls();
  const redis = testbedEnv('DBPROBE_TEST_REDIS_URL');
  const pgUrl = testbedEnv('DBPROBE_TEST_PG_URL');
  [neonHttp, neonHttps, upstash, upstashS, postgrest, postgrestS, hrana, hranaS, psFront] = await Promise.all(
    [
      startNeonHttpStandIn(),
      startNeonHttpStandIn(serveTls),
      startUpstashStandIn(redis, TOKEN),
      startUpstashStandIn(redis, TOKEN, serveTls),
      startPostgrestStandIn(pgUrl, TOKEN),
      startPostgrestStandIn(pgUrl, TOKEN, serveTls),
      startHranaStandIn({ file: path.join(tempDir('wire-hrana'), 'plain.db'), token: TOKEN }),
      startHranaStandIn({ file: path.join(tempDir('wire-hrana'), 'tls.db'), token: TOKEN, tls: serveTls }),
      startTlsFront(serveTls, Number(new URL(testbedEnv('DBPROBE_TEST_PS_URL')).port)),
    ],
  );
});

after(async () => {
  await Promise.all(
    [neonHttp, neonHttps, upstash, upstashS, postgrest, postgrestS, hrana, hranaS, psFront].map((s) =>
      s?.close(),
    ),
  );
});

const found = (result: RunResult, target: string, kind: ProbeKind): Measurement => {
  const m = result.measurements.find((x) => x.target === target && x.kind === kind);
  assert.ok(m, `no ${kind} measurement for ${target}`);
  assert.equal(m.stats.errors, 0, `${target} ${kind}: ${describeErrors(m)}`);
  return m;
};

// DBPROBE_WIRE_ONLY=h2 runs only the cases whose driver label contains it (a quicker loop by hand).
const only = process.env.DBPROBE_WIRE_ONLY;
const cases = [...PLAIN, ...TLS].filter((x) => !only || x.driver.includes(only));
/**
 * Cases run CASE_CONCURRENCY at a time: a case spends nearly all its time waiting on its own
 * proxies' delay (50 ms a turn), each has proxies and a byte counter of its own, and a neighbour's
 * callbacks move a paired p50 by far less than the 25 ms that would make a turn more or less.
 */
const CASE_CONCURRENCY = 3;
describe('cases that wait on the wire', { concurrency: CASE_CONCURRENCY }, () => {
  for (const c of cases) wireCase(c);
});

function wireCase(c: Case): void {
  describe(`${c.driver} over ${c.security}`, () => {
    test(`round trips counted = derived from toxiproxy: initial ${c.initial}, subsequent ${c.subsequent} (${c.why})`, async () => {
      const api = testbedEnv('DBPROBE_TEST_TOXIPROXY_URL');
      const label = c.driver.replace(/\W/g, '_');
      const proxies: ToxiProxy[] = [];
      try {
        const plain = await createToxiProxy(api, c.upstream(), `${label}_wire_plain`);
        proxies.push(plain);
        const slow = await createToxiProxy(api, c.upstream(), `${label}_wire_slow`);
        proxies.push(slow);
        await slow.addToxic('latency', { latency: DELAY_MS, jitter: 0 }, 'downstream');
        const measured = (result: RunResult, kind: ProbeKind): [Measurement, Measurement] => [
          found(result, 'slow', kind),
          found(result, 'plain', kind),
        ];
        const result = await probeUntilTurnsDecided(
          (iterations) =>
            probeTargets(
              [
                { name: 'plain', ...withSecurity(c, plain.port) },
                { name: 'slow', ...withSecurity(c, slow.port) },
              ],
              { kinds: ['initial', 'subsequent'], iterations, warmup: 1, order: 'interleaved' },
            ),
          (r) => [measured(r, 'initial'), measured(r, 'subsequent')],
          DELAY_MS,
          `${c.driver} ${c.security}`,
        );
        for (const [kind, expected] of [
          ['initial', c.initial],
          ['subsequent', c.subsequent],
        ] as const) {
          const [slowM, plainM] = measured(result, kind);
          const d = derivedTurns(slowM, plainM, DELAY_MS);
          const text = `${c.driver} ${c.security} ${kind}: counted ${slowM.wire?.roundTrips} (plain proxy ${plainM.wire?.roundTrips}), ${d.text}; p50s ${slowM.stats.p50Us} and ${plainM.stats.p50Us} µs, expected ${expected}; wire ${JSON.stringify(slowM.wire)}`;
          console.log(text);
          assert.equal(slowM.wire?.roundTrips, expected, text);
          assert.equal(plainM.wire?.roundTrips, expected, text);
          assertTurns(expected, d, text);
          if (kind === 'initial' && c.security !== 'plain') {
            assert.equal(slowM.wire?.tlsVersion, c.security === 'TLS 1.2' ? 'TLSv1.2' : 'TLSv1.3', text);
            assert.ok(slowM.wire?.tlsCipher, text);
          }
          if (kind === 'initial') assert.ok((slowM.wire?.tcpHandshakes ?? 0) >= 1, text);
          else assert.equal(slowM.wire?.tcpHandshakes, 0, text);
        }
      } finally {
        await Promise.all(proxies.map((p) => p.remove()));
      }
    });

    test('initial: the bytes counted per sample add up to what a counting proxy saw, within 10%', async () => {
      const [host, port] = c.upstream().split(':');
      const counter = await startByteCountingProxy(host!, Number(port), c.goodbye);
      try {
        const result = await probeTargets([{ name: 'counted', ...withSecurity(c, counter.port) }], {
          kinds: ['initial'],
          iterations: 4,
          warmup: 0,
        });
        const m = found(result, 'counted', 'initial');
        const seen = await counter.settled();
        const sum = (key: 'bytesSent' | 'bytesReceived') =>
          m.samples.values.reduce((total, s) => total + (s.wire?.[key] ?? NaN), 0);
        const text = `${c.driver} ${c.security}: samples sent ${sum('bytesSent')} received ${sum('bytesReceived')}; proxy saw ${JSON.stringify(seen)}`;
        console.log(text);
        assert.equal(seen.accepted, m.samples.values.length * (m.wire?.tcpHandshakes ?? 1), text);
        const sent = seen.sent - seen.goodbye;
        const closing = (c.closingBytes ?? 0) * seen.accepted;
        // What the samples counted never exceeds what went out; the rest is within 10% (and the close).
        assert.ok(sum('bytesSent') <= sent * (1 + BYTE_TOLERANCE), text);
        assert.ok(sent - sum('bytesSent') <= BYTE_TOLERANCE * sent + closing, text);
        const received = seen.received - seen.goodbyeReply;
        assert.ok(Math.abs(sum('bytesReceived') - received) <= BYTE_TOLERANCE * received, text);
      } finally {
        await counter.close();
      }
    });
  });
}

test("neon-ws's client CPU per connect is at least ten times pg's (client-side SCRAM)", async () => {
  const result = await probeTargets(
    [
      { name: 'pg', driver: 'pg', url: testbedEnv('DBPROBE_TEST_PG_URL') },
      {
        name: 'neon-ws',
        driver: 'neon-ws',
        url: testbedEnv('DBPROBE_TEST_PG_URL'),
        options: {
          wsProxy: `127.0.0.1:${testbedEnv('DBPROBE_TEST_WEBSOCKIFY_PORT')}/v1`,
          useSecureWebSocket: false,
          pipelineConnect: false,
        },
      },
    ],
    { kinds: ['initial'], iterations: ITERATION_STEPS[0], warmup: 1 },
  );
  const pg = found(result, 'pg', 'initial').wire?.clientCpuUs;
  const neon = found(result, 'neon-ws', 'initial').wire?.clientCpuUs;
  console.log(`client CPU per connect, median µs: pg ${pg}, neon-ws ${neon}`);
  assert.ok(pg !== undefined && pg > 0 && neon !== undefined, `pg ${pg}, neon-ws ${neon}`);
  assert.ok(neon >= 10 * pg, `neon-ws ${neon} µs vs pg ${pg} µs`);
});

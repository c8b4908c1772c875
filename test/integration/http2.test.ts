/**
 * HTTP/2 for the fetch-based drivers through a real TLS + HTTP/2 front (the testbed's nginx,
 * service `h2front`): with `http.version: "2"` every `initial` sample negotiates h2 in its TLS
 * handshake, and without it http/1.1, as the sample records (`wire.alpn`) and as nginx saw it (its
 * access log's protocol). Either way each `initial` sample opens exactly one TCP connection: nginx's
 * count of accepted connections (stub_status) grows by one per sample, warm-up included, and its
 * access log shows one connection per sample that carried requests.
 */
import assert from 'node:assert/strict';
import { readFileSync, statSync } from 'node:fs';
import { get } from 'node:http';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import type { TargetHttp } from '../../src/shared/plan';
import { describeErrors, measurement, probeTargets, type ProbeTarget } from '../fixtures/probe';
import { assertNoSecret, testbedEnv } from '../helpers/testbed';

const ITERATIONS = 6;
const WARMUP = 1;
const SAMPLES = ITERATIONS + WARMUP;

interface Front {
  driver: string;
  /** The access log of this driver's nginx server (svc-h2front.sh names them). */
  log: string;
  target: () => Omit<ProbeTarget, 'name' | 'driver'>;
}

const FRONTS: Front[] = [
  {
    driver: 'planetscale',
    log: 'ps',
    target: () => ({ url: testbedEnv('DBPROBE_TEST_H2_PS_URL') }),
  },
  {
    driver: 'neon-http',
    log: 'neonHttp',
    target: () => ({
      url: testbedEnv('DBPROBE_TEST_PG_URL'),
      options: { fetchEndpoint: testbedEnv('DBPROBE_TEST_H2_NEON_HTTP_ENDPOINT') },
    }),
  },
  {
    driver: 'libsql',
    log: 'hrana',
    target: () => ({ url: testbedEnv('DBPROBE_TEST_H2_LIBSQL_URL') }),
  },
  {
    driver: 'upstash',
    log: 'upstash',
    target: () => ({ url: testbedEnv('DBPROBE_TEST_H2_UPSTASH_URL') }),
  },
  {
    driver: 'http',
    log: 'rest',
    target: () => ({
      url: testbedEnv('DBPROBE_TEST_H2_REST_URL'),
      query: 'GET /pg_namespace?select=nspname&limit=3',
    }),
  },
];

/** nginx's count of accepted client connections over all fronts (its own request, on a new one, adds one). */
async function acceptedConnections(): Promise<number> {
  const text = await new Promise<string>((resolve, reject) => {
    const request = get(
      testbedEnv('DBPROBE_TEST_H2_FRONT_STATUS_URL'),
      { agent: false, timeout: 3_000 },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve(body)).on('error', reject);
      },
    );
    request.on('timeout', () => request.destroy(new Error('nginx stub_status did not answer in 3 s')));
    request.on('error', reject);
  });
  const accepts = /server accepts handled requests\s+(\d+)/.exec(text)?.[1];
  if (accepts === undefined) throw new Error(`nginx stub_status said: ${text.slice(0, 200)}`);
  return Number(accepts);
}

/** One access-log line: `$connection $connection_requests $server_protocol $ssl_protocol $status ...`. */
interface LogLine {
  connection: string;
  protocol: string;
  status: string;
}

/** The lines nginx appended to a log after `offset`, once `wanted` connections show (bounded wait). */
async function linesSince(file: string, offset: number, wanted: number): Promise<LogLine[]> {
  const deadline = Date.now() + 3_000;
  for (;;) {
    const lines = readFileSync(file, 'utf8')
      .slice(offset)
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => {
        const [connection = '', , protocol = '', , status = ''] = line.split(' ');
        return { connection, protocol, status };
      });
    // nginx logs a request just after its response is sent: give the last one a moment.
    if (new Set(lines.map((l) => l.connection)).size >= wanted || Date.now() > deadline) return lines;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('fetch drivers through a TLS + HTTP/2 front (nginx)', () => {
  // undici 6 warns "H2 support is experimental" on the first HTTP/2 connection; a user who set
  // http.version "2" asked for it, so the warning must not land in the CLI's or runner's output.
  const h2Warnings: string[] = [];
  process.on('warning', (warning) => {
    if ((warning as { code?: unknown }).code === 'UNDICI-H2') h2Warnings.push(warning.message);
  });
  const cases: { label: string; http?: TargetHttp; alpn: string; serverProtocol: string }[] = [
    { label: 'http.version "2"', http: { version: '2' }, alpn: 'h2', serverProtocol: 'HTTP/2.0' },
    { label: 'no http option (Node fetch default)', alpn: 'http/1.1', serverProtocol: 'HTTP/1.1' },
    { label: 'http.version "1.1"', http: { version: '1.1' }, alpn: 'http/1.1', serverProtocol: 'HTTP/1.1' },
  ];
  for (const front of FRONTS) {
    for (const { label, http, alpn, serverProtocol } of cases) {
      test(`${front.driver}, ${label}: alpn ${alpn}, one TCP connection per initial sample`, async () => {
        const log = path.join(testbedEnv('DBPROBE_TEST_H2_FRONT_LOG_DIR'), `${front.log}.access.log`);
        const offset = statSync(log).size;
        const acceptedBefore = await acceptedConnections();
        const name = `${front.driver} via nginx`;
        const result = await probeTargets(
          [
            {
              name,
              driver: front.driver,
              ...front.target(),
              tls: { caFile: testbedEnv('DBPROBE_TEST_CA_FILE') },
              ...(http ? { http } : {}),
            },
          ],
          { kinds: ['initial'], iterations: ITERATIONS, warmup: WARMUP },
        );
        const m = measurement(result, name, 'initial');
        assert.equal(m.stats.count, ITERATIONS, describeErrors(m));
        assert.equal(m.stats.errors, 0);
        // What the client negotiated, on every sample and for the kind.
        const seen = m.samples.values.map((s) => s.wire?.alpn);
        assert.deepEqual(seen, Array<string>(ITERATIONS).fill(alpn));
        assert.equal(m.wire?.alpn, alpn);
        assert.equal(m.wire?.unmeasured?.alpn, undefined);
        assert.deepEqual(result.targets[0]?.http, http);
        // What the server saw: one connection per sample, each speaking the protocol asked for.
        const lines = await linesSince(log, offset, SAMPLES);
        // Minus one: the status request's own connection.
        assert.equal((await acceptedConnections()) - acceptedBefore - 1, SAMPLES);
        assert.equal(new Set(lines.map((l) => l.connection)).size, SAMPLES, JSON.stringify(lines));
        assert.deepEqual([...new Set(lines.map((l) => l.protocol))], [serverProtocol]);
        assert.ok(
          lines.every((l) => /^2\d\d$/.test(l.status)),
          JSON.stringify(lines),
        );
        assertNoSecret([JSON.stringify(result)]);
      });
    }
  }

  test('plaintext http: no alpn, and the reason; http.version "2" there is refused with what to do', async () => {
    const url = testbedEnv('DBPROBE_TEST_PS_URL');
    const result = await probeTargets(
      [
        { name: 'plain', driver: 'planetscale', url },
        { name: 'plain h2', driver: 'planetscale', url, http: { version: '2' } },
      ],
      { kinds: ['initial'], iterations: 3, warmup: 0 },
    );
    const plain = measurement(result, 'plain', 'initial');
    assert.equal(plain.stats.count, 3, describeErrors(plain));
    assert.ok(plain.samples.values.every((s) => s.wire?.alpn === undefined));
    assert.match(plain.wire?.unmeasured?.alpn ?? '', /^plaintext http: ALPN is part of TLS/);
    const h2 = measurement(result, 'plain h2', 'initial');
    assert.equal(h2.stats.count, 0);
    assert.deepEqual(h2.errorsByClass, { config: 1 });
    assert.match(h2.firstErrors[0]?.message ?? '', /http\.version "2" needs an https: endpoint/);
    assertNoSecret([JSON.stringify(result)]);
  });

  test("undici's experimental-HTTP/2 warning was not emitted", () => {
    assert.deepEqual(h2Warnings, []);
  });
});

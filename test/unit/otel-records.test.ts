/**
 * A run result as OpenTelemetry records (src/report/otelRecords.ts): the names and attributes of the
 * semantic conventions (checked against @opentelemetry/semantic-conventions itself), warm queries
 * into db.client.operation.duration and connects into db.client.connection.create_time with the
 * samples' own figures, failures in the same histograms at their time to failure by error.type, one trace per connection with its steps laid end to
 * end and its counted round trips, no credential in any attribute.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createRequire } from 'node:module';
import { runPlan } from '../../src/core/engine';
import { ProbeError } from '../../src/core/failure';
import { DRIVER_CATALOG } from '../../src/drivers/catalog';
import {
  DB_SYSTEM_BY_DRIVER,
  OTEL_METRICS,
  SEMCONV,
  otelRunOf,
  serverOf,
} from '../../src/report/otelRecords';
import { Redactor } from '../../src/shared/redact';
import type { RunResult, SampleSuccess } from '../../src/shared/result';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';

const SECRET = 'hunter2-sentinel-9f8e';
const REFUSED_AFTER_US = 250;
const TIMED_OUT_AFTER_US = 2_000_000;
// The package's own constants (its incubating entry, which this tsconfig's resolution cannot type).
const semconv = createRequire(__filename)('@opentelemetry/semantic-conventions/incubating') as Record<
  string,
  string
>;

/** A real result from the engine (fake drivers and clock), given a pg-like target and split phases. */
async function sampleRun(): Promise<RunResult> {
  const clock = new FakeClock();
  const registry = fakeRegistry([
    fakeDriver('db', clock, { connectUs: [7_000], queryUs: [1_500, 900] }, new FakeDriverStats()),
    fakeDriver(
      'down',
      clock,
      {
        // Refused after 250 µs the first time, then timed out after 2 s: the times to failure.
        connectError: (n) => {
          clock.advanceUs(n === 0 ? REFUSED_AFTER_US : TIMED_OUT_AFTER_US);
          return new ProbeError(n === 0 ? 'refused' : 'timeout', `connect failed ${SECRET}`);
        },
      },
      new FakeDriverStats(),
    ),
  ]);
  const result = await runPlan(
    plan([target('db'), target('down')], { kinds: ['initial', 'subsequent'], iterations: 4 }),
    {
      registry,
      resolveConnection: async () => `fake://u:${SECRET}@h/db`,
      tool: TOOL,
      clock,
      watchClient: false,
    },
  );
  for (const info of result.targets) {
    info.driver = info.name === 'db' ? 'pg' : 'mysql2';
    info.endpoint = info.name === 'db' ? 'db.example.com:6543' : `[::1]`;
  }
  for (const m of result.measurements) {
    if (m.target !== 'db' || m.kind !== 'initial') continue;
    m.samples.values.forEach((s, i) => {
      if (s.us === undefined) return;
      // 7 ms of connect: 0.4 DNS, 1.2 TCP, 2.3 TLS, the rest the handshake.
      Object.assign(s, {
        dnsUs: 400,
        tcpUs: 1_200,
        tlsUs: 2_300,
        handshakeUs: 3_100,
        tlsResumed: false,
        wire: {
          roundTrips: 5 + i,
          tcpHandshakes: 1,
          bytesSent: 900,
          bytesReceived: 3_000,
          tlsVersion: 'TLSv1.3',
          tlsCipher: 'TLS_AES_128_GCM_SHA256',
          alpn: 'postgresql',
        },
      } satisfies Partial<SampleSuccess>);
    });
  }
  return result;
}

const redactor = new Redactor().addSecret(`fake://u:${SECRET}@h/db`);
const redact = (text: string) => redactor.redact(text);

test('the names are those of the semantic conventions', () => {
  assert.equal(OTEL_METRICS.operationDuration, semconv.METRIC_DB_CLIENT_OPERATION_DURATION);
  assert.equal(OTEL_METRICS.connectionCreateTime, semconv.METRIC_DB_CLIENT_CONNECTION_CREATE_TIME);
  assert.equal(SEMCONV.dbSystemName, semconv.ATTR_DB_SYSTEM_NAME);
  assert.equal(SEMCONV.serverAddress, semconv.ATTR_SERVER_ADDRESS);
  assert.equal(SEMCONV.serverPort, semconv.ATTR_SERVER_PORT);
  assert.equal(SEMCONV.errorType, semconv.ATTR_ERROR_TYPE);
  assert.equal(SEMCONV.tlsProtocolName, semconv.ATTR_TLS_PROTOCOL_NAME);
  assert.equal(SEMCONV.tlsProtocolVersion, semconv.ATTR_TLS_PROTOCOL_VERSION);
  assert.equal(SEMCONV.tlsCipher, semconv.ATTR_TLS_CIPHER);
  assert.equal(SEMCONV.tlsNextProtocol, semconv.ATTR_TLS_NEXT_PROTOCOL);
  assert.equal(SEMCONV.tlsResumed, semconv.ATTR_TLS_RESUMED);
});

test("every driver names its database by one of the conventions' db.system.name values", () => {
  const known = new Set(
    Object.entries(semconv)
      .filter(([name]) => name.startsWith('DB_SYSTEM_NAME_VALUE_'))
      .map(([, value]) => value),
  );
  for (const driver of DRIVER_CATALOG) {
    const system = DB_SYSTEM_BY_DRIVER[driver.id];
    assert.ok(system, `driver ${driver.id} has no db.system.name`);
    assert.ok(known.has(system), `driver ${driver.id}: "${system}" is not a db.system.name value`);
  }
  assert.equal(DB_SYSTEM_BY_DRIVER.pg, 'postgresql');
  assert.equal(DB_SYSTEM_BY_DRIVER.libsql, 'sqlite');
  assert.equal(DB_SYSTEM_BY_DRIVER.upstash, 'redis');
});

test('warm queries become db.client.operation.duration, connects db.client.connection.create_time', async () => {
  const result = await sampleRun();
  const run = otelRunOf(result, redact);
  // The target that succeeds: its successes only, with no error.type.
  const ofDb = run.series.filter((s) => s.attributes['dbprobe.target'] === 'db');
  const warm = ofDb.filter((s) => s.metric === OTEL_METRICS.operationDuration);
  const connects = ofDb.filter((s) => s.metric === OTEL_METRICS.connectionCreateTime);
  assert.equal(warm.length, 1);
  assert.equal(connects.length, 1);
  const subsequent = result.measurements.find((m) => m.target === 'db' && m.kind === 'subsequent')!;
  const initial = result.measurements.find((m) => m.target === 'db' && m.kind === 'initial')!;
  assert.deepEqual(
    warm[0]!.seconds,
    subsequent.samples.values.map((s) => (s.us ?? NaN) / 1e6),
  );
  assert.deepEqual(
    connects[0]!.seconds,
    initial.samples.values.map((s) => (s.connectUs ?? NaN) / 1e6),
  );
  assert.equal(connects[0]!.seconds.length, 4);
  assert.deepEqual(warm[0]!.attributes, {
    'db.system.name': 'postgresql',
    'server.address': 'db.example.com',
    'server.port': 6543,
    'dbprobe.target': 'db',
    'dbprobe.driver': 'pg',
    'dbprobe.probe.kind': 'subsequent',
    'dbprobe.place': result.environment.location.label,
  });
});

test('failed samples join the histograms at their time to failure, by error.type, without a cancel', async () => {
  const result = await sampleRun();
  const down = result.measurements.find((m) => m.target === 'down' && m.kind === 'initial')!;
  // A cancelled sample says nothing about the database: it stays out of every histogram.
  down.samples.values.push({ atUs: 1, error: 'cancelled', failedAfterUs: 5 });
  const run = otelRunOf(result, redact);
  const failed = run.series.filter((s) => s.attributes['dbprobe.target'] === 'down');
  const byType = Object.fromEntries(
    failed.map((s) => [
      `${s.metric} ${s.attributes['dbprobe.probe.kind']} ${s.attributes['error.type']}`,
      s.seconds,
    ]),
  );
  const createTime = OTEL_METRICS.connectionCreateTime;
  // initial: the first connect refused, the three after it timed out; subsequent connects once more.
  assert.deepEqual(byType[`${createTime} initial refused`], [REFUSED_AFTER_US / 1e6]);
  assert.deepEqual(byType[`${createTime} initial timeout`], Array(3).fill(TIMED_OUT_AFTER_US / 1e6));
  const warmTimeouts = byType[`${OTEL_METRICS.operationDuration} subsequent timeout`] ?? [];
  assert.ok(warmTimeouts.length > 0, JSON.stringify(Object.keys(byType)));
  assert.ok(warmTimeouts.every((seconds) => seconds === TIMED_OUT_AFTER_US / 1e6));
  assert.equal(failed.filter((s) => s.attributes['error.type'] === 'cancelled').length, 0);
  assert.equal(failed.filter((s) => s.attributes['error.type'] === undefined).length, 0);
  for (const s of failed) {
    assert.equal(s.attributes['db.system.name'], 'mysql');
    assert.equal(s.attributes['server.address'], '::1');
    assert.equal(s.attributes['server.port'], undefined);
    assert.ok(!JSON.stringify(s).includes(SECRET));
  }
  // Each failure once: as many values as kept failures that were not cancels.
  const kept = result.measurements
    .filter((m) => m.target === 'down')
    .flatMap((m) => m.samples.values.filter((v) => v.error !== undefined && v.error !== 'cancelled'));
  assert.equal(
    failed.reduce((n, s) => n + s.seconds.length, 0),
    kept.length,
  );
});

test('failures of a result that kept no time to failure are left out and said in the notes', async () => {
  const result = await sampleRun();
  const down = result.measurements.find((m) => m.target === 'down' && m.kind === 'initial')!;
  for (const sample of down.samples.values) delete sample.failedAfterUs;
  const run = otelRunOf(result, redact);
  const initialFailures = run.series.filter(
    (s) => s.attributes['dbprobe.target'] === 'down' && s.attributes['dbprobe.probe.kind'] === 'initial',
  );
  assert.equal(initialFailures.length, 0);
  assert.ok(
    run.notes.some((note) => /^down initial: 4 failed samples kept no time to failure/.test(note)),
    JSON.stringify(run.notes),
  );
});

test('one trace per connection sample: steps end to end, the counted wire on the root', async () => {
  const result = await sampleRun();
  const run = otelRunOf(result, redact);
  assert.equal(run.traces.length, 4);
  const startedAtUs = Date.parse(result.startedAt) * 1000;
  const initial = result.measurements.find((m) => m.target === 'db' && m.kind === 'initial')!;
  run.traces.forEach((root, i) => {
    const sample = initial.samples.values[i] as SampleSuccess;
    assert.equal(root.name, 'initial db');
    assert.equal(root.startUs, startedAtUs + sample.atUs);
    assert.equal(root.durationUs, sample.us);
    assert.equal(root.attributes['dbprobe.wire.round_trips'], 5 + i);
    assert.equal(root.attributes['dbprobe.wire.tcp_handshakes'], 1);
    assert.equal(root.attributes['tls.next_protocol'], 'postgresql');
    assert.deepEqual(
      root.children.map((c) => [c.name, c.durationUs]),
      [
        ['DNS', 400],
        ['TCP', 1_200],
        ['TLS', 2_300],
        ['handshake', 3_100],
        ['first query', sample.us - 7_000],
      ],
    );
    // End to end: each step starts where the one before it ended.
    root.children.reduce((at, child) => {
      assert.equal(child.startUs, at, child.name);
      return at + child.durationUs;
    }, root.startUs);
    const tls = root.children.find((c) => c.name === 'TLS')!;
    assert.equal(tls.attributes['tls.protocol.version'], '1.3');
    assert.equal(tls.attributes['tls.protocol.name'], 'tls');
    assert.equal(tls.attributes['tls.resumed'], false);
  });
});

test('a connect the driver could not split is one span that says why', async () => {
  const result = await sampleRun();
  const initial = result.measurements.find((m) => m.target === 'db' && m.kind === 'initial')!;
  for (const s of initial.samples.values) {
    if (s.us === undefined) continue;
    delete s.dnsUs;
    delete s.tcpUs;
    delete s.tlsUs;
    delete s.handshakeUs;
  }
  initial.phases = { ...initial.phases!, unmeasured: { tcp: `hidden by the client (${SECRET})` } };
  const root = otelRunOf(result, redact).traces[0]!;
  assert.deepEqual(
    root.children.map((c) => c.name),
    ['connect', 'first query'],
  );
  assert.equal(root.children[0]!.durationUs, 7_000);
  assert.equal(root.children[0]!.attributes['dbprobe.phases.unmeasured'], 'tcp: hidden by the client (****)');
});

test('no attribute carries a credential, whatever the result holds', async () => {
  const result = await sampleRun();
  result.targets[0]!.name = `db ${SECRET}`;
  for (const m of result.measurements) if (m.target === 'db') m.target = `db ${SECRET}`;
  result.targets[0]!.endpoint = `${SECRET}.example.com:5432`;
  const run = otelRunOf(result, redact);
  const text = JSON.stringify(run);
  assert.ok(!text.includes(SECRET), 'the secret is in the records');
  assert.match(text, /"server\.address":"\*\*\*\*\.example\.com"/);
});

test('server.address and server.port from the endpoint', () => {
  assert.deepEqual(serverOf('127.0.0.1:55432'), { address: '127.0.0.1', port: 55432 });
  assert.deepEqual(serverOf('db.example.com'), { address: 'db.example.com' });
  assert.deepEqual(serverOf('[2001:db8::1]:5432'), { address: '2001:db8::1', port: 5432 });
  assert.equal(serverOf('embedded file'), undefined);
  assert.equal(serverOf(undefined), undefined);
});

test('records of a target whose certificate was not checked carry dbprobe.tls.not_verified', async () => {
  const result = await sampleRun();
  result.targets[0]!.tls = { insecure: true, insecureBy: "the connection string's sslmode=no-verify" };
  const run = otelRunOf(result, redact);
  const name = result.targets[0]!.name;
  const marked = run.series.filter((s) => s.attributes['dbprobe.target'] === name);
  assert.ok(marked.length > 0);
  for (const s of marked)
    assert.equal(s.attributes['dbprobe.tls.not_verified'], "the connection string's sslmode=no-verify");
  const others = run.series.filter((s) => s.attributes['dbprobe.target'] !== name);
  for (const s of others) assert.equal(s.attributes['dbprobe.tls.not_verified'], undefined);
});

/**
 * OpenTelemetry out, against a real receiver: the testbed's Jaeger (an OpenTelemetry Collector build,
 * scripts/testbed/svc-jaeger.sh) takes OTLP/HTTP; its query API gives the traces back and its
 * Prometheus exporter the metrics, under their OpenTelemetry names. Every figure read back is
 * compared with the run's own JSON report: the histograms' counts, sums and buckets, each trace's
 * spans against the sample it came from (start, durations, counted round trips), the failures in
 * the same histograms by error.type at their times to failure. Then the receiver as a guest: down,
 * or hanging, the run ends with its report and exit code, and says so once; a watch sends each run;
 * a cancelled run sends what it measured.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { OTEL_BUCKETS_SECONDS } from '../../src/report/otelRecords';
import type { Measurement, RunResult, SampleSuccess } from '../../src/shared/result';
import { configDir, runCli } from '../helpers/cli';
import {
  jaegerTraces,
  scrapedSamples,
  tagOf,
  waitFor,
  type JaegerSpan,
  type JaegerTrace,
  type ScrapedSample,
} from '../helpers/otlpReceiver';
import { testbedEnv, withUrl } from '../helpers/testbed';

const servers: Server[] = [];
after(() => {
  for (const server of servers) server.close();
});

const serviceName = (what: string) => `dbprobe-test-${what}-${randomBytes(4).toString('hex')}`;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function measurement(result: RunResult, target: string, kind: string): Measurement {
  const m = result.measurements.find((x) => x.target === target && x.kind === kind);
  assert.ok(m, `the report has ${target} ${kind}`);
  return m;
}

const successes = (m: Measurement) => m.samples.values.filter((s): s is SampleSuccess => s.us !== undefined);

/** The samples of one histogram and attribute set: count, sum, and the cumulative buckets by bound. */
function histogram(samples: ScrapedSample[], metric: string, labels: Record<string, string>) {
  const mine = samples.filter((s) => Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  const one = (suffix: string) => mine.find((s) => s.name === `${metric}${suffix}`)?.value;
  const buckets = new Map(
    mine.filter((s) => s.name === `${metric}_bucket`).map((s) => [Number(s.labels.le), s.value]),
  );
  return { count: one('_count'), sum: one('_sum'), buckets };
}

/** The bucket counts the samples must give: how many are at or below each bound. */
function expectedBuckets(seconds: number[]): Map<number, number> {
  return new Map(OTEL_BUCKETS_SECONDS.map((bound) => [bound, seconds.filter((s) => s <= bound).length]));
}

function rootOf(trace: JaegerTrace): JaegerSpan {
  const roots = trace.spans.filter((s) => s.references.length === 0);
  assert.equal(roots.length, 1, `one root span in trace ${trace.traceID}`);
  return roots[0]!;
}

test('a run delivers db.client.* metrics and a trace per connection, as its report measured them', async () => {
  const service = serviceName('run');
  const closed = await freePort();
  const cwd = configDir({
    targets: [
      {
        name: 'pg-tls',
        driver: 'pg',
        connection: 'env:PG_TLS',
        tls: { caFile: testbedEnv('DBPROBE_TEST_CA_FILE') },
      },
      { name: 'nobody', driver: 'pg', connection: 'env:NOBODY' },
    ],
    kinds: ['initial', 'subsequent'],
    iterations: 4,
    warmup: 1,
  });
  const env = {
    PG_TLS: testbedEnv('DBPROBE_TEST_PG_TLS_URL'),
    NOBODY: withUrl(testbedEnv('DBPROBE_TEST_PG_URL'), (u) => (u.port = String(closed))),
    OTEL_EXPORTER_OTLP_ENDPOINT: testbedEnv('DBPROBE_TEST_OTLP_URL'),
    OTEL_SERVICE_NAME: service,
  };
  const out = path.join(cwd, 'result.json');
  const run = await runCli(['run', '--quiet', '--format', 'json', '--out', out], {
    cwd,
    env,
    timeoutMs: 120_000,
  });
  // "nobody" measured nothing: exit 1, as without OTLP. The export said nothing on stderr.
  assert.equal(run.code, 1, run.stderr);
  assert.doesNotMatch(run.stderr, /OpenTelemetry/);
  const result = JSON.parse(readFileSync(out, 'utf8')) as RunResult;
  const initial = successes(measurement(result, 'pg-tls', 'initial'));
  const warm = successes(measurement(result, 'pg-tls', 'subsequent'));
  assert.equal(initial.length, 4);
  assert.equal(warm.length, 4);

  // Traces: one per initial sample, matched by its start; spans as measured.
  const traces = await waitFor('4 traces in Jaeger', 20_000, async () => {
    const found = await jaegerTraces(service);
    return found.length >= 4 ? found : undefined;
  });
  assert.equal(traces.length, 4);
  const startedAtUs = Date.parse(result.startedAt) * 1000;
  for (const trace of traces) {
    const root = rootOf(trace);
    const sample = initial.find((s) => startedAtUs + s.atUs === root.startTime);
    assert.ok(sample, `a sample started at ${root.startTime}`);
    assert.equal(root.operationName, 'initial pg-tls');
    assert.equal(root.duration, sample.us);
    assert.equal(tagOf(root, 'span.kind'), 'client');
    assert.equal(tagOf(root, 'db.system.name'), 'postgresql');
    assert.equal(tagOf(root, 'server.address'), '127.0.0.1');
    assert.equal(tagOf(root, 'server.port'), Number(new URL(env.PG_TLS).port));
    assert.ok(
      sample.wire?.roundTrips !== undefined && sample.wire.roundTrips > 0,
      'the report counted round trips',
    );
    assert.equal(tagOf(root, 'dbprobe.wire.round_trips'), sample.wire.roundTrips);
    assert.equal(tagOf(root, 'dbprobe.wire.tcp_handshakes'), sample.wire.tcpHandshakes);
    assert.equal(trace.processes[root.processID]?.serviceName, service);
    const children = trace.spans
      .filter((s) => s !== root)
      .sort((a, b) => a.startTime - b.startTime || a.duration - b.duration);
    for (const child of children) assert.equal(child.references[0]?.spanID, root.spanID);
    const expected: [string, number][] = [
      ...(sample.dnsUs !== undefined ? [['DNS', sample.dnsUs] as [string, number]] : []),
      ['TCP', sample.tcpUs!],
      ['TLS', sample.tlsUs!],
      ['handshake', sample.handshakeUs!],
      ['first query', sample.us - sample.connectUs!],
    ];
    assert.deepEqual(
      children.map((c) => [c.operationName, c.duration]),
      expected,
    );
    const tls = children.find((c) => c.operationName === 'TLS')!;
    assert.equal(`TLSv${String(tagOf(tls, 'tls.protocol.version'))}`, sample.wire.tlsVersion);
  }

  // Metrics: counts, sums and every bucket, as the report's samples give them.
  const base = { 'db.system.name': 'postgresql', 'server.address': '127.0.0.1', 'dbprobe.target': 'pg-tls' };
  const samples = await waitFor('the metrics in the scrape', 20_000, async () => {
    const found = await scrapedSamples(service);
    return found.some((s) => s.name === 'db.client.operation.duration_count') ? found : undefined;
  });
  const operation = histogram(samples, 'db.client.operation.duration', {
    ...base,
    'dbprobe.probe.kind': 'subsequent',
  });
  const warmSeconds = warm.map((s) => s.us / 1e6);
  assert.equal(operation.count, 4);
  assert.ok(Math.abs(operation.sum! - warmSeconds.reduce((a, b) => a + b, 0)) < 1e-9, `sum ${operation.sum}`);
  for (const [bound, count] of expectedBuckets(warmSeconds))
    assert.equal(operation.buckets.get(bound), count, `db.client.operation.duration le=${bound}`);
  const connects = histogram(samples, 'db.client.connection.create_time', {
    ...base,
    'dbprobe.probe.kind': 'initial',
  });
  const connectSeconds = initial.map((s) => s.connectUs! / 1e6);
  assert.equal(connects.count, 4);
  assert.ok(
    Math.abs(connects.sum! - connectSeconds.reduce((a, b) => a + b, 0)) < 1e-9,
    `sum ${connects.sum}`,
  );
  for (const [bound, count] of expectedBuckets(connectSeconds))
    assert.equal(connects.buckets.get(bound), count, `db.client.connection.create_time le=${bound}`);
  const port = samples.find((s) => s.name === 'db.client.operation.duration_count')?.labels['server.port'];
  assert.equal(port, new URL(env.PG_TLS).port);

  // Failures: in the same histograms, by error.type, each at the time to failure the report kept.
  const nobody = measurement(result, 'nobody', 'initial').samples.values;
  const refusedAfter = nobody.flatMap((s) =>
    s.error === 'refused' && s.failedAfterUs !== undefined ? [s.failedAfterUs / 1e6] : [],
  );
  assert.ok(refusedAfter.length > 0, 'the report kept the refused samples with their time to failure');
  assert.equal(refusedAfter.length, nobody.length, 'every kept sample of nobody was refused');
  // A refusal over loopback still takes some microseconds: a zero would be a time never taken.
  assert.ok(
    refusedAfter.every((seconds) => seconds > 0),
    JSON.stringify(refusedAfter),
  );
  const refusedConnects = histogram(samples, 'db.client.connection.create_time', {
    'db.system.name': 'postgresql',
    'server.address': '127.0.0.1',
    'server.port': String(closed),
    'dbprobe.target': 'nobody',
    'dbprobe.probe.kind': 'initial',
    'error.type': 'refused',
  });
  assert.equal(refusedConnects.count, refusedAfter.length);
  assert.ok(
    Math.abs(refusedConnects.sum! - refusedAfter.reduce((a, b) => a + b, 0)) < 1e-9,
    `sum ${refusedConnects.sum}`,
  );
  for (const [bound, count] of expectedBuckets(refusedAfter))
    assert.equal(refusedConnects.buckets.get(bound), count, `refused create_time le=${bound}`);
  // A success carries no error.type, a failure always one; the counter it replaces is gone.
  for (const s of samples.filter((x) => x.name.startsWith('db.client')))
    assert.equal(
      s.labels['error.type'] !== undefined,
      s.labels['dbprobe.target'] === 'nobody',
      `${s.name} ${JSON.stringify(s.labels)}`,
    );
  assert.ok(!samples.some((s) => s.name.startsWith('dbprobe.probe.errors')));
});

test('a receiver that is down or hangs costs one warning, never the run or its exit code', async () => {
  const cwd = configDir({
    targets: [{ name: 'pg', driver: 'pg', connection: 'env:PG' }],
    kinds: ['initial', 'subsequent'],
    iterations: 2,
    warmup: 0,
  });
  const env = { PG: testbedEnv('DBPROBE_TEST_PG_URL'), OTEL_EXPORTER_OTLP_TIMEOUT: '1500' };
  const out = path.join(cwd, 'down.json');
  const down = await runCli(
    ['run', '--quiet', '--format', 'json', '--out', out, '--otlp', `http://127.0.0.1:${await freePort()}`],
    { cwd, env, timeoutMs: 120_000 },
  );
  assert.equal(down.code, 0, down.stderr);
  assert.equal((JSON.parse(readFileSync(out, 'utf8')) as RunResult).measurements.length, 2);
  assert.equal(
    down.stderr.match(
      /could not send the metrics to http:\/\/127\.0\.0\.1:\d+\/v1\/metrics \(.*ECONNREFUSED/g,
    )?.length,
    1,
    down.stderr,
  );
  assert.equal(down.stderr.match(/could not send the traces/g)?.length, 1, down.stderr);

  // Accepts and never answers: the CLI waits the timeout (1.5 s), not longer.
  const sockets: Socket[] = [];
  const hang = createServer((socket) => void sockets.push(socket));
  servers.push(hang);
  await new Promise<void>((resolve) => hang.listen(0, '127.0.0.1', resolve));
  const hangPort = (hang.address() as { port: number }).port;
  let reportAt = 0;
  const hung = await runCli(
    ['run', '--quiet', '--format', 'json', '--out', out, '--otlp', `http://127.0.0.1:${hangPort}`],
    {
      cwd,
      env,
      timeoutMs: 120_000,
      onStderr: (chunk) => {
        if (/wrote json report/.test(chunk) && reportAt === 0) reportAt = performance.now();
      },
    },
  );
  const waitedMs = performance.now() - reportAt;
  for (const socket of sockets) socket.destroy();
  assert.equal(hung.code, 0, hung.stderr);
  assert.ok(sockets.length > 0, 'the CLI connected to the hanging receiver');
  assert.match(hung.stderr, /OpenTelemetry: the receiver did not take the data within 1500 ms/);
  // Lower bound from the timer (it did wait for the receiver); upper bound: the timeout plus the exit.
  assert.ok(waitedMs >= 0.75 * 1500, `left the receiver after ${Math.round(waitedMs)} ms`);
  assert.ok(waitedMs < 1500 + 5_000, `left the receiver after ${Math.round(waitedMs)} ms`);

  // Answers 503 every time: the warning says what such an answer means (the SDK's own text names no status).
  const busy = createServer((socket) => {
    socket.once('data', () => socket.end('HTTP/1.1 503 Service Unavailable\r\ncontent-length: 0\r\n\r\n'));
  });
  servers.push(busy);
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  const busyPort = (busy.address() as { port: number }).port;
  const refused = await runCli(
    ['run', '--quiet', '--format', 'json', '--out', out, '--otlp', `http://127.0.0.1:${busyPort}`],
    { cwd, env, timeoutMs: 120_000 },
  );
  assert.equal(refused.code, 0, refused.stderr);
  assert.match(
    refused.stderr,
    /could not send the (metrics|traces) to http:\/\/127\.0\.0\.1:\d+\/v1\/\w+ \(the receiver kept answering 429, 502, 503 or 504/,
  );
  assert.doesNotMatch(refused.stderr, /retryable status/);
});

test('a watch sends every run; the histograms add up across runs', async () => {
  const service = serviceName('watch');
  const cwd = configDir({ targets: [{ name: 'pg', driver: 'pg', connection: 'env:PG' }] });
  const run = await runCli(
    [
      'watch',
      ...['--runs', '2', '--every', '100ms', '-n', '3', '--warmup', '0', '--kinds', 'initial,subsequent'],
      ...['--open-on-loopback', '--port', '0', '--quiet', '--otlp', testbedEnv('DBPROBE_TEST_OTLP_URL')],
    ],
    { cwd, env: { PG: testbedEnv('DBPROBE_TEST_PG_URL'), OTEL_SERVICE_NAME: service }, timeoutMs: 120_000 },
  );
  assert.equal(run.code, 0, run.stderr);
  const traces = await waitFor('6 traces', 20_000, async () => {
    const found = await jaegerTraces(service);
    return found.length >= 6 ? found : undefined;
  });
  assert.equal(traces.length, 6);
  const samples = await waitFor('6 connects in the scrape', 20_000, async () => {
    const found = await scrapedSamples(service);
    const connects = histogram(found, 'db.client.connection.create_time', { 'dbprobe.target': 'pg' });
    return connects.count === 6 ? found : undefined;
  });
  assert.equal(histogram(samples, 'db.client.operation.duration', { 'dbprobe.target': 'pg' }).count, 6);
});

test('a cancelled run sends what it measured before it ends', async () => {
  const service = serviceName('cancel');
  const cwd = configDir({
    targets: [{ name: 'pg', driver: 'pg', connection: 'env:PG' }],
    kinds: ['initial'],
    iterations: 2_000,
    warmup: 0,
  });
  const out = path.join(cwd, 'cancelled.json');
  let pid = 0;
  let signalled = false;
  const run = await runCli(['run', '--format', 'json', '--out', out], {
    cwd,
    env: {
      PG: testbedEnv('DBPROBE_TEST_PG_URL'),
      OTEL_SERVICE_NAME: service,
      OTEL_EXPORTER_OTLP_ENDPOINT: testbedEnv('DBPROBE_TEST_OTLP_URL'),
    },
    timeoutMs: 120_000,
    onSpawn: (p) => (pid = p),
    // Progress on stderr means samples are being measured: cancel a second later.
    onStderr: () => {
      if (signalled) return;
      signalled = true;
      setTimeout(() => process.kill(pid, 'SIGINT'), 1_000);
    },
  });
  assert.equal(run.code, 130, run.stderr);
  const result = JSON.parse(readFileSync(out, 'utf8')) as RunResult;
  assert.equal(result.state, 'cancelled');
  const measured = successes(measurement(result, 'pg', 'initial')).length;
  assert.ok(measured > 0 && measured < 2_000, `measured ${measured}`);
  const samples = await waitFor(`${measured} connects in the scrape`, 20_000, async () => {
    const found = await scrapedSamples(service);
    return histogram(found, 'db.client.connection.create_time', { 'dbprobe.target': 'pg' }).count !==
      undefined
      ? found
      : undefined;
  });
  assert.equal(
    histogram(samples, 'db.client.connection.create_time', { 'dbprobe.target': 'pg' }).count,
    measured,
  );
  const traces = await waitFor('the traces', 20_000, async () => {
    const found = await jaegerTraces(service);
    return found.length >= Math.min(measured, 500) ? found : undefined;
  });
  assert.equal(traces.length, Math.min(measured, 500));
});

test('a watch cancelled mid-run sends what that run measured', async () => {
  const service = serviceName('watch-cancel');
  const cwd = configDir({ targets: [{ name: 'pg', driver: 'pg', connection: 'env:PG' }] });
  let pid = 0;
  let signalled = false;
  const run = await runCli(
    [
      'watch',
      ...['--every', '60s', '-n', '2000', '--warmup', '0', '--kinds', 'initial'],
      ...['--open-on-loopback', '--port', '0', '--otlp', testbedEnv('DBPROBE_TEST_OTLP_URL')],
    ],
    {
      cwd,
      env: { PG: testbedEnv('DBPROBE_TEST_PG_URL'), OTEL_SERVICE_NAME: service },
      timeoutMs: 120_000,
      onSpawn: (p) => (pid = p),
      // The first run starts as the server is up: cancel it a second in, long before its 2,000 samples.
      onStderr: (chunk) => {
        if (signalled || !/serving/.test(chunk)) return;
        signalled = true;
        setTimeout(() => process.kill(pid, 'SIGINT'), 1_000);
      },
    },
  );
  assert.equal(run.code, 130, run.stderr);
  const connects = await waitFor('the cut run in the scrape', 20_000, async () => {
    const found = await scrapedSamples(service);
    const count = histogram(found, 'db.client.connection.create_time', { 'dbprobe.target': 'pg' }).count;
    return count !== undefined && count > 0 ? count : undefined;
  });
  // Fewer than the run's 2,000: it was cut short, and what it had measured arrived.
  assert.ok(connects < 2_000, `${connects} connects`);
  const traces = await waitFor('its traces', 20_000, async () => {
    const found = await jaegerTraces(service);
    return found.length > 0 ? found : undefined;
  });
  assert.equal(traces.length, Math.min(connects, 500));
});

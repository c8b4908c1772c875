/**
 * The OTLP encodings, against a receiver that takes only protobuf: a gate on 127.0.0.1 answers 415
 * to any body that is not `application/x-protobuf` and hands the others to the testbed's real
 * collector (Jaeger, scripts/testbed/svc-jaeger.sh), which decodes them; the metric names are read
 * back from the collector's Prometheus exporter and the traces from Jaeger's query API. With
 * OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf, and with the variable unset (the specification's
 * default), every export goes through; with http/json the gate refuses it and the run says so once,
 * its report and exit code unchanged.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { after, test } from 'node:test';
import { OTEL_METRICS } from '../../src/report/otelRecords';
import { configDir, runCli } from '../helpers/cli';
import { jaegerTraces, scrapedSamples, waitFor } from '../helpers/otlpReceiver';
import { testbedEnv } from '../helpers/testbed';

const servers: Server[] = [];
after(() => {
  for (const server of servers) server.close();
});

interface Received {
  path: string;
  contentType: string;
  status: number;
}

/** The gate: protobuf bodies go on to the collector, anything else is refused with 415. */
async function protobufOnlyReceiver(): Promise<{ url: string; received: Received[] }> {
  const collector = testbedEnv('DBPROBE_TEST_OTLP_URL').replace(/\/$/, '');
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const contentType = req.headers['content-type'] ?? '';
      const path = req.url ?? '';
      if (req.method !== 'POST' || contentType !== 'application/x-protobuf') {
        received.push({ path, contentType, status: 415 });
        res
          .writeHead(415, { 'Content-Type': 'text/plain' })
          .end('this receiver takes application/x-protobuf only\n');
        return;
      }
      fetch(`${collector}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': contentType },
        body: Buffer.concat(chunks),
        signal: AbortSignal.timeout(10_000),
      }).then(
        async (upstream) => {
          received.push({ path, contentType, status: upstream.status });
          const body = Buffer.from(await upstream.arrayBuffer());
          res
            .writeHead(upstream.status, {
              'Content-Type': upstream.headers.get('content-type') ?? 'application/x-protobuf',
            })
            .end(body);
        },
        (error: unknown) => {
          received.push({ path, contentType, status: 502 });
          res.writeHead(502, { 'Content-Type': 'text/plain' }).end(`collector: ${String(error)}\n`);
        },
      );
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}`, received };
}

const serviceName = (what: string) => `dbprobe-test-${what}-${randomBytes(4).toString('hex')}`;

/** A short run of the testbed PostgreSQL sending to `url`, with `protocol` (undefined: unset). */
async function runSending(url: string, protocol: string | undefined, service: string) {
  const cwd = configDir({
    targets: [{ name: 'pg', driver: 'pg', connection: 'env:PG_URL' }],
    kinds: ['initial', 'subsequent'],
    iterations: 3,
    warmup: 0,
  });
  return runCli(['run', '--quiet', '--format', 'json', '--otlp', url], {
    cwd,
    env: {
      PG_URL: testbedEnv('DBPROBE_TEST_PG_URL'),
      OTEL_SERVICE_NAME: service,
      ...(protocol === undefined ? {} : { OTEL_EXPORTER_OTLP_PROTOCOL: protocol }),
    },
    timeoutMs: 60_000,
  });
}

for (const protocol of ['http/protobuf', undefined]) {
  test(`${protocol ?? 'the default protocol'}: a protobuf-only receiver takes every export`, async () => {
    const receiver = await protobufOnlyReceiver();
    const service = serviceName('protobuf');
    const run = await runSending(receiver.url, protocol, service);
    assert.equal(run.code, 0, run.stderr);
    assert.doesNotMatch(run.stderr, /OpenTelemetry/, 'no export failed');
    assert.deepEqual(
      [...new Set(receiver.received.map((r) => `${r.path} ${r.contentType} ${r.status}`))].sort(),
      ['/v1/metrics application/x-protobuf 200', '/v1/traces application/x-protobuf 200'],
    );
    // The collector decoded them: the metric names come back, and the traces.
    const names = await waitFor('the metrics in the collector', 20_000, async () => {
      const found = new Set((await scrapedSamples(service)).map((s) => s.name));
      return found.has(`${OTEL_METRICS.operationDuration}_count`) ? found : undefined;
    });
    assert.ok(names.has(`${OTEL_METRICS.connectionCreateTime}_count`), [...names].join(', '));
    const traces = await waitFor('3 traces in Jaeger', 20_000, async () => {
      const found = await jaegerTraces(service);
      return found.length >= 3 ? found : undefined;
    });
    assert.equal(traces.length, 3, 'one trace per initial sample');
  });
}

test('http/json: the protobuf-only receiver refuses it, and the run says so once', async () => {
  const receiver = await protobufOnlyReceiver();
  const run = await runSending(receiver.url, 'http/json', serviceName('json'));
  assert.equal(run.code, 0, run.stderr);
  assert.ok(receiver.received.length > 0, 'the run sent something');
  for (const r of receiver.received) assert.match(r.contentType, /^application\/json/, r.path);
  assert.deepEqual([...new Set(receiver.received.map((r) => r.status))], [415]);
  assert.equal(run.stderr.match(/could not send the metrics/g)?.length, 1, run.stderr);
});

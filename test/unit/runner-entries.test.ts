/**
 * The platform entry points through their own handler signatures with Web-standard Request and
 * Response objects (no platform needed), from source and from the esbuild bundles.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { PassThrough } from 'node:stream';
import { test } from 'node:test';
import { pathToFileURL } from 'node:url';
import cloudflare, { WORKER_DRIVERS } from '../../src/runner/entries/cloudflare';
import { handleEvent, streamResponse, type FunctionUrlEvent } from '../../src/runner/entries/lambda';
import type { RunnerHealth, RunStreamLine } from '../../src/shared/runnerApi';
import { tempDir } from '../helpers/tempDir';

const TOKEN = 'entry-test-token-0123456789';
const DIST = path.resolve(__dirname, '../../dist');
const auth = { authorization: `Bearer ${TOKEN}` };

function filePlan() {
  const dir = tempDir('entry');
  process.env.ENTRY_DB_URL = `file:${path.join(dir, 'x.db')}`;
  return {
    targets: [{ name: 'file', driver: 'libsql', connection: 'env:ENTRY_DB_URL' }],
    iterations: 5,
    warmup: 1,
  };
}

function lines(text: string): RunStreamLine[] {
  return text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as RunStreamLine);
}

test('vercel: GET health and POST a run through the Web-standard handlers', async () => {
  process.env.DBPROBE_TOKEN = TOKEN;
  process.env.VERCEL_REGION = 'iad1';
  const vercel = await import('../../src/runner/entries/vercel');
  const health = await vercel.GET(
    new Request('https://x.vercel.app/api/dbprobe/v1/health', { headers: auth }),
  );
  assert.equal(health.status, 200);
  assert.equal(((await health.json()) as RunnerHealth).region, 'iad1');
  const run = await vercel.POST(
    new Request('https://x.vercel.app/api/dbprobe/v1/runs', {
      method: 'POST',
      headers: auth,
      body: JSON.stringify({ plan: filePlan() }),
    }),
  );
  assert.equal(run.status, 200);
  assert.equal(run.headers.get('content-type'), 'application/x-ndjson; charset=utf-8');
  const events = lines(await run.text());
  const done = events.at(-1);
  assert.equal(done?.type, 'done');
  assert.equal(done?.type === 'done' && done.result.measurements[0]?.stats.count, 5);
  assert.equal(done?.type === 'done' && done.result.environment.location.region, 'iad1');
});

test('cloudflare: health lists only HTTP drivers, region from the colo; no token is a 503 that says what to set', async () => {
  const request = Object.assign(new Request('https://w.example.workers.dev/v1/health', { headers: auth }), {
    cf: { colo: 'FRA' },
  });
  const health = await cloudflare.fetch(request, { DBPROBE_TOKEN: TOKEN });
  assert.equal(health.status, 200);
  const body = (await health.json()) as RunnerHealth;
  assert.deepEqual(body.drivers.sort(), [...WORKER_DRIVERS].sort());
  assert.equal(body.region, 'cf-FRA');
  assert.equal(body.runtime, 'cloudflare-workers');
});

test('the handler answers 503 when no token is configured', async () => {
  const { createRunnerHandler } = await import('../../src/runner/handler');
  const { configFromEnv } = await import('../../src/runner/runnerConfig');
  const { createRegistry } = await import('../../src/drivers/registry');
  const handler = createRunnerHandler({ config: configFromEnv({}, 'test'), registry: createRegistry() });
  const response = await handler(new Request('https://r/v1/health'));
  assert.equal(response.status, 503);
  assert.match(
    ((await response.json()) as { error: { message: string } }).error.message,
    /set it in the platform environment/,
  );
});

test('lambda: a function URL event becomes a Request; the response streams through HttpResponseStream', async () => {
  process.env.DBPROBE_TOKEN = TOKEN;
  process.env.AWS_REGION = 'eu-west-1';
  const event: FunctionUrlEvent = {
    rawPath: '/v1/runs',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: Buffer.from(JSON.stringify({ plan: filePlan() })).toString('base64'),
    isBase64Encoded: true,
    requestContext: { http: { method: 'POST' }, domainName: 'abc.lambda-url.eu-west-1.on.aws' },
  };
  const stream = new PassThrough();
  let chunks = '';
  stream.on('data', (c: Buffer) => (chunks += c.toString()));
  let meta: { statusCode: number; headers: Record<string, string> } | undefined;
  await streamResponse(event, stream, (s, m) => {
    meta = m;
    return s;
  });
  assert.equal(meta?.statusCode, 200);
  const events = lines(chunks);
  assert.equal(events[0]?.type, 'start');
  assert.equal(events.at(-1)?.type, 'done');
  const unauthorized = await handleEvent({ ...event, headers: {} });
  assert.equal(unauthorized.status, 401);
});

test('the esbuild bundles load and answer: Node runner entries (cjs) and the Worker (esm)', async () => {
  process.env.DBPROBE_TOKEN = TOKEN;
  const vercel = (await import(path.join(DIST, 'runner-vercel.js'))) as {
    GET: (r: Request) => Promise<Response>;
  };
  assert.equal((await vercel.GET(new Request('https://v/v1/health', { headers: auth }))).status, 200);
  const lambda = (await import(path.join(DIST, 'runner-lambda.js'))) as {
    handleEvent: (e: FunctionUrlEvent) => Promise<Response>;
  };
  const health = await lambda.handleEvent({
    rawPath: '/v1/health',
    headers: auth,
    requestContext: { http: { method: 'GET' } },
  });
  assert.equal(health.status, 200);
  const worker = (await import(pathToFileURL(path.join(DIST, 'runner-cloudflare.mjs')).href)) as {
    default: typeof cloudflare;
  };
  const response = await worker.default.fetch(new Request('https://w/v1/health', { headers: auth }), {
    DBPROBE_TOKEN: TOKEN,
  });
  assert.equal(response.status, 200);
  assert.deepEqual(((await response.json()) as RunnerHealth).drivers.sort(), [...WORKER_DRIVERS].sort());
});

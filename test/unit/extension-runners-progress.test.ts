import assert from 'node:assert/strict';
import * as http from 'node:http';
import { after, before, test } from 'node:test';
import { PlacesProgress } from '../../src/extension/probe/placesProgress';
import { runnerLocation } from '../../src/extension/probe/runnerLocation';
import type { ProbeEvent } from '../../src/shared/events';
import { Redactor } from '../../src/shared/redact';
import { TEST_HEADER } from '../helpers/events';
import { plan } from '../helpers/plans';

const start = (targets: string[], total: number): ProbeEvent => ({
  type: 'start',
  runId: 'r',
  targets,
  kinds: ['initial'],
  totalSamples: total,
  header: TEST_HEADER,
});
const sample = (target: string, us = 10): ProbeEvent => ({
  type: 'sample',
  target,
  kind: 'initial',
  phase: 'measure',
  index: 0,
  atUs: 0,
  us,
});

test('progress per place: one bar that reaches 100% and one figure per place', () => {
  const progress = new PlacesProgress(['this machine', 'us-east-1']);
  assert.equal(progress.message(), 'this machine: starting · us-east-1: starting');
  let total = progress.handle(0, start(['a'], 2))?.increment ?? 0;
  total += progress.handle(0, sample('a'))?.increment ?? 0;
  assert.equal(progress.message(), 'this machine 50% · us-east-1: starting');
  total += progress.handle(1, start(['a'], 4))?.increment ?? 0;
  total += progress.handle(1, sample('a'))?.increment ?? 0;
  assert.equal(progress.message(), 'this machine 50% · us-east-1 25%');
  total += progress.settle(1, 'failed').increment;
  total += progress.handle(0, sample('a'))?.increment ?? 0;
  total += progress.settle(0, 'done').increment;
  assert.equal(Math.round(total), 100);
  assert.equal(progress.message(), 'this machine: done · us-east-1: failed');
});

test('progress in one place reads as before: per target', () => {
  const progress = new PlacesProgress(['this machine']);
  progress.handle(0, start(['pg', 'redis'], 4));
  progress.handle(0, sample('pg'));
  assert.equal(progress.message(), 'pg initial 1/2 · redis 0/2');
});

/** A stand-in runner that streams a start and some samples, then does what `mode` says. */
let server: http.Server;
let url = '';
let mode: 'die' | 'hang' = 'die';
before(async () => {
  server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    const header = {
      ...TEST_HEADER,
      targets: [{ name: 'pg', driver: 'pg', transport: 'tcp', connection: 'env:PG', query: 'SELECT 1' }],
    };
    res.write(JSON.stringify({ ...start(['pg'], 10), header }) + '\n');
    for (let i = 0; i < 3; i++) res.write(JSON.stringify(sample('pg', 1000 + i)) + '\n');
    // 'die': the process is killed mid-run (the socket resets); 'hang': it stops sending.
    if (mode === 'die') setTimeout(() => res.socket?.destroy(), 50);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
after(() => {
  server.closeAllConnections();
  server.close();
});

const request = (signal = new AbortController().signal) => ({
  plan: plan([{ name: 'pg', driver: 'pg', connection: 'env:PG' }], {
    timeouts: { connectMs: 50, queryMs: 50, runMs: 10_000 },
  }),
  resolveConnection: async () => '',
  redactor: new Redactor(),
  signal,
  onEvent: () => undefined,
});

test('a runner killed mid-run: the partial result of what arrived, and an error naming the runner', async () => {
  mode = 'die';
  const location = runnerLocation({
    name: 'use1',
    url,
    token: 'tok',
    region: 'us-east-1',
    label: 'us-east-1',
  });
  const outcome = await location.run(request());
  assert.match(
    outcome.error ?? '',
    /^runner "use1" \(us-east-1\): the connection to runner http:\/\/127\.0\.0\.1:\d+ broke/,
  );
  assert.equal(outcome.result?.state, 'cancelled');
  assert.equal(outcome.result?.measurements[0]?.stats.count, 3);
});

test('a runner that goes silent is given up on within its bound, keeping what arrived', async () => {
  mode = 'hang';
  const location = runnerLocation(
    { name: 'use1', url, token: 'tok', region: 'us-east-1', label: 'us-east-1' },
    200,
  );
  const t0 = Date.now();
  const outcome = await location.run(request());
  assert.ok(Date.now() - t0 < 3000, `gave up after ${Date.now() - t0} ms`);
  assert.match(outcome.error ?? '', /runner "use1" \(us-east-1\): sent nothing for 0\.3 s/);
  assert.equal(outcome.result?.measurements[0]?.stats.count, 3);
  assert.match(outcome.result?.stopReason ?? '', /sent nothing/);
});

test('cancelling a remote run is no runner failure: the result says cancelled', async () => {
  mode = 'hang';
  const controller = new AbortController();
  const location = runnerLocation(
    { name: 'use1', url, token: 'tok', region: 'us-east-1', label: 'us-east-1' },
    10_000,
  );
  setTimeout(() => controller.abort(), 200);
  const outcome = await location.run(request(controller.signal));
  assert.equal(outcome.error, undefined);
  assert.equal(outcome.result?.state, 'cancelled');
});

test('an unreachable runner: no result, an error naming it and saying what to check', async () => {
  // A port that was free a moment ago: nothing listens there.
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise((resolve) => probe.close(resolve));
  const location = runnerLocation({
    name: 'gone',
    url: `http://127.0.0.1:${port}`,
    token: 'tok',
    region: 'eu',
    label: 'eu',
  });
  const outcome = await location.run(request());
  assert.equal(outcome.result, undefined);
  assert.match(
    outcome.error ?? '',
    /^runner "gone" \(eu\): cannot reach runner http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED; check the URL/,
  );
});

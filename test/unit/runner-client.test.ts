/** The runner client against a tiny local server that misbehaves on purpose. */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { type RunnerClientError, runRemote } from '../../src/runner/client';
import type { ProbeEvent } from '../../src/shared/events';
import { TEST_HEADER } from '../helpers/events';

async function serve(handler: Parameters<typeof createServer>[1]): Promise<{ url: string; server: Server }> {
  const server = createServer(handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const start: ProbeEvent = {
  type: 'start',
  runId: 'r',
  targets: ['a'],
  kinds: ['subsequent'],
  totalSamples: 3,
  header: TEST_HEADER,
};
const sample: ProbeEvent = {
  type: 'sample',
  target: 'a',
  kind: 'subsequent',
  phase: 'measure',
  index: 0,
  atUs: 10,
  us: 250,
};

test('a runner that goes silent is given up on after stallMs, keeping what arrived', async () => {
  const { url, server } = await serve((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/x-ndjson' });
    res.write(JSON.stringify(start) + '\n' + JSON.stringify(sample) + '\n');
    // ...and then nothing, with the connection held open.
  });
  try {
    const started = process.hrtime.bigint();
    const outcome = await runRemote({ url, token: 't', request: { plan: {} }, stallMs: 300 });
    const ms = Number(process.hrtime.bigint() - started) / 1e6;
    assert.ok(ms >= 250 && ms < 2000, `gave up after ${ms} ms`);
    assert.match(outcome.error?.message ?? '', /sent nothing for 300 ms/);
    assert.equal(outcome.result.measurements[0]?.stats.count, 1);
    assert.equal(outcome.result.measurements[0]?.stats.p50Us, 250);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});

test('an error status before any event throws with the runner message', async () => {
  const { url, server } = await serve((_req, res) => {
    res.writeHead(403, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({ error: { code: 'connection_refused_by_policy', message: 'host x is not allowed' } }),
    );
  });
  try {
    await assert.rejects(
      runRemote({ url, token: 't', request: { plan: {} } }),
      (e: RunnerClientError) => e.status === 403 && /host x is not allowed/.test(e.message),
    );
  } finally {
    server.close();
  }
});

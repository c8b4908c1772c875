/**
 * A client that trickles its headers or its body cannot hold the Node runner: it is cut off after the
 * configured time, and other clients are answered meanwhile.
 */
import assert from 'node:assert/strict';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { after, before, test } from 'node:test';
import type { Server } from 'node:http';
import { createNodeServer } from '../../src/runner/nodeServer';

const HEADERS_MS = 600;
const REQUEST_MS = 1_200;
let server: Server;
let port = 0;

before(async () => {
  server = createNodeServer(
    async (request) => {
      // Read the body, as POST /v1/runs does, before answering.
      await request.text();
      return new Response('{"ok":true}', { status: 200 });
    },
    { headersMs: HEADERS_MS, requestMs: REQUEST_MS },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
after(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Writes `first`, then one `drip` every 100 ms until the server closes the socket (at most 20 s). */
async function trickle(first: string, drip: string): Promise<{ closedAfterMs: number; reply: string }> {
  const socket: Socket = connect(port, '127.0.0.1');
  await new Promise<void>((resolve) => socket.once('connect', resolve));
  const started = performance.now();
  let reply = '';
  socket.on('data', (chunk: Buffer) => (reply += chunk.toString()));
  socket.write(first);
  const timer = setInterval(() => {
    if (!socket.destroyed && socket.writable) socket.write(drip);
  }, 100);
  const bound = setTimeout(() => socket.destroy(), 20_000);
  await new Promise<void>((resolve) => socket.once('close', () => resolve()));
  clearInterval(timer);
  clearTimeout(bound);
  return { closedAfterMs: performance.now() - started, reply };
}

async function healthy(): Promise<number> {
  const started = performance.now();
  const response = await fetch(`http://127.0.0.1:${port}/v1/health`);
  assert.equal(response.status, 200);
  await response.text();
  return performance.now() - started;
}

test('headers trickled one line at a time are cut off after the headers timeout', async () => {
  const slow = trickle('GET /v1/health HTTP/1.1\r\nHost: runner\r\n', 'X-Slow: 1\r\n');
  // Meanwhile another client is answered at once.
  assert.ok((await healthy()) < HEADERS_MS, 'a normal client is not starved');
  const { closedAfterMs, reply } = await slow;
  assert.ok(closedAfterMs < HEADERS_MS + 1_500, `cut off after ${Math.round(closedAfterMs)} ms`);
  assert.ok(closedAfterMs >= HEADERS_MS * 0.8, `not before the timeout (${Math.round(closedAfterMs)} ms)`);
  assert.match(reply, /^HTTP\/1\.1 408/, 'told why');
});

test('a body trickled one byte at a time is cut off after the request timeout', async () => {
  const slow = trickle(
    'POST /v1/runs HTTP/1.1\r\nHost: runner\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{',
    ' ',
  );
  assert.ok((await healthy()) < REQUEST_MS, 'a normal client is not starved');
  const { closedAfterMs } = await slow;
  assert.ok(closedAfterMs < REQUEST_MS + 1_500, `cut off after ${Math.round(closedAfterMs)} ms`);
  assert.ok(closedAfterMs >= REQUEST_MS * 0.8, `not before the timeout (${Math.round(closedAfterMs)} ms)`);
});

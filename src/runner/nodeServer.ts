/** Serves a fetch handler from Node's http module, cancelling the request when the client goes away. */
import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { FetchHandler } from './handler';

export interface ServerTimeouts {
  /** Time a client has to send all request headers (a trickling client is cut off after it). */
  headersMs: number;
  /** Time a client has to send the whole request, body included (not the streamed answer). */
  requestMs: number;
}

export function createNodeServer(
  handler: FetchHandler,
  timeouts: ServerTimeouts = { headersMs: 10_000, requestMs: 30_000 },
): Server {
  // Node checks these timeouts on an interval (30 s by default): check often enough to honour them.
  const checkEveryMs = Math.max(100, Math.min(1_000, Math.floor(timeouts.headersMs / 4)));
  return createServer(
    {
      headersTimeout: timeouts.headersMs,
      requestTimeout: Math.max(timeouts.requestMs, timeouts.headersMs),
      connectionsCheckingInterval: checkEveryMs,
    },
    (req, res) => {
      serve(handler, req, res).catch(() => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(
          JSON.stringify({
            error: { code: 'internal', message: 'The runner failed to answer; see its log.' },
          }),
        );
      });
    },
  );
}

async function serve(handler: FetchHandler, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const controller = new AbortController();
  // 'close' before the response finished means the client disconnected: cancel the run.
  res.on('close', () => {
    if (!res.writableFinished) controller.abort();
  });
  const hasBody = req.method !== 'GET' && req.method !== 'HEAD';
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === 'string') headers.set(name, value);
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v);
  }
  const request = new Request(`http://${req.headers.host ?? '127.0.0.1'}${req.url ?? '/'}`, {
    method: req.method ?? 'GET',
    headers,
    signal: controller.signal,
    ...(hasBody ? { body: Readable.toWeb(req) as ReadableStream<Uint8Array>, duplex: 'half' } : {}),
  } as RequestInit);
  const response = await handler(request);
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) {
    res.end();
    return;
  }
  const reader = response.body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (res.destroyed) break;
      if (!res.write(value)) await Promise.race([once(res, 'drain'), once(res, 'close')]);
    }
  } finally {
    if (res.destroyed || controller.signal.aborted) await reader.cancel().catch(() => undefined);
    res.end();
  }
}

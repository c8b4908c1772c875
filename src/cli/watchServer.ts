/**
 * The HTTP side of `dbprobe watch`: GET /metrics (Prometheus text) behind a Bearer token, or open
 * when the operator asked for it and the server is bound to loopback. Nothing else is served.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { type Server, createServer } from 'node:http';
import { isIPv6, type AddressInfo } from 'node:net';

export interface WatchServer {
  url: string;
  close(): Promise<void>;
}

export async function startWatchServer(options: {
  host: string;
  port: number;
  token: string | undefined;
  /** The exposition and its Content-Type. */
  metrics: () => Promise<{ body: string; contentType: string }>;
}): Promise<WatchServer> {
  const expected = options.token ? digest(options.token) : undefined;
  const server: Server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics') {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('only /metrics is served here\n');
      return;
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { Allow: 'GET, HEAD' }).end();
      return;
    }
    if (expected) {
      const header = req.headers.authorization ?? '';
      const match = /^Bearer\s+(.+)$/i.exec(header);
      // Hashes compare in constant time whatever the lengths.
      if (!match || !timingSafeEqual(digest(match[1]!.trim()), expected)) {
        res
          .writeHead(401, { 'WWW-Authenticate': 'Bearer', 'Content-Type': 'text/plain' })
          .end(
            'a Bearer token is required (Prometheus: authorization: { type: Bearer, credentials_file: ... })\n',
          );
        return;
      }
    }
    options.metrics().then(
      ({ body, contentType }) => {
        res.writeHead(200, { 'Content-Type': contentType });
        res.end(req.method === 'HEAD' ? undefined : body);
      },
      (error: unknown) => {
        // A bug, not the scraper's fault: say so in the answer Prometheus records as the scrape error.
        res
          .writeHead(500, { 'Content-Type': 'text/plain' })
          .end(
            `dbprobe watch could not write its metrics: ${error instanceof Error ? error.message : String(error)}\n`,
          );
      },
    );
  });
  // A scraper that stalls must not hold the process at Ctrl-C.
  server.keepAliveTimeout = 5_000;
  server.requestTimeout = 10_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  return {
    // An IPv6 address goes in brackets in a URL (RFC 3986): http://[::1]:9464, not http://::1:9464.
    url: `http://${isIPv6(address.address) ? `[${address.address}]` : address.address}:${address.port}/metrics`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

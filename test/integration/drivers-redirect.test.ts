/**
 * An HTTP driver never follows a redirect to another origin: a target (or a runner's allowed host)
 * cannot bounce a probe to a host nobody chose, such as a cloud metadata address.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import { probeTargets } from '../fixtures/probe';

let elsewhere: Server;
let redirector: Server;
let elsewhereRequests = 0;
let redirectorRequests = 0;

const listen = async (server: Server) => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
};

let redirectorPort = 0;
before(async () => {
  elsewhere = createServer((_req, res) => {
    elsewhereRequests++;
    res.end('{"secret":"metadata"}');
  });
  const elsewherePort = await listen(elsewhere);
  redirector = createServer((req, res) => {
    redirectorRequests++;
    res.writeHead(302, { location: `http://127.0.0.1:${elsewherePort}${req.url ?? '/'}` });
    res.end();
  });
  redirectorPort = await listen(redirector);
});
after(async () => {
  await Promise.all(
    [elsewhere, redirector].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))),
  );
});

for (const driver of ['http', 'upstash'] as const) {
  test(`${driver}: a redirect to another origin is an error, and the other origin is never contacted`, async () => {
    const before = { redirector: redirectorRequests, elsewhere: elsewhereRequests };
    const url =
      driver === 'http'
        ? `http://apikey:k@127.0.0.1:${redirectorPort}/rest/v1`
        : `http://default:k@127.0.0.1:${redirectorPort}`;
    const result = await probeTargets(
      [{ name: 'r', driver, url, query: driver === 'http' ? 'GET /x' : 'PING' }],
      {
        iterations: 2,
        warmup: 0,
        kinds: ['initial'],
      },
    );
    const m = result.measurements[0];
    assert.ok(m);
    assert.equal(m.stats.count, 0, 'no sample succeeded');
    assert.match(m.firstErrors[0]?.message ?? '', /redirected to http:\/\/127\.0\.0\.1:\d+, another origin/);
    assert.ok(redirectorRequests > before.redirector, 'the target was asked');
    assert.equal(elsewhereRequests, before.elsewhere, 'the redirect target was never contacted');
  });
}

/**
 * Tokens and keys planted in every connection-string form the new drivers accept must never come
 * out of a run, even from a server that echoes the request (credentials, headers, URL) in its error
 * body. The echo server below is the worst case; the engine's one Redactor (registered with the
 * resolved connection string) and the drivers' own scrubbing are what stand between it and the output.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, test } from 'node:test';
import { toFailure } from '../../src/core/failure';
import { httpTarget } from '../../src/drivers/http';
import { upstashEndpoint } from '../../src/drivers/upstash';
import { Redactor } from '../../src/shared/redact';
import { probeTargets, type ProbeTarget } from '../fixtures/probe';
import { assertNoSecret } from '../helpers/testbed';

const token = () => `sentinel${randomBytes(10).toString('hex')}`;

/** Answers 401 with a body repeating what the client sent, in the error shape its API uses. */
function echo(res: ServerResponse, req: IncomingMessage, body: string): string {
  const said = `rejected ${req.method} ${req.url} headers=${JSON.stringify(req.headers)} body=${body}`;
  // PlanetScale's API nests the error ({"error":{"message","code"}}); the others use a string.
  const text = JSON.stringify(
    req.url?.startsWith('/psdb') ? { error: { message: said, code: 'UNAUTHENTICATED' } } : { error: said },
  );
  res.writeHead(401, { 'Content-Type': 'application/json' });
  res.end(text);
  return said;
}

/** The forms a secret takes on the wire: as is, percent-encoded, or in Basic auth's base64. */
function wireForms(secret: string): string[] {
  return [secret, encodeURIComponent(secret), Buffer.from(`user:${secret}`).toString('base64')];
}

describe('a server that echoes credentials back in its errors', () => {
  let server: Server;
  let base: string;
  /** Everything the server was sent (and echoed back), so a test can prove the secret reached it. */
  const received: string[] = [];
  before(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => received.push(echo(res, req, Buffer.concat(chunks).toString())));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(async () => new Promise<void>((resolve) => server.close(() => resolve())));

  const cases: { form: string; target: (secret: string) => Omit<ProbeTarget, 'name'> }[] = [
    {
      form: 'upstash https://default:TOKEN@host',
      target: (s) => ({ driver: 'upstash', url: `http://default:${s}@${base}` }),
    },
    {
      form: 'upstash ?token=TOKEN',
      target: (s) => ({ driver: 'upstash', url: `http://${base}/?token=${s}` }),
    },
    {
      form: 'upstash ?_token=TOKEN',
      target: (s) => ({ driver: 'upstash', url: `http://${base}/?_token=${s}` }),
    },
    {
      form: 'http apikey:KEY@',
      target: (s) => ({ driver: 'http', url: `http://apikey:${s}@${base}/rest/v1` }),
    },
    {
      form: 'http bearer:KEY@ + {secret} header',
      target: (s) => ({
        driver: 'http',
        url: `http://bearer:${s}@${base}/rest/v1`,
        options: { headers: { apikey: '{secret}' } },
      }),
    },
    {
      form: 'planetscale user:PASSWORD@ (Basic auth)',
      target: (s) => ({ driver: 'planetscale', url: `http://user:${s}@${base}` }),
    },
    {
      form: 'libsql http ?authToken=TOKEN',
      target: (s) => ({ driver: 'libsql', url: `http://${base}?authToken=${s}` }),
    },
    {
      form: 'neon-http postgres://user:PASSWORD@ (connection string in a header)',
      target: (s) => ({
        driver: 'neon-http',
        url: `postgres://user:${s}@${base}/db`,
        options: { fetchEndpoint: `http://${base}/sql` },
      }),
    },
  ];

  for (const c of cases) {
    test(`${c.form}: the error is classified and carries no secret`, async () => {
      const secret = token();
      received.length = 0;
      const result = await probeTargets([{ name: 'echo', ...c.target(secret) }], {
        iterations: 1,
        warmup: 0,
        connectMs: 3_000,
        queryMs: 3_000,
      });
      // The secret reached the server, which echoed it back: redaction had something to remove.
      assert.ok(
        received.some((said) => wireForms(secret).some((form) => said.includes(form))),
        'the server received the secret',
      );
      const m = result.measurements[0];
      assert.ok(m && m.stats.count === 0, 'the sample failed');
      const failure = m.firstErrors[0];
      assert.ok(failure);
      assert.equal(failure.class, 'auth', `a 401 is an auth failure: ${failure.message}`);
      for (const form of wireForms(secret)) assertNoSecret([JSON.stringify(result)], form);
    });
  }
});

describe('the credentials never go into the request URL', () => {
  test('upstash: the token moves to the header, the URL keeps no token', () => {
    const secret = token();
    for (const url of [
      `https://default:${secret}@db.upstash.io`,
      `https://db.upstash.io?token=${secret}`,
      `https://db.upstash.io/?_token=${secret}&x=1`,
    ]) {
      const endpoint = upstashEndpoint(url);
      assert.equal(endpoint.token, secret);
      assert.ok(!endpoint.url.includes(secret), endpoint.url);
    }
    assert.throws(() => upstashEndpoint('https://db.upstash.io'), /no token/);
  });

  test('http: the user name names the header, the URL keeps no credentials', () => {
    const secret = token();
    const apikey = httpTarget(`https://apikey:${secret}@ref.supabase.co/rest/v1?x=1`, {
      headers: { Authorization: 'Bearer {secret}', Prefer: 'count=none' },
    });
    assert.deepEqual(apikey.headers, {
      apikey: secret,
      Authorization: `Bearer ${secret}`,
      Prefer: 'count=none',
    });
    assert.equal(apikey.base.toString(), 'https://ref.supabase.co/rest/v1?x=1');
    assert.deepEqual(httpTarget(`https://bearer:${secret}@h/api`, {}).headers, {
      Authorization: `Bearer ${secret}`,
    });
    assert.deepEqual(httpTarget('https://h/api', {}).headers, {});
    assert.throws(() => httpTarget('https://h/api', { headers: { apikey: '{secret}' } }), /no password/);
  });

  test('the Redactor catches a token in every accepted form once the connection string is registered', () => {
    const secret = token();
    const forms = [
      `https://default:${secret}@db.upstash.io`,
      `https://db.upstash.io?token=${secret}`,
      `https://db.upstash.io?_token=${secret}`,
      `https://apikey:${secret}@ref.supabase.co/rest/v1`,
      `libsql://db-org.turso.io?authToken=${secret}`,
      `wss://db-org.turso.io?authToken=${secret}`,
      `mysql://user:${secret}@aws.connect.psdb.cloud/db`,
      `mongodb+srv://user:${secret}@cluster0.abcde.mongodb.net/db`,
    ];
    for (const url of forms) {
      const redactor = new Redactor().addSecret(url);
      const failure = toFailure(new Error(`server said: bad token ${secret} (Bearer ${secret})`), redactor);
      assert.ok(!failure.message.includes(secret), `${url}: ${failure.message}`);
    }
  });
});

/**
 * The runner faces the internet with secrets in its environment: whatever a client sends, it answers
 * with a JSON error or a run, never crashes, never runs without the token, and never lets a client
 * choose a host outside the operator's allowlist (connection strings and endpoint options alike).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { sameTarget } from '../../src/drivers/httpSession';
import { configFromEnv } from '../../src/runner/runnerConfig';
import { createRunnerHandler, type FetchHandler } from '../../src/runner/handler';
import { connectionHost, hostAllowed } from '../../src/runner/hostPolicy';
import type { RunnerErrorBody } from '../../src/shared/runnerApi';
import { FakeClock, FakeDriverStats, fakeDriver, fakeInfo, fakeRegistry } from '../helpers/fakes';

const TOKEN = 'hardening-token-0123456789abcdef';
const ALLOWED = 'db.example.com,*.example.org';

function runner(env: Record<string, string> = {}) {
  const stats = new FakeDriverStats();
  const driver = { ...fakeDriver('fake', new FakeClock(), { queryUs: [10] }, stats), info: fakeInfo('fake') };
  const endpointDriver = {
    ...fakeDriver('fake-endpoint', new FakeClock(), { queryUs: [10] }, stats),
    info: { ...fakeInfo('fake-endpoint'), endpointOptions: ['fetchEndpoint'] },
  };
  const handler = createRunnerHandler({
    config: configFromEnv(
      {
        DBPROBE_TOKEN: TOKEN,
        DBPROBE_ALLOW_CLIENT_CONNECTIONS: '1',
        DBPROBE_ALLOWED_HOSTS: ALLOWED,
        OWN_URL: 'fake://user:runner-secret@db.example.com/db',
        ...env,
      },
      'test',
    ),
    registry: fakeRegistry([driver, endpointDriver]),
  });
  return { handler, stats };
}

async function post(handler: FetchHandler, body: string, headers: Record<string, string>) {
  return reply(handler, new Request('http://runner.test/v1/runs', { method: 'POST', body, headers }));
}

async function reply(handler: FetchHandler, request: Request) {
  const response = await handler(request);
  const text = await response.text();
  return { status: response.status, text, contentType: response.headers.get('content-type') ?? '' };
}

function assertJsonError(reply: { status: number; text: string; contentType: string }, status?: number) {
  if (status !== undefined) assert.equal(reply.status, status, reply.text);
  assert.ok(reply.status >= 400 && reply.status < 500, `a 4xx, got ${reply.status}: ${reply.text}`);
  assert.match(reply.contentType, /application\/json/);
  const body = JSON.parse(reply.text) as RunnerErrorBody;
  assert.equal(typeof body.error.code, 'string');
  assert.ok(body.error.message.length > 10, 'the message says what to do');
}

const authorizations = fc.oneof(
  fc.constant(undefined),
  fc.string({ maxLength: 80 }),
  fc.string({ maxLength: 40 }).map((s) => `Bearer ${s}`),
  fc.constantFrom(
    `Bearer ${TOKEN} `,
    `bearer ${TOKEN.slice(0, -1)}`,
    `Basic ${TOKEN}`,
    `Bearer ${TOKEN}x`,
    TOKEN,
  ),
);
const bodies = fc.oneof(
  fc.string({ maxLength: 300 }),
  fc.json({ maxDepth: 4 }),
  fc.constant(
    JSON.stringify({ plan: { targets: [{ name: 'a', driver: 'fake', connection: 'env:OWN_URL' }] } }),
  ),
);

test('without the exact token: always 401 JSON, and nothing runs', async () => {
  const { handler, stats } = runner();
  let answered = 0;
  let rejectedByPlatform = 0;
  await fc.assert(
    fc.asyncProperty(authorizations, bodies, async (authorization, body) => {
      if (
        authorization !== undefined &&
        /^\s*bearer\s+/i.test(authorization) &&
        authorization.trim().split(/\s+/)[1] === TOKEN
      )
        return; // that one is the valid token
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (authorization !== undefined) headers.authorization = authorization;
      let request: Request;
      try {
        request = new Request('http://runner.test/v1/runs', { method: 'POST', body, headers });
      } catch (error) {
        // Headers the platform itself rejects (invalid characters) never reach the runner; only the
        // request's construction is excused, never the handler's own work.
        if (error instanceof TypeError) {
          rejectedByPlatform += 1;
          return;
        }
        throw error;
      }
      assertJsonError(await reply(handler, request), 401);
      answered += 1;
    }),
    { numRuns: 300 },
  );
  assert.equal(stats.connects, 0, 'no run started without the token');
  assert.ok(
    answered > rejectedByPlatform,
    `the runner answered ${answered}, the platform refused ${rejectedByPlatform}`,
  );
});

test('with the token, any body gets a 4xx JSON error or a run, never a crash', async () => {
  const { handler } = runner();
  const plans = fc.record(
    {
      plan: fc.record(
        {
          targets: fc.array(
            fc.record(
              {
                name: fc.string({ maxLength: 20 }),
                driver: fc.constantFrom('fake', 'pg', '', 'fake-endpoint'),
                connection: fc.constantFrom('env:OWN_URL', 'env:NOPE', 'secret:x', 'fake://u:p@h/db', ''),
                options: fc.dictionary(fc.string({ maxLength: 12 }), fc.jsonValue({ maxDepth: 2 })),
              },
              { requiredKeys: [] },
            ),
            { maxLength: 3 },
          ),
          iterations: fc.oneof(fc.integer(), fc.double(), fc.string({ maxLength: 5 })),
          warmup: fc.oneof(fc.integer({ min: -5, max: 5 }), fc.constant(null)),
        },
        { requiredKeys: [] },
      ),
      connections: fc.oneof(
        fc.constant(undefined),
        fc.dictionary(fc.string({ maxLength: 8 }), fc.oneof(fc.string({ maxLength: 40 }), fc.integer())),
        fc.jsonValue({ maxDepth: 2 }),
      ),
    },
    { requiredKeys: [] },
  );
  await fc.assert(
    fc.asyncProperty(
      fc.oneof(
        bodies,
        plans.map((p) => JSON.stringify(p)),
      ),
      async (body) => {
        const reply = await post(handler, body, { authorization: `Bearer ${TOKEN}` });
        if (reply.status === 200) {
          assert.match(reply.contentType, /application\/x-ndjson/);
          for (const line of reply.text.trim().split('\n')) JSON.parse(line);
          return;
        }
        assertJsonError(reply);
      },
    ),
    { numRuns: 300 },
  );
});

const BYPASSES = [
  'fake://u:p@db.example.com.evil.test/db',
  'fake://u:p@evil.test#db.example.com',
  'fake://u:p@evil.test?db.example.com',
  'fake://u:p@evil.test/db.example.com',
  'fake://db.example.com@evil.test/db',
  'fake://u:p@db.example.com@evil.test/db',
  'fake://u:p@db.example.com:5432@evil.test/db',
  'fake://u:p@evil.test\\@db.example.com/db',
  'fake://u:p@evil.test%2f@db.example.com/db',
  'fake://u:p@db.example.com/db?host=evil.test',
  'fake://u:p@db.example.com/db?hostaddr=169.254.169.254',
  'fake://u:p@db.example.com,evil.test/db',
  'fake://u:p@ db.example.com/db',
  'fake://u:p@169.254.169.254/db',
  'fake://u:p@2852039166/db',
  'fake://u:p@0xa9fea9fe/db',
  'fake://u:p@0251.0376.0251.0376/db',
  'fake://u:p@[::ffff:169.254.169.254]/db',
  'fake://u:p@[::ffff:a9fe:a9fe]/db',
  'fake://u:p@127.0.0.1/db',
  'fake://u:p@localhost/db',
  'fake://u:p@example.org/db',
  'fake://u:p@evilexample.org/db',
  'fake://u:p@db.example.com.\u3002evil.test/db',
  `fake://u:p@${'a'.repeat(5_000)}.example.org/db`,
];

test('the host allowlist resists the usual bypasses; nothing is contacted', async () => {
  const { handler, stats } = runner();
  for (const url of BYPASSES) {
    const body = JSON.stringify({
      plan: { targets: [{ name: 'a', driver: 'fake', connection: 'secret:a' }] },
      connections: { a: url },
    });
    const reply = await post(handler, body, { authorization: `Bearer ${TOKEN}` });
    assertJsonError(reply, 403);
    assert.match(reply.text, /connection_refused_by_policy/, url);
  }
  assert.equal(stats.connects, 0, 'no bypass reached a driver');
  // The control: allowed hosts do run.
  for (const url of ['fake://u:p@db.example.com/db', 'fake://u:p@eu.db.example.org:5432/db']) {
    const body = JSON.stringify({
      plan: { targets: [{ name: 'a', driver: 'fake', connection: 'secret:a' }], iterations: 1, warmup: 0 },
      connections: { a: url },
    });
    const reply = await post(handler, body, { authorization: `Bearer ${TOKEN}` });
    assert.equal(reply.status, 200, `${url}: ${reply.text}`);
  }
  assert.ok(stats.connects >= 2, 'allowed hosts reached the driver');
});

test("an endpoint option cannot carry the runner's own secret to another host", async () => {
  const { handler, stats } = runner();
  for (const endpoint of [
    'https://evil.test/sql',
    'evil.test:443/v2',
    'https://db.example.com@evil.test/sql',
    42,
  ]) {
    const body = JSON.stringify({
      plan: {
        targets: [
          {
            name: 'a',
            driver: 'fake-endpoint',
            connection: 'env:OWN_URL',
            options: { fetchEndpoint: endpoint },
          },
        ],
      },
    });
    const reply = await post(handler, body, { authorization: `Bearer ${TOKEN}` });
    assertJsonError(reply, 403);
    assert.match(reply.text, /fetchEndpoint/);
    assert.doesNotMatch(reply.text, /runner-secret/);
  }
  assert.equal(stats.connects, 0);
  const allowed = JSON.stringify({
    plan: {
      targets: [
        {
          name: 'a',
          driver: 'fake-endpoint',
          connection: 'env:OWN_URL',
          options: { fetchEndpoint: 'https://api.db.example.com.example.org/sql' },
        },
      ],
      iterations: 1,
      warmup: 0,
    },
  });
  assert.equal((await post(handler, allowed, { authorization: `Bearer ${TOKEN}` })).status, 200);
});

test('host checks: one plain host or refused, with a reason', () => {
  assert.deepEqual(connectionHost('postgres://u:p%40ss@DB.example.com:5432/db'), {
    ok: true,
    host: 'db.example.com',
  });
  for (const url of BYPASSES.slice(0, 13)) {
    const checked = connectionHost(url);
    assert.ok(!checked.ok || !hostAllowed(checked.host, ALLOWED.split(',')), url);
  }
  assert.equal(hostAllowed('example.org', ['*.example.org']), false, 'the bare suffix is not under it');
  assert.equal(hostAllowed('x.example.org.', ['*.example.org']), true, 'a trailing dot is the same name');
});

test('an HTTP session treats a default port and the same port spelt out as one origin', () => {
  const https = { protocol: 'https:', hostname: 'db.example.com', host: 'db.example.com', port: '' };
  assert.equal(sameTarget(https, { ...https, port: '443' }), true);
  assert.equal(sameTarget(https, { ...https, port: '8443' }), false);
  assert.equal(sameTarget(https, { ...https, hostname: 'evil.test' }), false);
});

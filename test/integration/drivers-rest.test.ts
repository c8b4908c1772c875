/**
 * The fetch drivers for REST data APIs through the engine:
 * - upstash against the Upstash REST stand-in backed by the real Redis;
 * - http against the PostgREST-like stand-in backed by the real PostgreSQL (Supabase REST shape),
 *   with the apikey header and the expected status.
 * Both stand-ins count their TCP connections.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import Redis from 'ioredis';
import { waitFor } from '../fixtures/connections';
import { startPostgrestStandIn, type PostgrestStandIn } from '../fixtures/postgrestStandIn';
import { describeErrors, measurement, probeTargets } from '../fixtures/probe';
import { startUpstashStandIn, type UpstashStandIn } from '../fixtures/upstashStandIn';
import { assertNoSecret, testbedEnv } from '../helpers/testbed';

const ITERATIONS = 12;
const WARMUP = 2;
const SAMPLES = ITERATIONS + WARMUP;

describe('upstash against the Upstash REST stand-in (real Redis)', () => {
  const token = `up-${randomBytes(12).toString('hex')}`;
  let standIn: UpstashStandIn;
  before(async () => {
    standIn = await startUpstashStandIn(testbedEnv('DBPROBE_TEST_REDIS_URL'), token);
  });
  after(async () => standIn?.close());

  for (const [kind, expected] of [
    ['initial', SAMPLES],
    ['subsequent', 1],
  ] as const) {
    for (const form of ['password', 'query'] as const) {
      test(`${kind}, token as ${form}: ${expected} connection(s) for ${SAMPLES} samples`, async () => {
        const url =
          form === 'password'
            ? `http://default:${token}@127.0.0.1:${standIn.port}`
            : `http://127.0.0.1:${standIn.port}/?token=${token}`;
        const before = standIn.stats();
        const result = await probeTargets([{ name: 'upstash', driver: 'upstash', url }], {
          kinds: [kind],
          iterations: ITERATIONS,
          warmup: WARMUP,
        });
        const m = measurement(result, 'upstash', kind);
        assert.equal(m.stats.count, ITERATIONS, describeErrors(m));
        assert.equal(m.stats.errors, 0);
        assert.equal(result.targets[0]?.query, 'PING');
        const after = await waitFor(
          () => standIn.stats(),
          (s) => s.open === 0,
        );
        assert.equal(after.accepted - before.accepted, expected);
        assert.equal(after.requests - before.requests, SAMPLES);
        assert.equal(after.open, 0);
        assertNoSecret([JSON.stringify(result)], token);
      });
    }
  }

  test('GET of a key really reaches Redis', async () => {
    const key = `dbprobe:upstash:${randomBytes(4).toString('hex')}`;
    const redis = new Redis(testbedEnv('DBPROBE_TEST_REDIS_URL'), { lazyConnect: true });
    await redis.connect();
    try {
      const url = `http://default:${token}@127.0.0.1:${standIn.port}`;
      const result = await probeTargets(
        [
          { name: 'set', driver: 'upstash', url, query: `SET ${key} "a value with spaces"` },
          { name: 'get', driver: 'upstash', url, query: `GET ${key}` },
        ],
        { kinds: ['subsequent'], iterations: 2, warmup: 0, order: 'sequential' },
      );
      assert.equal(measurement(result, 'get', 'subsequent').stats.count, 2);
      assert.equal(await redis.get(key), 'a value with spaces');
    } finally {
      await redis.del(key);
      redis.disconnect();
    }
  });

  test('an unknown command is a query error in the API own words', async () => {
    const result = await probeTargets(
      [
        {
          name: 'bad',
          driver: 'upstash',
          url: `http://default:${token}@127.0.0.1:${standIn.port}`,
          query: 'NOSUCHCOMMAND x',
        },
      ],
      { kinds: ['subsequent'], iterations: 2, warmup: 0 },
    );
    const m = measurement(result, 'bad', 'subsequent');
    assert.equal(m.errorsByClass.query, 2);
    assert.match(m.firstErrors[0]?.message ?? '', /HTTP 400: ERR unknown command/);
  });
});

describe('http against the PostgREST-like stand-in (real PostgreSQL)', () => {
  const key = `anon-${randomBytes(12).toString('hex')}`;
  let standIn: PostgrestStandIn;
  before(async () => {
    standIn = await startPostgrestStandIn(testbedEnv('DBPROBE_TEST_PG_URL'), key);
  });
  after(async () => standIn?.close());
  const url = () => standIn.url.replace('http://', `http://apikey:${key}@`);
  const query = 'GET /pg_namespace?select=nspname&limit=3';

  for (const [kind, expected] of [
    ['initial', SAMPLES],
    ['subsequent', 1],
  ] as const) {
    test(`${kind}: ${expected} connection(s), apikey and Authorization headers from the secret`, async () => {
      const before = standIn.stats();
      const result = await probeTargets(
        [
          {
            name: 'supabase rest',
            driver: 'http',
            url: url(),
            query,
            options: { headers: { Authorization: 'Bearer {secret}' } },
          },
        ],
        { kinds: [kind], iterations: ITERATIONS, warmup: WARMUP },
      );
      const m = measurement(result, 'supabase rest', kind);
      assert.equal(m.stats.count, ITERATIONS, describeErrors(m));
      assert.equal(m.stats.errors, 0);
      const after = await waitFor(
        () => standIn.stats(),
        (s) => s.open === 0,
      );
      assert.equal(after.accepted - before.accepted, expected);
      assert.equal(after.requests - before.requests, SAMPLES);
      assert.equal(after.open, 0);
      assertNoSecret([JSON.stringify(result)], key);
    });
  }

  test('a wrong key is an auth error; expectStatus makes the same answer a success', async () => {
    const wrong = standIn.url.replace('http://', 'http://apikey:not-the-key@');
    const result = await probeTargets(
      [
        { name: 'wrong key', driver: 'http', url: wrong, query },
        { name: 'expect 401', driver: 'http', url: wrong, query, options: { expectStatus: 401 } },
        { name: 'no key', driver: 'http', url: standIn.url, query },
        {
          name: 'expect 404',
          driver: 'http',
          url: url(),
          query: 'GET /no_such_table',
          options: { expectStatus: [404] },
        },
        { name: 'expect 200 got 404', driver: 'http', url: url(), query: 'GET /no_such_table' },
      ],
      { kinds: ['subsequent'], iterations: 2, warmup: 0 },
    );
    // The engine stops a target after an auth error: retrying would fail the same way.
    for (const name of ['wrong key', 'no key']) {
      const m = measurement(result, name, 'subsequent');
      assert.equal(m.stats.count, 0, name);
      assert.equal(m.firstErrors[0]?.class, 'auth', name);
      assert.match(m.firstErrors[0]?.message ?? '', /HTTP 401 .*Invalid API key/);
    }
    assert.equal(measurement(result, 'expect 401', 'subsequent').stats.count, 2);
    assert.equal(measurement(result, 'expect 404', 'subsequent').stats.count, 2);
    const missing = measurement(result, 'expect 200 got 404', 'subsequent');
    assert.equal(missing.errorsByClass.query, 2);
    assert.match(missing.firstErrors[0]?.message ?? '', /expected 2xx.*does not exist/);
  });
});

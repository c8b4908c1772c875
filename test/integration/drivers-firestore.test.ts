/**
 * Cloud Firestore's REST API through the real `http` driver and the Firestore preset, against the
 * Firestore stand-in (test/fixtures/firestoreStandIn.ts) serving documents from the testbed's real
 * PostgreSQL over https with the testbed CA: a document read per sample with an API key (header) or
 * an access token (Bearer), a fresh connection per `initial` sample and one for `subsequent`, and
 * Firestore's errors (400 API_KEY_INVALID, 401, 403, 404) as error classes that never carry the key.
 */
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import { presetTargetSpec } from '../../src/extension/connections/presets';
import type { TargetSpec } from '../../src/shared/plan';
import { waitFor } from '../fixtures/connections';
import { startFirestoreStandIn, type FirestoreStandIn } from '../fixtures/firestoreStandIn';
import { createScratchDatabase, type ScratchDatabase } from '../fixtures/pgDatabase';
import { describeErrors, measurement, probeTargets, type ProbeTarget } from '../fixtures/probe';
import { testbedServeTls } from '../fixtures/standInServer';
import { assertNoSecret, testbedEnv } from '../helpers/testbed';

const PROJECT = 'dbprobe-firestore';
const ITERATIONS = 8;
const WARMUP = 2;
const SAMPLES = ITERATIONS + WARMUP;
const apiKey = `AIza${randomBytes(16).toString('hex')}`;
const accessToken = `ya29.${randomBytes(20).toString('hex')}`;

let db: ScratchDatabase;
let standIn: FirestoreStandIn;

/** A preset target as Add Connection makes it, with the user's connection string and document. */
function presetTarget(
  presetTarget: 'rest-key' | 'rest-token',
  name: string,
  url: string,
  document: string,
): ProbeTarget {
  const spec: TargetSpec = presetTargetSpec('firestore', presetTarget, { name, connection: 'env:X' });
  assert.equal(spec.driver, 'http');
  assert.equal(spec.query, 'GET /COLLECTION/DOCUMENT');
  const { connection: _connection, ...rest } = spec;
  return { ...rest, query: `GET /${document}`, url, tls: { caFile: testbedEnv('DBPROBE_TEST_CA_FILE') } };
}

/** The connection string the preset's example describes, pointed at the stand-in. */
function connection(user: 'x-goog-api-key' | 'bearer', secret: string, project = PROJECT): string {
  const url = new URL(standIn.documentsUrl.replace(`/projects/${PROJECT}/`, `/projects/${project}/`));
  url.username = user;
  url.password = secret;
  return url.toString();
}

before(async () => {
  db = await createScratchDatabase(
    testbedEnv('DBPROBE_TEST_PG_ADMIN_URL'),
    testbedEnv('DBPROBE_TEST_PG_URL'),
    'firestore',
  );
  standIn = await startFirestoreStandIn({
    pgUrl: db.url,
    projectId: PROJECT,
    apiKey,
    accessToken,
    publicCollections: ['products'],
    tls: testbedServeTls(),
  });
  const client = new pg.Client({ connectionString: db.url });
  await client.connect();
  try {
    await client.query(
      `INSERT INTO firestore_documents (collection, id, data) VALUES
         ('products', 'p1', $1), ('orders', 'o1', $2)`,
      [
        JSON.stringify({
          title: 'Chair',
          stock: 42,
          price: 19.5,
          active: true,
          discontinued: null,
          added: '2024-05-01T12:00:00Z',
          tags: ['wood', 3],
          size: { w: 40, h: 90.5 },
        }),
        JSON.stringify({ total: 7 }),
      ],
    );
  } finally {
    await client.end();
  }
});

after(async () => {
  await standIn?.close();
  await db?.drop();
});

describe('Firestore REST (stand-in over https, real PostgreSQL) through the http driver', () => {
  for (const [kind, connections] of [
    ['initial', SAMPLES],
    ['subsequent', 1],
  ] as const) {
    test(`API key preset, ${kind}: ${SAMPLES} document reads over ${connections} connection(s)`, async () => {
      const before = standIn.stats();
      const result = await probeTargets(
        [presetTarget('rest-key', 'fs-key', connection('x-goog-api-key', apiKey), 'products/p1')],
        { kinds: [kind], iterations: ITERATIONS, warmup: WARMUP },
      );
      const m = measurement(result, 'fs-key', kind);
      assert.equal(m.stats.count, ITERATIONS, describeErrors(m));
      assert.equal(m.stats.errors, 0);
      const afterRun = await waitFor(
        () => standIn.stats(),
        (s) => s.open === 0,
      );
      assert.equal(afterRun.requests - before.requests, SAMPLES);
      assert.equal(afterRun.accepted - before.accepted, connections);
      assertNoSecret([JSON.stringify(result)], apiKey);
    });
  }

  test('access token preset reads a collection the rules keep from API-key callers', async () => {
    const result = await probeTargets(
      [presetTarget('rest-token', 'fs-token', connection('bearer', accessToken), 'orders/o1')],
      { kinds: ['subsequent'], iterations: 3, warmup: 0 },
    );
    const m = measurement(result, 'fs-token', 'subsequent');
    assert.equal(m.stats.count, 3, describeErrors(m));
    assertNoSecret([JSON.stringify(result)], accessToken);
  });

  test('the document comes back in Firestore JSON value encoding', async () => {
    const response = await fetch(`${standIn.documentsUrl}/products/p1`, {
      headers: { 'X-Goog-Api-Key': apiKey },
      // The stand-in serves the testbed's certificate; this check reads the body, not the TLS.
      dispatcher: new (await import('undici')).Agent({ connect: { rejectUnauthorized: false } }),
    } as RequestInit);
    assert.equal(response.status, 200);
    const doc = (await response.json()) as Record<string, unknown>;
    assert.equal(doc.name, `projects/${PROJECT}/databases/(default)/documents/products/p1`);
    assert.deepEqual(doc.fields, {
      title: { stringValue: 'Chair' },
      stock: { integerValue: '42' },
      price: { doubleValue: 19.5 },
      active: { booleanValue: true },
      discontinued: { nullValue: null },
      added: { timestampValue: '2024-05-01T12:00:00Z' },
      tags: { arrayValue: { values: [{ stringValue: 'wood' }, { integerValue: '3' }] } },
      size: { mapValue: { fields: { w: { integerValue: '40' }, h: { doubleValue: 90.5 } } } },
    });
    assert.match(String(doc.createTime), /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/);
  });

  const failures: [string, string, RegExp][] = [
    ['a wrong API key: 400 API_KEY_INVALID, an auth failure', 'auth', /API_KEY_INVALID/],
    ['a wrong access token: 401 UNAUTHENTICATED', 'auth', /401/],
    [
      'an API key on a collection the rules do not open: 403 PERMISSION_DENIED',
      'auth',
      /403.*Missing or insufficient permissions/,
    ],
    ['a document that does not exist: 404', 'query', /404.*not found/],
    ['a project without a Firestore database: 404', 'query', /404.*does not exist for project/],
  ];
  const targets = () => [
    presetTarget('rest-key', 'bad-key', connection('x-goog-api-key', `AIza${'0'.repeat(32)}`), 'products/p1'),
    presetTarget('rest-token', 'bad-token', connection('bearer', 'ya29.expired-token-000'), 'orders/o1'),
    presetTarget('rest-key', 'denied', connection('x-goog-api-key', apiKey), 'orders/o1'),
    presetTarget('rest-key', 'missing', connection('x-goog-api-key', apiKey), 'products/nope'),
    presetTarget('rest-key', 'no-db', connection('x-goog-api-key', apiKey, 'other-project'), 'products/p1'),
  ];
  test('Firestore errors become error classes with its words, never with the key or token', async () => {
    const list = targets();
    const result = await probeTargets(list, { kinds: ['initial'], iterations: 2, warmup: 0 });
    for (const [i, [what, errorClass, words]] of failures.entries()) {
      const name = list[i]!.name;
      const m = measurement(result, name, 'initial');
      assert.equal(m.stats.count, 0, `${what}: no sample succeeds`);
      const first = m.firstErrors[0];
      assert.ok(first, `${what}: the error is kept`);
      assert.equal(first.class, errorClass, `${what}: ${first.message}`);
      assert.match(first.message, words, what);
    }
    const text = JSON.stringify(result);
    for (const secret of [apiKey, accessToken, `AIza${'0'.repeat(32)}`, 'ya29.expired-token-000'])
      assertNoSecret([text], secret);
  });
});

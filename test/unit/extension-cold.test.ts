/**
 * The editor's cold step, without VS Code: Neon ids from settings, the connection string's host or an
 * earlier answer; the API key from secret storage before the environment; suspend commands as shown;
 * which connection strings get the TLS trust step; the progress line during a wait; the panel's rows;
 * and what a ColdAccess lets the preparer do.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { coldPreparerFor } from '../../src/cold/access';
import { ProbeError } from '../../src/core/failure';
import { commandKey, neonIdsOf, showCommand, withNeonIds } from '../../src/extension/cold/coldTargets';
import { resolveNeonKey } from '../../src/extension/cold/neonKeyStore';
import { asksForTls } from '../../src/extension/connections/tlsChoice';
import { coldRows } from '../../src/extension/model/coldRows';
import { ProgressTracker } from '../../src/extension/probe/progressTracker';
import type { TargetSpec } from '../../src/shared/plan';
import type { LatencyStats, Measurement } from '../../src/shared/result';
import { TEST_HEADER } from '../helpers/events';
import { flatStats } from '../helpers/fakes';

const NEON_URL = 'postgresql://u:p@ep-cool-darkness-123456-pooler.us-east-2.aws.neon.tech/db?sslmode=require';

test('Neon ids: settings first, then the endpoint from the host, then what was answered before', () => {
  assert.deepEqual(neonIdsOf(undefined, NEON_URL, {}), {
    endpointId: 'ep-cool-darkness-123456',
    endpointFrom: 'connection string',
  });
  assert.deepEqual(
    neonIdsOf({ endpointId: 'ep-set-1', projectId: 'p-1' }, NEON_URL, { projectId: 'p-old' }),
    {
      projectId: 'p-1',
      endpointId: 'ep-set-1',
      endpointFrom: 'settings',
    },
  );
  assert.deepEqual(
    neonIdsOf({}, 'postgres://u:p@127.0.0.1:5432/db', { projectId: 'p', endpointId: 'ep-x' }),
    {
      projectId: 'p',
      endpointId: 'ep-x',
      endpointFrom: 'remembered',
    },
  );
  assert.deepEqual(neonIdsOf(undefined, 'postgres://u:p@127.0.0.1/db', {}), {});
  assert.deepEqual(neonIdsOf(undefined, undefined, {}), {});
});

test('withNeonIds fills the ids for the run and keeps the other Neon settings', () => {
  const target: TargetSpec = {
    name: 't',
    driver: 'pg',
    connection: 'secret:t',
    cold: { mode: 'neon-api', neon: { apiUrl: 'http://127.0.0.1:1/api/v2', apiKey: 'env:K' } },
  };
  const filled = withNeonIds(target, { projectId: 'p', endpointId: 'ep-1' });
  assert.deepEqual(filled.cold, {
    mode: 'neon-api',
    neon: { apiUrl: 'http://127.0.0.1:1/api/v2', apiKey: 'env:K', projectId: 'p', endpointId: 'ep-1' },
  });
  assert.equal(target.cold?.neon?.projectId, undefined, 'the settings object is not changed');
});

test('the Neon key: secret storage first, then the env variable the reference names', () => {
  const env = { NEON_API_KEY: ' from-env ', OTHER: 'other' };
  assert.equal(resolveNeonKey('env:NEON_API_KEY', 'stored', env), 'stored');
  assert.equal(resolveNeonKey('env:NEON_API_KEY', undefined, env), 'from-env');
  assert.equal(resolveNeonKey('env:OTHER', undefined, env), 'other');
  assert.equal(resolveNeonKey('env:MISSING', undefined, env), undefined);
  assert.equal(resolveNeonKey('secret:neon', undefined, env), undefined);
  assert.equal(resolveNeonKey('secret:neon', 'stored', env), 'stored');
});

test('a suspend command is shown exactly, arguments quoted where bare text would mislead', () => {
  assert.equal(showCommand(['fly', 'machine', 'stop', 'abc123']), 'fly machine stop abc123');
  assert.equal(showCommand(['sh', '-c', 'pg_ctl stop; rm -rf /']), 'sh -c "pg_ctl stop; rm -rf /"');
  assert.notEqual(commandKey('t', ['a', 'b c']), commandKey('t', ['a b', 'c']));
  assert.notEqual(commandKey('t', ['a']), commandKey('u', ['a']));
});

test('the TLS trust step is offered for connection strings that ask for TLS only', () => {
  for (const url of [
    'postgres://u:p@127.0.0.1:5432/db?sslmode=verify-full',
    'postgres://u:p@h/db?sslmode=require',
    'rediss://:p@127.0.0.1:6380',
    'mysqls://u:p@127.0.0.1/db',
    'mongodb://127.0.0.1:27017/db?tls=true',
    'https://apikey:k@127.0.0.1:8443/rest/v1',
    'wss://h/db',
    'libsql://db-org.turso.io',
  ])
    assert.equal(asksForTls(url), true, url);
  for (const url of [
    'postgres://u:p@127.0.0.1:5432/db',
    'postgres://u:p@h/db?sslmode=disable',
    'redis://:p@127.0.0.1:6379',
    'file:/tmp/x.db',
    'not a url',
    `postgres://h/db?sslmode=require${'x'.repeat(10_000)}`,
  ])
    assert.equal(asksForTls(url), false, url);
});

test('progress shows a cold wait with its time until the next sample of that target', () => {
  const tracker = new ProgressTracker();
  tracker.handle({
    type: 'start',
    runId: 'r',
    targets: ['cold-db'],
    kinds: ['cold'],
    totalSamples: 2,
    header: TEST_HEADER,
  });
  const step = tracker.handle({
    type: 'wait',
    target: 'cold-db',
    kind: 'cold',
    step: 'idle',
    message: 'waiting 300 s of idle time so the database sleeps',
    waitedMs: 12_400,
    totalMs: 300_000,
  });
  assert.equal(step?.increment, 0);
  assert.equal(
    step?.message,
    'cold-db cold: waiting 300 s of idle time so the database sleeps (12 s of 300 s)',
  );
  tracker.handle({
    type: 'sample',
    target: 'cold-db',
    kind: 'cold',
    phase: 'measure',
    index: 0,
    atUs: 0,
    us: 5,
  });
  assert.equal(tracker.message(), 'cold-db cold 1/2');
});

const stats = (p50Us: number, count = 3): LatencyStats => flatStats(p50Us, count);

test('the panel gets one cold row per cold measurement: cold vs hot connect and cold start', () => {
  const cold = {
    target: 'pg-cold',
    kind: 'cold',
    stats: stats(90_000),
    phases: { connect: stats(80_000), firstQuery: stats(10_000) },
    cold: {
      mode: 'neon-api',
      hot: stats(4_000),
      hotConnect: stats(3_000),
      coldStart: {
        count: 3,
        minUs: 70_000,
        meanUs: 86_000,
        stddevUs: 1_000,
        p50Us: 86_000,
        p99Us: 99_000,
        maxUs: 99_000,
      },
      pairs: [
        { atUs: 0, coldUs: 1, hotUs: 1, waitMs: 300 },
        { atUs: 0, coldUs: 1, hotUs: 1, waitMs: 900 },
        { atUs: 0, coldUs: 1, hotUs: 1, waitMs: 500 },
      ],
    },
  } as unknown as Measurement;
  const initial = { target: 'pg-cold', kind: 'initial', stats: stats(4_000) } as unknown as Measurement;
  assert.deepEqual(coldRows([initial, cold]), [
    {
      target: 'pg-cold',
      mode: 'neon-api',
      count: 3,
      coldP50Us: 90_000,
      hotP50Us: 4_000,
      coldConnectP50Us: 80_000,
      hotConnectP50Us: 3_000,
      coldStart: cold.cold!.coldStart,
      waitP50Ms: 500,
    },
  ]);
  assert.deepEqual(coldRows([initial]), []);
});

test('ColdAccess: commands refused with the reason; the Neon key only from the resolved keys', async () => {
  const prepare = coldPreparerFor({
    neonApiKeys: {},
    allowCommands: false,
    commandsRefusedBecause: 'the workspace is not trusted',
  });
  const request = (cold: TargetSpec['cold']) => ({
    target: { name: 't', driver: 'pg', connection: 'env:X', ...(cold ? { cold } : {}) },
    url: 'postgres://u:p@127.0.0.1/db',
    signal: AbortSignal.timeout(5_000),
    timeoutMs: 5_000,
    onWait: () => undefined,
    registerSecret: () => undefined,
  });
  await assert.rejects(prepare(request({ mode: 'command', command: ['true'] })), (error: unknown) => {
    assert.ok(error instanceof ProbeError);
    assert.match(error.message, /not allowed here \(the workspace is not trusted\)/);
    return true;
  });
  await assert.rejects(
    prepare(request({ mode: 'neon-api', neon: { projectId: 'p', endpointId: 'ep-1' } })),
    /Neon API key is not set/,
  );
  const waits: number[] = [];
  await prepare({ ...request({ mode: 'idle-wait', idleMs: 20 }), onWait: (w) => waits.push(w.totalMs ?? 0) });
  assert.deepEqual(waits, [20]);
});

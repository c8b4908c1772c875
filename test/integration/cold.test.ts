/**
 * The cold kind against a real cold start: the testbed's pgcold service (a dedicated PostgreSQL that
 * the Neon API stand-in stops and the TCP front starts again on the first connection). The Neon API
 * client is exercised against the same stand-in; runs in one file, in order, because they share it.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { NeonApi } from '../../src/cold/neonApi';
import { ProbeError } from '../../src/core/failure';
import type { RunResult } from '../../src/shared/result';
import { postmasterPid } from '../fixtures/coldCompute';
import { configDir, runCli } from '../helpers/cli';
import { assertMatchesSchema } from '../helpers/schema';
import { assertNoSecret, sentinelPassword, testbedEnv } from '../helpers/testbed';

const apiUrl = () => testbedEnv('DBPROBE_TEST_NEON_API_URL');
const apiKey = () => testbedEnv('DBPROBE_TEST_NEON_API_KEY');
const ids = () => ({
  projectId: testbedEnv('DBPROBE_TEST_NEON_PROJECT_ID'),
  endpointId: testbedEnv('DBPROBE_TEST_NEON_ENDPOINT_ID'),
});
const dataDir = () => testbedEnv('DBPROBE_TEST_PG_COLD_DATA_DIR');

interface Seen {
  method: string;
  path: string;
  authorization: string;
  accept: string;
  contentType: string;
  status: number;
}

async function fixture(method: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${new URL(apiUrl()).origin}/_fixture/${path}`, {
    method,
    headers: { Authorization: `Bearer ${apiKey()}`, 'Content-Type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  assert.equal(response.status, 200, `fixture ${method} ${path}`);
  return response.json();
}

const seen = async () => ((await fixture('GET', 'requests')) as { requests: Seen[] }).requests;
const compute = async () =>
  (await fixture('GET', 'compute')) as { state: string; pid: number | null; starts: number };

async function rejectsWith(promise: Promise<unknown>, errorClass: string): Promise<ProbeError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof ProbeError, `expected a ProbeError, got ${String(error)}`);
    assert.equal(error.errorClass, errorClass, error.message);
    return error;
  }
  assert.fail(`expected a ${errorClass} failure`);
}

describe('Neon API client against the endpoint API stand-in', () => {
  before(async () => {
    await fixture('DELETE', 'faults');
    await fixture('DELETE', 'requests');
  });
  after(async () => {
    await fixture('DELETE', 'faults');
  });

  test('suspends, polls until idle, with the key as a Bearer token on every request', async () => {
    // Wake the compute first so there is something to suspend.
    const { Client } = await import('pg');
    const client = new Client({ connectionString: testbedEnv('DBPROBE_TEST_PG_COLD_URL') });
    await client.connect();
    await client.end();
    assert.ok(postmasterPid(dataDir()), 'the cold PostgreSQL runs after a connection');
    await fixture('DELETE', 'requests');

    const api = new NeonApi({ apiKey: apiKey(), baseUrl: apiUrl() });
    const waits: string[] = [];
    await api.suspendAndWait(ids(), AbortSignal.timeout(60_000), (w) => waits.push(w.step), 50);

    assert.equal(
      postmasterPid(dataDir()),
      undefined,
      'the PostgreSQL process is gone once the API says idle',
    );
    const requests = await seen();
    const endpoint = `/api/v2/projects/${ids().projectId}/endpoints/${ids().endpointId}`;
    assert.deepEqual(
      requests.slice(0, 2).map((r) => `${r.method} ${r.path}`),
      [`GET ${endpoint}`, `POST ${endpoint}/suspend`],
    );
    assert.ok(requests.length >= 3, 'polled the endpoint after the suspend');
    for (const r of requests) {
      assert.equal(r.authorization, 'ok', `${r.method} ${r.path} carried Authorization: Bearer <key>`);
      assert.match(r.accept, /application\/json/);
    }
    assert.match(requests[1]!.contentType, /application\/json/);
    assert.ok(requests.slice(2).every((r) => r.method === 'GET' && r.path === endpoint));
    assert.ok(waits.includes('suspend'));
  });

  test('401: a wrong key fails at once as auth, without the key in the message', async () => {
    await fixture('DELETE', 'requests');
    const wrongKey = 'neon-wrong-key-0123456789abcdef';
    const api = new NeonApi({ apiKey: wrongKey, baseUrl: apiUrl() });
    const error = await rejectsWith(api.getEndpoint(ids(), AbortSignal.timeout(10_000)), 'auth');
    assert.match(error.message, /401/);
    assert.match(error.message, /NEON_API_KEY/);
    assert.ok(!error.message.includes(wrongKey));
    const requests = await seen();
    assert.equal(requests.length, 1, 'a 401 is not retried');
    assert.equal(requests[0]!.authorization, 'wrong');
  });

  test('404: an unknown endpoint fails as config naming the ids to check', async () => {
    const api = new NeonApi({ apiKey: apiKey(), baseUrl: apiUrl() });
    const error = await rejectsWith(
      api.suspendEndpoint({ ...ids(), endpointId: 'ep-no-such-endpoint-1' }, AbortSignal.timeout(10_000)),
      'config',
    );
    assert.match(error.message, /404/);
    assert.match(error.message, /cold\.neon\.endpointId/);
  });

  test('429 with Retry-After: waits as told, then succeeds', async () => {
    await fixture('DELETE', 'requests');
    await fixture('POST', 'faults', { status: 429, retryAfter: '1', count: 2 });
    const api = new NeonApi({ apiKey: apiKey(), baseUrl: apiUrl() });
    const started = performance.now();
    const state = await api.getEndpoint(ids(), AbortSignal.timeout(20_000));
    const elapsed = performance.now() - started;
    assert.ok(['idle', 'active', 'init'].includes(state.currentState));
    assert.deepEqual(
      (await seen()).map((r) => r.status),
      [429, 429, 200],
    );
    assert.ok(elapsed >= 1_900, `two Retry-After: 1 waits take about 2 s (took ${Math.round(elapsed)} ms)`);
  });

  test('429 retries are bounded', async () => {
    await fixture('DELETE', 'requests');
    await fixture('POST', 'faults', { status: 429, retryAfter: '0', count: 10 });
    const api = new NeonApi({ apiKey: apiKey(), baseUrl: apiUrl(), maxRetries: 2 });
    const error = await rejectsWith(api.getEndpoint(ids(), AbortSignal.timeout(20_000)), 'timeout');
    assert.match(error.message, /429 after 2 retries/);
    assert.equal((await seen()).length, 3, 'one request and two retries');
    await fixture('DELETE', 'faults');
  });
});

describe('dbprobe run --kinds cold against a real cold start', () => {
  test('cold p50 is above the hot connect p50, and PostgreSQL was stopped before every sample', async () => {
    const samples = 3;
    const dir = configDir({
      targets: [
        {
          name: 'pg-cold',
          driver: 'pg',
          connection: 'env:COLD_PG_URL',
          cold: { mode: 'neon-api', neon: { ...ids(), apiUrl: apiUrl(), apiKey: 'env:NEON_API_KEY' } },
        },
      ],
      cold: { samples, pauseMs: 0 },
    });
    const before = await compute();
    // Watch the postmaster while the CLI runs: each sample must find it gone, then see it come back.
    const pids: (number | undefined)[] = [];
    let watching = true;
    const watcher = (async () => {
      for (let i = 0; watching && i < 20_000; i++) {
        const pid = postmasterPid(dataDir());
        if (pids.at(-1) !== pid || pids.length === 0) pids.push(pid);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const run = await runCli(['run', '--kinds', 'cold', '--format', 'json'], {
      cwd: dir,
      env: { COLD_PG_URL: testbedEnv('DBPROBE_TEST_PG_COLD_URL'), NEON_API_KEY: apiKey() },
      timeoutMs: 120_000,
    });
    watching = false;
    await watcher;
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as RunResult;
    assertMatchesSchema('result', result);
    const m = result.measurements.find((x) => x.kind === 'cold');
    assert.ok(m?.cold, 'a cold measurement with cold figures');
    assert.equal(m.stats.count, samples);
    assert.equal(m.cold.pairs.length, samples);
    assert.equal(m.cold.mode, 'neon-api');
    assert.ok(
      m.stats.p50Us > m.cold.hotConnect.p50Us,
      `cold p50 ${m.stats.p50Us} µs > hot connect p50 ${m.cold.hotConnect.p50Us} µs`,
    );
    assert.ok(
      m.stats.p50Us > m.cold.hot.p50Us,
      `cold p50 ${m.stats.p50Us} µs > hot p50 ${m.cold.hot.p50Us} µs`,
    );
    assert.ok(m.cold.coldStart.p50Us > 0);

    // Each new postmaster must have been preceded by a moment with none: stopped, then woken.
    const wokenFromStopped = pids.filter((pid, i) => pid !== undefined && i > 0 && pids[i - 1] === undefined);
    assert.ok(
      wokenFromStopped.length >= samples,
      `the postmaster was gone before each sample and came back (${pids.join(',')})`,
    );
    assert.equal(new Set(wokenFromStopped).size, wokenFromStopped.length, 'a new process each time');
    const afterRun = await compute();
    assert.ok(afterRun.starts - before.starts >= samples, 'the front started the compute for every sample');

    assert.match(run.stderr, /suspending Neon endpoint/);
    assertNoSecret([run.stdout, run.stderr]);
    assertNoSecret([run.stdout, run.stderr], apiKey());
  });

  test('a wrong API key fails the target as auth, and the key appears in no output', async () => {
    const wrongKey = `neon-wrong-${sentinelPassword().slice(-16)}`;
    const dir = configDir({
      targets: [
        {
          name: 'pg-cold',
          driver: 'pg',
          connection: 'env:COLD_PG_URL',
          cold: { mode: 'neon-api', neon: { ...ids(), apiUrl: apiUrl() } },
        },
      ],
      cold: { samples: 1 },
    });
    for (const format of ['markdown', 'json']) {
      const run = await runCli(['run', '--kinds', 'cold', '--format', format], {
        cwd: dir,
        env: { COLD_PG_URL: testbedEnv('DBPROBE_TEST_PG_COLD_URL'), NEON_API_KEY: wrongKey },
        timeoutMs: 60_000,
      });
      assert.notEqual(run.code, 0);
      assert.match(run.stderr, /auth: the Neon API refused the API key \(401/);
      assertNoSecret([run.stdout, run.stderr], wrongKey);
      assertNoSecret([run.stdout, run.stderr]);
    }
  });
});

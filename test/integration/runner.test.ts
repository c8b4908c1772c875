/**
 * The Node runner as a separate process on 127.0.0.1: auth, health, streamed runs against the real
 * servers, limits, client disconnects, a runner killed mid-run, and exact merges across runners.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { encodeHistogram } from '../../src/core/histogram';
import { mergeHistograms } from '../../src/core/merge';
import { LatencyRecorder } from '../../src/core/stats';
import { fetchRunnerHealth, type RunnerClientError, runRemote } from '../../src/places/runnerClient';
import type { ProbeEvent } from '../../src/shared/events';
import type { RunResult } from '../../src/shared/result';
import { configDir, runCli } from '../helpers/cli';
import { assertMatchesSchema } from '../helpers/schema';
import { pgCounter } from '../helpers/serverCounters';
import { startRunnerProcess, type RunnerProcess } from '../helpers/runnerProcess';
import { assertNoSecret, testbedEnv } from '../helpers/testbed';

const TOKEN = 'runner-token-' + 'x'.repeat(24);
const plan = (overrides: Record<string, unknown> = {}) => ({
  targets: [
    { name: 'pg', driver: 'pg', connection: 'env:PG_URL' },
    { name: 'redis', driver: 'ioredis', connection: 'env:REDIS_URL' },
  ],
  iterations: 20,
  warmup: 2,
  ...overrides,
});

function runnerEnv(extra: Record<string, string> = {}): Record<string, string> {
  return {
    DBPROBE_TOKEN: TOKEN,
    DBPROBE_REGION: 'test-region-1',
    PG_URL: testbedEnv('DBPROBE_TEST_PG_URL'),
    REDIS_URL: testbedEnv('DBPROBE_TEST_REDIS_URL'),
    DBPROBE_MAX_ITERATIONS: '100000',
    ...extra,
  };
}

describe('a Node runner process', () => {
  let runner: RunnerProcess;
  before(async () => {
    runner = await startRunnerProcess(
      runnerEnv({ DBPROBE_MAX_BODY_BYTES: '4096', DBPROBE_MAX_CONCURRENT_RUNS: '1' }),
    );
  });
  after(() => runner.stop());

  test('health answers version, runtime, region and drivers', async () => {
    const health = await fetchRunnerHealth(runner.url, TOKEN);
    assert.equal(health.region, 'test-region-1');
    assert.match(health.runtime, /^node v\d+/);
    assert.ok(health.drivers.includes('pg') && health.drivers.includes('neon-http'));
    assert.equal(health.acceptsClientConnections, false);
  });

  test('401 without a token and with a wrong one, with a JSON error', async () => {
    for (const headers of [
      {},
      { authorization: 'Bearer wrong-token' },
      { authorization: `Bearer ${TOKEN}x` },
    ] as Record<string, string>[]) {
      const response = await fetch(`${runner.url}/v1/health`, { headers });
      assert.equal(response.status, 401);
      const body = (await response.json()) as { error: { code: string } };
      assert.equal(body.error.code, 'unauthorized');
    }
    await assert.rejects(fetchRunnerHealth(runner.url, 'nope'), (e: RunnerClientError) => e.status === 401);
  });

  test('an authenticated run streams progress, then a schema-valid result labelled with the region', async () => {
    const events: ProbeEvent[] = [];
    const outcome = await runRemote({
      url: runner.url,
      token: TOKEN,
      request: { plan: plan() },
      onEvent: (e) => events.push(e),
    });
    assert.ok(outcome.ok, outcome.ok ? '' : outcome.failure.message);
    const { result } = outcome;
    assert.equal(result.state, 'completed');
    assert.equal(events[0]?.type, 'start');
    assert.equal(events.filter((e) => e.type === 'sample').length, 2 * 2 * 22);
    assert.equal(events.at(-1)?.type, 'done');
    assert.deepEqual(result.environment.location, {
      kind: 'runner',
      label: 'runner test-region-1',
      region: 'test-region-1',
    });
    for (const m of result.measurements) assert.equal(m.stats.count, 20, `${m.target} ${m.kind}`);
    assertMatchesSchema('result', result);
    assertNoSecret([JSON.stringify(events)]);
  });

  test('limit breaches and malformed plans are 4xx JSON errors naming the limit', async () => {
    const post = (body: string) =>
      fetch(`${runner.url}/v1/runs`, {
        method: 'POST',
        headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
        body,
      });
    const tooBig = await post(JSON.stringify({ plan: plan({ pad: 'x'.repeat(5000) }) }));
    assert.equal(tooBig.status, 413);
    assert.equal(((await tooBig.json()) as { error: { limit: string } }).error.limit, 'maxBodyBytes');
    const notJson = await post('{"plan": ');
    assert.equal(notJson.status, 400);
    assert.equal(((await notJson.json()) as { error: { code: string } }).error.code, 'bad_json');
    const badPlan = await post(
      JSON.stringify({ plan: { targets: [{ name: 'x', driver: 'nosuch', connection: 'env:X' }] } }),
    );
    assert.equal(badPlan.status, 400);
    assert.match(
      ((await badPlan.json()) as { error: { message: string } }).error.message,
      /unknown driver "nosuch"/,
    );
    const tooMany = await post(JSON.stringify({ plan: plan({ iterations: 200_000 }) }));
    assert.equal(tooMany.status, 400);
    assert.equal(((await tooMany.json()) as { error: { limit: string } }).error.limit, 'maxIterations');
    const unknownVar = await post(
      JSON.stringify({ plan: { targets: [{ name: 'x', driver: 'pg', connection: 'env:NOT_ON_RUNNER' }] } }),
    );
    assert.equal(unknownVar.status, 400);
    assert.match(
      ((await unknownVar.json()) as { error: { message: string } }).error.message,
      /NOT_ON_RUNNER is not set on this runner/,
    );
    const literal = await post(
      JSON.stringify({ plan: plan(), connections: { pg: testbedEnv('DBPROBE_TEST_PG_URL') } }),
    );
    assert.equal(literal.status, 403, 'client connection strings are refused unless the runner opted in');
    assertNoSecret([await literal.text()]);
  });

  test('a client that disconnects mid-run cancels it and the server connections return to baseline', async () => {
    const counter = await pgCounter(testbedEnv('DBPROBE_TEST_PG_ADMIN_URL'), 'dbprobe');
    try {
      const baseline = await counter.open();
      const controller = new AbortController();
      let samples = 0;
      const outcome = await runRemote({
        url: runner.url,
        token: TOKEN,
        request: { plan: plan({ iterations: 100_000, kinds: ['subsequent'] }) },
        signal: controller.signal,
        onEvent: (e) => {
          if (e.type === 'sample' && ++samples === 50) controller.abort();
        },
      });
      assert.ok(!outcome.ok && outcome.failure.class === 'cancelled', 'the client reports the cut');
      assert.ok(
        outcome.partial?.measurements.some((m) => m.stats.count > 0),
        'partial samples kept',
      );
      assert.equal(await counter.open(), baseline, 'the runner closed its connections');
      // The runner is free again (its limit is one concurrent run): the cancelled run really ended.
      const again = await runRemote({
        url: runner.url,
        token: TOKEN,
        request: { plan: plan({ iterations: 3 }) },
      });
      assert.ok(again.ok && again.result.state === 'completed');
    } finally {
      await counter.close();
    }
  });
});

test('a runner killed mid-run leaves the client with the partial result and a clear error', async () => {
  const runner = await startRunnerProcess(runnerEnv());
  try {
    let samples = 0;
    const outcome = await runRemote({
      url: runner.url,
      token: TOKEN,
      request: { plan: plan({ iterations: 100_000, kinds: ['subsequent'] }) },
      onEvent: (e) => {
        if (e.type === 'sample' && ++samples === 40) runner.child.kill('SIGKILL');
      },
    });
    assert.ok(!outcome.ok, 'the place failed');
    assert.equal(outcome.failure.class, 'cut');
    assert.match(
      outcome.failure.message,
      /broke before the run finished|ended the stream before the run finished/,
    );
    assert.ok(outcome.partial, 'the partial result arrives as data');
    const counted = outcome.partial.measurements.reduce((n, m) => n + m.stats.count + m.warmup.count, 0);
    assert.ok(counted >= 40, `kept ${counted} samples`);
    assertMatchesSchema('result', outcome.partial);
  } finally {
    await runner.stop('SIGKILL');
  }
});

test('the CLI with a runner killed mid-run prints the partial report and exits 1 with the reason', async () => {
  const runner = await startRunnerProcess(runnerEnv());
  try {
    const cwd = configDir({ ...plan({ iterations: 100_000, kinds: ['subsequent'] }) });
    // Late enough that the run has started streaming even on a slow machine, long before its 100 000 samples end.
    setTimeout(() => runner.child.kill('SIGKILL'), 2500);
    const run = await runCli(['run', '--runner', runner.url, '-q'], {
      cwd,
      env: { DBPROBE_TOKEN: TOKEN },
      timeoutMs: 30_000,
    });
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stderr,
      /runner http:\/\/127\.0\.0\.1:\d+.*before the run finished.*the report holds what arrived/,
    );
    assert.match(run.stdout, /\| pg \| pg \| tcp \| \d+ \|/);
    assert.ok(!run.stdout.includes(TOKEN) && !run.stderr.includes(TOKEN));
  } finally {
    await runner.stop('SIGKILL');
  }
});

test('the CLI runs one plan on two runners and on this machine, side by side', async () => {
  const [a, b] = await Promise.all([
    startRunnerProcess(runnerEnv({ DBPROBE_REGION: 'region-a' })),
    startRunnerProcess(runnerEnv({ DBPROBE_REGION: 'region-b' })),
  ]);
  try {
    const cwd = configDir(plan({ iterations: 10, warmup: 1 }));
    const run = await runCli(['run', '--runner', a.url, '--runner', b.url, '--here', '-q'], {
      cwd,
      env: {
        DBPROBE_TOKEN: TOKEN,
        PG_URL: testbedEnv('DBPROBE_TEST_PG_URL'),
        REDIS_URL: testbedEnv('DBPROBE_TEST_REDIS_URL'),
      },
    });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /\| Target \| Kind \| this machine \| runner region-a \| runner region-b \|/);
    assert.match(run.stdout, /# From runner region-b/);
    assertNoSecret([run.stdout, run.stderr]);
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});

test('results from two runners merge into exactly the histogram of all their samples', async () => {
  const [a, b] = await Promise.all([startRunnerProcess(runnerEnv()), startRunnerProcess(runnerEnv())]);
  try {
    const request = { plan: plan({ iterations: 300, warmup: 5, sampleCap: 1000 }) };
    const results: RunResult[] = await Promise.all(
      [a, b].map(async (r) => {
        const outcome = await runRemote({ url: r.url, token: TOKEN, request });
        assert.ok(outcome.ok, outcome.ok ? '' : outcome.failure.message);
        return outcome.result;
      }),
    );
    for (const kind of ['initial', 'subsequent'] as const) {
      for (const target of ['pg', 'redis']) {
        const parts = results.map((r) => r.measurements.find((m) => m.target === target && m.kind === kind)!);
        const merged = mergeHistograms(
          parts.map((m) => ({ histogram: m.histogram, errors: m.stats.errors })),
        );
        const all = new LatencyRecorder();
        for (const m of parts) for (const s of m.samples.values) if (s.us !== undefined) all.record(s.us);
        const direct = all.summary();
        assert.equal(
          merged.histogram.data,
          encodeHistogram(all.histogram, all.moments).data,
          `${target} ${kind}: same buckets`,
        );
        for (const key of [
          'count',
          'minUs',
          'maxUs',
          'p50Us',
          'p90Us',
          'p95Us',
          'p99Us',
          'p999Us',
        ] as const) {
          assert.equal(merged.stats[key], direct[key], `${target} ${kind} ${key}`);
        }
        assert.ok(Math.abs(merged.stats.meanUs - direct.meanUs) < 1e-3);
      }
    }
  } finally {
    await Promise.all([a.stop(), b.stop()]);
  }
});

test('a runner without DBPROBE_TOKEN refuses to start', async () => {
  await assert.rejects(startRunnerProcess({ PG_URL: 'x' }), /DBPROBE_TOKEN is not set/);
});

/**
 * Thresholds on every kind through the real CLI against the testbed: the cold start (pgcold woken
 * through the Neon API stand-in), schedule positions and whole requests, and load levels and kept-up
 * on PostgreSQL. Each run carries a threshold that must pass and one that must fail (exit 3), and each
 * verdict's figure is checked against the run's own JSON, so a threshold reading the wrong part (the
 * cold query for the cold start, another query or level) is caught, not just the exit code.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { Measurement, RunResult } from '../../src/shared/result';
import { ms } from '../../src/shared/units';
import { configDir, runCli } from '../helpers/cli';
import { pgColdTarget, testbedEnv } from '../helpers/testbed';

function pgConfig(extra: Record<string, unknown>): { cwd: string; env: NodeJS.ProcessEnv } {
  const cwd = configDir({
    targets: [{ name: 'pg', driver: 'pg', connection: 'env:GATE_PG_URL' }],
    iterations: 5,
    warmup: 1,
    ...extra,
  });
  return { cwd, env: { GATE_PG_URL: testbedEnv('DBPROBE_TEST_PG_URL') } };
}

/** Runs with --format json and a job summary; returns the result, the failure lines and the summary. */
async function gated(
  setup: { cwd: string; env: NodeJS.ProcessEnv },
  kind: string,
  thresholds: string[],
): Promise<{ code: number | null; m: Measurement; failed: string[]; summary: string; stderr: string }> {
  const summary = path.join(setup.cwd, 'summary.md');
  const run = await runCli(
    [
      'run',
      '--kinds',
      kind,
      '--format',
      'json',
      '--summary',
      summary,
      ...thresholds.flatMap((t) => ['--threshold', t]),
    ],
    { ...setup, timeoutMs: 120_000 },
  );
  assert.ok(run.stdout.startsWith('{'), run.stderr);
  const result = JSON.parse(run.stdout) as RunResult;
  const m = result.measurements.find((x) => x.kind === kind);
  assert.ok(m, `a ${kind} measurement: ${run.stderr}`);
  const failed = run.stderr.split('\n').filter((line) => line.startsWith('dbprobe: threshold failed:'));
  return { code: run.code, m, failed, summary: readFileSync(summary, 'utf8'), stderr: run.stderr };
}

test('cold: the cold start passes a loose limit and fails a tight one, on its own figure', async () => {
  const cold = pgColdTarget('pg-cold');
  const cwd = configDir({ targets: [cold.target], cold: { samples: 2, pauseMs: 0 } });
  const env = cold.env;
  const run = await gated({ cwd, env }, 'cold', [
    'pg-cold:cold:start.p50<60s',
    'pg-cold:cold:start.max<0.001ms',
  ]);
  const coldStart = run.m.cold?.coldStart;
  assert.ok(coldStart && coldStart.count === 2, `two cold starts: ${run.stderr}`);
  // A woken compute adds a real start; the cold query alone (m.stats) is larger still.
  assert.ok(coldStart.p50Us > 0 && run.m.stats.p50Us > coldStart.p50Us, JSON.stringify(coldStart));
  assert.equal(run.code, 3, run.stderr);
  assert.deepEqual(run.failed, [
    `dbprobe: threshold failed: target "pg-cold" cold start max = ${ms(coldStart.maxUs)} ms, limit < 0.001 ms`,
  ]);
  assert.ok(
    run.summary.includes(
      `- pass: target "pg-cold" cold start p50 = ${ms(coldStart.p50Us)} ms, limit < 60000.000 ms`,
    ),
    run.summary,
  );
});

test('schedule: query 2 and whole requests pass, query 1 fails, each on its own figure', async () => {
  const setup = pgConfig({ schedule: { rate: 20, queries: 2, durationS: 1.5, connection: 'new' } });
  const run = await gated(setup, 'schedule', [
    'pg:schedule#2:p50<10s',
    'pg:schedule:request.max<10s',
    'pg:schedule#1:p50<0.001ms',
  ]);
  const s = run.m.schedule;
  assert.ok(s && s.positions.length === 2 && s.totals.count > 0, run.stderr);
  // With a new connection per request, query 1 carries the connect: it differs from query 2.
  assert.notEqual(s.positions[0]!.p50Us, s.positions[1]!.p50Us);
  assert.equal(run.code, 3, run.stderr);
  assert.deepEqual(run.failed, [
    `dbprobe: threshold failed: target "pg" schedule#1 p50 = ${ms(s.positions[0]!.p50Us)} ms, limit < 0.001 ms`,
  ]);
  assert.ok(
    run.summary.includes(
      `- pass: target "pg" schedule#2 p50 = ${ms(s.positions[1]!.p50Us)} ms, limit < 10000.000 ms`,
    ),
    run.summary,
  );
  assert.ok(
    run.summary.includes(
      `- pass: target "pg" schedule request max = ${ms(s.totals.maxUs)} ms, limit < 10000.000 ms`,
    ),
    run.summary,
  );
});

test('load: one level and kept-up pass, another level fails, each on its own level', async () => {
  // Closed model at 1 then 4 connections: 4 at once queue on the server, so the levels differ.
  const setup = pgConfig({ load: { model: 'closed', levels: [1, 4], durationS: 1 } });
  const run = await gated(setup, 'load', [
    'pg:load@4:p99<10s',
    'pg:load:kept-up>=4',
    'pg:load@1:p50<0.001ms',
  ]);
  const load = run.m.load;
  assert.ok(load && load.levels.length === 2, run.stderr);
  const [one, four] = load.levels;
  assert.ok(one && four && one.stats.count >= 100 && four.stats.count >= 100, 'p99 needs 100 samples');
  assert.equal(run.code, 3, run.stderr);
  assert.deepEqual(run.failed, [
    `dbprobe: threshold failed: target "pg" load@1 p50 = ${ms(one.stats.p50Us)} ms, limit < 0.001 ms`,
  ]);
  assert.ok(
    run.summary.includes(`- pass: target "pg" load@4 p99 = ${ms(four.stats.p99Us)} ms, limit < 10000.000 ms`),
    run.summary,
  );
  assert.ok(run.summary.includes('- pass: target "pg" load kept-up = 4, limit >= 4'), run.summary);
});

test('load@LEVEL in the open model is judged on the corrected latency, not the service time', async () => {
  const setup = pgConfig({ load: { model: 'open', levels: [50, 100], connections: 2, durationS: 1.5 } });
  const run = await gated(setup, 'load', ['pg:load@100:p99<10s', 'pg:load@50:max<0.001ms']);
  const [low, high] = run.m.load?.levels ?? [];
  assert.ok(low?.corrected && high?.corrected && high.corrected.count >= 100, run.stderr);
  assert.equal(run.code, 3, run.stderr);
  assert.deepEqual(run.failed, [
    `dbprobe: threshold failed: target "pg" load@50 max = ${ms(low.corrected.maxUs)} ms, limit < 0.001 ms`,
  ]);
  assert.ok(
    run.summary.includes(
      `- pass: target "pg" load@100 p99 = ${ms(high.corrected.p99Us)} ms, limit < 10000.000 ms`,
    ),
    run.summary,
  );
});

test('load: kept-up fails when the levels do not keep up (a latency limit no level can meet)', async () => {
  const setup = pgConfig({ load: { model: 'closed', levels: [1, 2], durationS: 1, maxLatencyMs: 0.001 } });
  const run = await gated(setup, 'load', ['pg:load:kept-up>=1']);
  assert.ok(
    run.m.load?.levels.every((l) => l.tripped !== undefined),
    run.stderr,
  );
  assert.equal(run.code, 3, run.stderr);
  assert.deepEqual(run.failed, ['dbprobe: threshold failed: target "pg" load kept-up = none, limit >= 1']);
});

test('a load level, schedule position or kept-up the run cannot reach is a usage error before the run', async () => {
  const setup = pgConfig({
    load: { levels: [1, 2], durationS: 1 },
    schedule: { rate: 5, queries: 2, durationS: 1 },
  });
  const cases: [string, string, RegExp][] = [
    ['load', 'pg:load@64:p99<20ms', /names load level 64, which this run does not probe; its levels: 1, 2/],
    ['load', 'pg:load:kept-up>=32', /can never pass: the highest load level this run probes is 2/],
    [
      'schedule',
      'pg:schedule#3:p99<5ms',
      /names query 3 of each request, but the schedule runs 2 per request/,
    ],
    ['schedule', 'pg:load@1:p99<5ms', /names kind "load", which this run does not probe/],
  ];
  for (const [kind, threshold, message] of cases) {
    const run = await runCli(['run', '--kinds', kind, '--threshold', threshold], setup);
    assert.equal(run.code, 2, `${threshold}: ${run.stderr}`);
    assert.match(run.stderr, message);
    assert.doesNotMatch(run.stdout, /# Database latency/, 'nothing was probed');
  }
});

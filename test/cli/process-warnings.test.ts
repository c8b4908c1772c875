/**
 * Nothing from Node's internals reaches the user: the CLI runs that open many connections or wait on
 * one signal from many places (load at 64 and 256 connections against the testbed PostgreSQL, a
 * fan-out over two local runners, a cold run through the testbed's pgcold, a request schedule) print
 * no process warning. runCli (test/helpers/cli.ts) rejects on any; the runners' stderr is checked
 * with the same helper. At 256 connections the testbed's max_connections (200) refuses some: those
 * errors are counted samples, and the connects that fail and retry must not warn either.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { RunResult } from '../../src/shared/result';
import { configDir, runCli } from '../helpers/cli';
import { assertNoProcessWarning } from '../helpers/processWarnings';
import { startRunnerProcess, type RunnerProcess } from '../helpers/runnerProcess';
import { pgColdTarget, testbedEnv } from '../helpers/testbed';

const TOKEN = 'warnings-token-' + 'w'.repeat(24);

function pgConfig(extra: Record<string, unknown> = {}) {
  return {
    cwd: configDir({ targets: [{ name: 'pg', driver: 'pg', connection: 'env:PG_URL' }], ...extra }),
    env: { PG_URL: testbedEnv('DBPROBE_TEST_PG_URL') },
  };
}

function measurement(run: { stdout: string }, kind: string) {
  const result = JSON.parse(run.stdout) as RunResult;
  const m = result.measurements.find((x) => x.kind === kind);
  assert.ok(m, `a ${kind} measurement`);
  return m;
}

for (const connections of [64, 256]) {
  test(`load at ${connections} connections on the testbed pg prints no process warning`, async () => {
    const { cwd, env } = pgConfig();
    const run = await runCli(
      ['run', '--kinds', 'load', '--concurrency', String(connections), '--duration', '1', '--format', 'json'],
      { cwd, env, timeoutMs: 60_000 },
    );
    assert.ok(run.code === 0 || run.code === 1, `exit ${run.code}: ${run.stderr}`);
    const m = measurement(run, 'load');
    assert.ok(m.stats.count > 0, 'queries were measured');
    assert.equal(m.load?.levels[0]?.level, connections);
  });
}

test('a request schedule prints no process warning', async () => {
  const { cwd, env } = pgConfig();
  const run = await runCli(
    ['run', '--kinds', 'schedule', '--rate', '40', '--queries', '2', '--duration', '1', '--format', 'json'],
    { cwd, env, timeoutMs: 60_000 },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.ok(measurement(run, 'schedule').stats.count > 0);
});

test('a cold run through the testbed pgcold prints no process warning', async () => {
  const cold = pgColdTarget('pg-cold');
  const cwd = configDir({ targets: [cold.target], cold: { samples: 1, pauseMs: 0 } });
  const run = await runCli(['run', '--kinds', 'cold', '--format', 'json'], {
    cwd,
    env: cold.env,
    timeoutMs: 120_000,
  });
  assert.equal(run.code, 0, run.stderr);
  assert.equal(measurement(run, 'cold').stats.count, 1);
});

describe('a fan-out over two local runners', () => {
  const runners: RunnerProcess[] = [];
  before(async () => {
    const env = { DBPROBE_TOKEN: TOKEN, PG_URL: testbedEnv('DBPROBE_TEST_PG_URL') };
    runners.push(await startRunnerProcess(env), await startRunnerProcess(env));
  });
  after(async () => {
    await Promise.all(runners.map((r) => r.stop()));
  });

  test('prints no process warning, here or on either runner', async () => {
    const { cwd, env } = pgConfig();
    const run = await runCli(
      [
        'run',
        '--kinds',
        'load',
        '--concurrency',
        '96',
        '--duration',
        '1',
        '--format',
        'json',
        '--fan-out',
        '--here',
        ...runners.flatMap((r) => ['--runner', r.url]),
      ],
      { cwd, env: { ...env, DBPROBE_TOKEN: TOKEN }, timeoutMs: 90_000 },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.ok(measurement(run, 'load').stats.count > 0);
    runners.forEach((r, i) => assertNoProcessWarning(r.stderr(), `runner ${i + 1}`));
  });
});

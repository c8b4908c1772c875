/**
 * The load and schedule flags through the real CLI, against an embedded libSQL file (no server):
 * the plan they make, the JSON result (schema-valid) and the Markdown tables and charts.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import type { RunResult } from '../../src/shared/result';
import { configDir, runCli } from '../helpers/cli';
import { assertMatchesSchema } from '../helpers/schema';

function localDb(extra: Record<string, unknown> = {}): { cwd: string; env: NodeJS.ProcessEnv } {
  const cwd = configDir({
    targets: [{ name: 'local file', driver: 'libsql', connection: 'env:LOAD_DB_URL' }],
    ...extra,
  });
  return { cwd, env: { LOAD_DB_URL: `file:${path.join(cwd, 'load.db')}` } };
}

test('--kinds schedule --rate --queries --duration: per-position figures and the model in JSON', async () => {
  const { cwd, env } = localDb();
  const run = await runCli(
    [
      'run',
      '-q',
      '--kinds',
      'schedule',
      '--rate',
      '20',
      '--queries',
      '2',
      '--duration',
      '1',
      '--format',
      'json',
    ],
    { cwd, env },
  );
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout) as RunResult;
  assertMatchesSchema('result', result);
  assert.deepEqual(result.plan.schedule, { rate: 20, queries: 2, durationS: 1, connection: 'new' });
  const s = result.measurements[0]?.schedule;
  assert.ok(s?.model, run.stdout.slice(0, 400));
  assert.equal(s.positions.length, 2);
  assert.equal(s.starts.asked, 20);
  assert.equal(s.totals.count + s.totals.errors + s.starts.dropped, 20);
});

test('--kinds load --sweep --max-latency: a level table, the knee line and mermaid charts in Markdown', async () => {
  const { cwd, env } = localDb();
  const run = await runCli(
    ['run', '-q', '--kinds', 'load', '--sweep', '1..4', '--duration', '0.3', '--max-latency', 'p95:60s'],
    { cwd, env },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stdout, /## Load: local file/);
  assert.match(
    run.stdout,
    /\| Connections \| throughput\/s \| p50 \| p95 \| p99 \| max \| errors \| kept up\? \|/,
  );
  for (const level of [1, 2, 4])
    assert.match(run.stdout, new RegExp(`^\\| ${level} \\| \\d+(\\.\\d+)? \\|.*\\| yes \\|$`, 'm'));
  assert.match(run.stdout, /Kept up at every level \(limits: error rate above 1\.0%, p95 above 60000 ms\)/);
  assert.match(run.stdout, /```mermaid\nxychart-beta\n {4}title "local file: throughput/);
});

test('--rate with --kinds load is the open model: corrected and uncorrected columns', async () => {
  const { cwd, env } = localDb();
  const run = await runCli(
    [
      'run',
      '-q',
      '--kinds',
      'load',
      '--rate',
      '200',
      '--concurrency',
      '2',
      '--duration',
      '0.5',
      '--format',
      'json',
    ],
    { cwd, env },
  );
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(run.stdout) as RunResult;
  assertMatchesSchema('result', result);
  const load = result.measurements[0]?.load;
  assert.equal(load?.model, 'open');
  assert.equal(load.connections, 2);
  const level = load.levels[0];
  assert.equal(level?.level, 200);
  assert.ok(level.corrected && level.starts?.asked === 100, JSON.stringify(level.starts));
});

test('bad load flags and settings exit 2 and say what is accepted', async () => {
  const { cwd, env } = localDb();
  const sweep = await runCli(['run', '--kinds', 'load', '--sweep', '1,two'], { cwd, env });
  assert.equal(sweep.code, 2);
  assert.match(sweep.stderr, /--sweep must be a list like 1,2,4,8 or a doubling range like 1\.\.64/);
  const latency = await runCli(['run', '--kinds', 'load', '--max-latency', 'fast'], { cwd, env });
  assert.equal(latency.code, 2);
  assert.match(latency.stderr, /--max-latency must be a time like 50ms/);
  const bad = localDb({ kinds: ['load'], load: { levels: [0], model: 'half-open' } });
  const config = await runCli(['run'], bad);
  assert.equal(config.code, 2);
  assert.match(config.stderr, /load\.model: must be one of: closed, open/);
  assert.match(config.stderr, /load\.levels: must be a list of 1 to 50/);
  const long = localDb({ kinds: ['schedule'], schedule: { durationS: 3600 }, timeouts: { runMs: 60_000 } });
  const tooLong = await runCli(['run'], long);
  assert.equal(tooLong.code, 2);
  assert.match(tooLong.stderr, /need about 3600 s for 1 target\(s\), more than the run's 60000 ms limit/);
});

test('run --help documents the load flags', async () => {
  const run = await runCli(['run', '--help']);
  assert.match(run.stdout + run.stderr, /--sweep LIST/);
  assert.match(run.stdout + run.stderr, /--max-error-rate P/);
});

/**
 * The one judgement of two runs and of one, through the real CLI against the testbed's PostgreSQL
 * and a libSQL `file:` database:
 * - two identical back-to-back runs (n = 200, initial + subsequent), on whatever host this is, in
 *   each of 5 repeats: no established change, or, where the host moved between the runs, the
 *   product's own statement that it did ("Not attributable: ... waited for a CPU", "...'s process
 *   ran slower: its own work between samples took ...", "... every
 *   subsequent target moved alike between the runs", or "... the other subsequent target ... could
 *   have moved as much"), and exit 0
 *   under `--fail-on-regression 10%` either way; the last repeats start a CPU-burning neighbour
 *   before HEAD, so the host statement is exercised on every host, quiet or not;
 * - two runs with nothing in common exit 2 saying so; load sweeps of other levels, or of another
 *   model, say "not comparable" (exit 2 when nothing else was compared);
 * - the Markdown (the job summary of the same run) and the stderr summary begin with the verdict
 *   lines, read back against judgeRun of the saved JSON.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import { judgeChanges } from '../../src/shared/judgement/judgeChanges';
import { judgeRun } from '../../src/shared/judgement/judgeRun';
import type { RunResult } from '../../src/shared/result';
import { configDir, runCli } from '../helpers/cli';
import { assertNoSecret, testbedEnv } from '../helpers/testbed';

const REPEATS = 5;
const ITERATIONS = 200;

let dir: string;
let env: NodeJS.ProcessEnv;

before(() => {
  dir = configDir({
    targets: [
      { name: 'pg', driver: 'pg', connection: 'env:JUDGE_PG_URL' },
      { name: 'lite', driver: 'libsql', connection: 'env:JUDGE_LIBSQL_URL' },
    ],
    kinds: ['initial', 'subsequent'],
    iterations: ITERATIONS,
    warmup: 10,
  });
  env = {
    JUDGE_PG_URL: testbedEnv('DBPROBE_TEST_PG_URL'),
    JUDGE_LIBSQL_URL: `file:${path.join(dir, 'probe.db')}`,
  };
});

async function saveRun(file: string, extra: string[] = []) {
  const run = await runCli(['run', '-q', '--format', 'json', '--out', file, ...extra], {
    cwd: dir,
    env,
    timeoutMs: 180_000,
  });
  assert.equal(run.code, 0, run.stderr);
  return run;
}

/** Repeats from which HEAD runs beside a CPU-burning neighbour (two `yes` processes). */
const BUSY_FROM = 3;
const hogs: ChildProcess[] = [];
const stopHogs = () => {
  for (const hog of hogs.splice(0)) hog.kill('SIGTERM');
};
after(stopHogs);

test(`two identical back-to-back runs: no change, or the host's statement; exit 0; ${REPEATS} repeats`, async () => {
  let hostSaid = 0;
  for (let repeat = 0; repeat < REPEATS; repeat++) {
    await saveRun(`a${repeat}.json`);
    // Bounded: a hog outlives a killed test otherwise (seen: an hour of two `yes` on 2 cores).
    if (repeat >= BUSY_FROM)
      for (let i = 0; i < 2; i++) hogs.push(spawn('timeout', ['300', 'yes'], { stdio: 'ignore' }));
    try {
      await saveRun(`b${repeat}.json`);
    } finally {
      stopHogs();
    }
    const compared = await runCli(
      ['compare', `a${repeat}.json`, `b${repeat}.json`, '--fail-on-regression', '10%'],
      { cwd: dir },
    );
    const a = JSON.parse(readFileSync(path.join(dir, `a${repeat}.json`), 'utf8')) as RunResult;
    const b = JSON.parse(readFileSync(path.join(dir, `b${repeat}.json`), 'utf8')) as RunResult;
    const p50s = (r: RunResult) =>
      r.measurements.map((m) => `${m.target} ${m.kind} ${m.stats.p50Us}`).join(', ');
    const waits = (r: RunResult) => `${Math.round((r.client.host?.cpuWaitShare ?? 0) * 1000) / 10}%`;
    console.log(
      `repeat ${repeat} (load average ${os.loadavg()[0]!.toFixed(1)}): BASE ${p50s(a)}, CPU wait ${waits(a)}; HEAD ${p50s(b)}, CPU wait ${waits(b)}`,
    );
    assert.equal(compared.code, 0, `repeat ${repeat}\n${compared.stdout}${compared.stderr}`);
    const lines = judgeChanges(a, b).lines;
    const printed = compared.stdout.split('\n');
    // The CLI says the shared judgement's lines first, word for word.
    assert.deepEqual(printed.slice(0, lines.length), lines, `repeat ${repeat}: the verdict comes first`);
    // Never a change the runs would answer for: where a percentile moved, the host did, and it says so.
    for (const line of lines)
      assert.match(
        line,
        /^(No( other)? established change in \d+ targets? and kinds? compared|Not attributable: (pg|lite) (initial|subsequent) .* while ((BASE|HEAD)'s host waited for a CPU \d+(\.\d)?% of its samples' time, \d+\.\d+ ms a sample \((BASE|HEAD) \d+(\.\d)?%\)|(BASE|HEAD)'s process ran slower: its own work between samples took \d+ µs \((BASE|HEAD) \d+ µs\), which slows a database on this machine alike, \d+\.\d+ ms a sample|every (initial|subsequent) target moved alike between the runs \(((pg|lite) [+-]\d+\.\d%(, )?)+\), so the runs' shared conditions moved \(the host, its CPU or route\), not one database|the other (initial|subsequent) targets?, measured at the same moments, could have moved as much \(((pg|lite) [+-]?\d+\.\d%, 95% CI [+-]?\d+\.\d% to [+-]?\d+\.\d%(; )?)+\), so the move is not established apart from the runs' shared conditions \(the host, its CPU or route\))\.)/,
        `repeat ${repeat}\n${compared.stdout}`,
      );
    if (lines[0]?.startsWith('Not attributable')) {
      hostSaid += 1;
      assert.match(
        compared.stdout,
        /a change the host may explain is not failed on: --strict-host fails on it/,
      );
    }
    assert.match(compared.stdout, /Gate --fail-on-regression \+10\.0%: passed/);
  }
  console.log(`the host statement opened ${hostSaid} of ${REPEATS} compares`);
});

test('nothing in common: exit 2, saying so; the gate never passes on nothing', async () => {
  await saveRun('pg-only.json', ['--targets', 'pg']);
  await saveRun('lite-only.json', ['--targets', 'lite']);
  const compared = await runCli(
    ['compare', 'pg-only.json', 'lite-only.json', '--fail-on-regression', '10%'],
    { cwd: dir },
  );
  assert.equal(compared.code, 2, compared.stdout + compared.stderr);
  assert.match(
    compared.stdout,
    /^Not comparable: no target and kind in common \(BASE measured pg initial and pg subsequent; HEAD measured lite initial and lite subsequent\), so nothing was compared\.$/m,
  );
  assert.match(compared.stderr, /not comparable: .*nothing was compared, which is an error, not a pass/);
  assert.doesNotMatch(compared.stdout, /passed/);
  const json = JSON.parse(
    (await runCli(['compare', 'pg-only.json', 'lite-only.json', '--format', 'json'], { cwd: dir })).stdout,
  ) as { comparable: boolean; inCommon: number };
  assert.deepEqual([json.comparable, json.inCommon], [false, 0]);
  // run --baseline against a result with nothing in common: an error too, after the run.
  const baseline = await runCli(['run', '-q', '--targets', 'lite', '--baseline', 'pg-only.json'], {
    cwd: dir,
    env,
    timeoutMs: 180_000,
  });
  assert.equal(baseline.code, 2, baseline.stderr);
  assert.match(baseline.stderr, /are not comparable \(no target and kind in common/);
});

test('load sweeps of other levels, or another model: "not comparable", exit 2', async () => {
  const load = ['--targets', 'lite', '--kinds', 'load', '--duration', '0.3'];
  await saveRun('sweep-low.json', [...load, '--sweep', '1,2']);
  await saveRun('sweep-high.json', [...load, '--sweep', '4,8']);
  await saveRun('open.json', [...load, '--rate', '50']);
  const levels = await runCli(['compare', 'sweep-low.json', 'sweep-high.json'], { cwd: dir });
  assert.equal(levels.code, 2, levels.stdout + levels.stderr);
  assert.match(
    levels.stdout,
    /^Not comparable: lite load: the load levels differ \(BASE 1, 2 connections, HEAD 4, 8 connections\)/m,
  );
  assert.doesNotMatch(levels.stdout, /regressed/);
  const model = await runCli(['compare', 'sweep-low.json', 'open.json'], { cwd: dir });
  assert.equal(model.code, 2, model.stdout + model.stderr);
  assert.match(
    model.stdout,
    /^Not comparable: lite load: the load model differs \(BASE closed, HEAD open\)/m,
  );
});

test('the Markdown and the stderr summary begin with the verdict lines of the saved result', async () => {
  const summary = path.join(dir, 'summary.md');
  const run = await runCli(['run', '--format', 'json', '--out', 'verdict.json', '--summary', summary], {
    cwd: dir,
    env,
    timeoutMs: 180_000,
  });
  assert.equal(run.code, 0, run.stderr);
  const result = JSON.parse(readFileSync(path.join(dir, 'verdict.json'), 'utf8')) as RunResult;
  const judgement = judgeRun(result);
  assert.ok(judgement.lines.length >= 3, judgement.lines.join('\n'));
  // stderr: the progress line, then the verdict lines, before any figure or the report's path.
  const stderr = run.stderr.split('\n').filter((line) => line !== '');
  assert.match(stderr[0] ?? '', /^probing pg, lite/);
  assert.deepEqual(stderr.slice(1, 1 + judgement.lines.length), judgement.lines, run.stderr);
  assert.match(
    stderr[1 + judgement.lines.length] ?? '',
    /^pg initial: p50 \d+\.\d{3} ms, p99 \d+\.\d{3} ms, n=200, errors=0$/,
  );
  // Markdown: the title, then one bullet per verdict line (each ranking's why beneath it), before any table.
  const markdown = readFileSync(summary, 'utf8');
  const bullets = markdown
    .slice(0, markdown.indexOf('\n|'))
    .split('\n')
    .filter((line) => line.startsWith('- '))
    .map((line) => line.slice(2));
  assert.equal(markdown.split('\n')[0], '# Database latency');
  assert.deepEqual(bullets, judgement.lines);
  assertNoSecret([run.stdout, run.stderr, markdown]);
});

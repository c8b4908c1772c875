/**
 * The edges of a load run through the real CLI against the testbed PostgreSQL, each figure checked
 * against the `--raw` request lines of the same run: a level cut short by Ctrl-C (closed and open
 * model), arrivals spread over probing threads, threads that would have nothing to do, and Ctrl-C
 * during a `--runner` load level (the runner a separate process), whose measured level is kept.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { formatMarkdown } from '../../src/report/markdown';
import type { LoadLevelFigures, RawRequest } from '../../src/shared/loadResult';
import type { RunResult } from '../../src/shared/result';
import { configDir, runCli, type CliRun } from '../helpers/cli';
import { startRunnerProcess, type RunnerProcess } from '../helpers/runnerProcess';
import { assertMatchesSchema } from '../helpers/schema';
import { testbedEnv } from '../helpers/testbed';

const TOKEN = 'load-edges-token-' + 'z'.repeat(24);
/** Sent this long after level 1's last progress line: level 2 is then under way, far from its end. */
const INTO_LEVEL_TWO_MS = 800;

function pgDir(): { cwd: string; env: NodeJS.ProcessEnv } {
  const cwd = configDir({ targets: [{ name: 'pg', driver: 'pg', connection: 'env:PG_URL' }] });
  return { cwd, env: { PG_URL: testbedEnv('DBPROBE_TEST_PG_URL') } };
}

function rawLines(cwd: string, file = 'raw.ndjson'): RawRequest[] {
  const text = readFileSync(path.join(cwd, file), 'utf8').trim();
  return text ? text.split('\n').map((line) => JSON.parse(line) as RawRequest) : [];
}

function resultOf(run: CliRun): RunResult {
  const result = JSON.parse(run.stdout) as RunResult;
  assertMatchesSchema('result', result);
  return result;
}

/**
 * Runs the CLI and sends it SIGINT INTO_LEVEL_TWO_MS after the line that ends level 1 of a two-level
 * sweep: the second level is cut about that far into its duration.
 */
function runAndCutLevelTwo(
  args: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv },
): Promise<CliRun> {
  let pid: number | undefined;
  let sent = false;
  return runCli(args, {
    ...options,
    timeoutMs: 60_000,
    onSpawn: (p) => (pid = p),
    onStderr: (chunk) => {
      if (sent || !/level 1\/2 \([\d.]+\): .*, done/.test(chunk)) return;
      sent = true;
      setTimeout(() => pid !== undefined && process.kill(pid, 'SIGINT'), INTO_LEVEL_TWO_MS);
    },
  });
}

/** A cut level's figures against its own raw lines: every rate over the time it ran. */
function checkCutLevel(level: LoadLevelFigures | undefined, lines: RawRequest[], durationS: number) {
  assert.ok(level, 'the level under way at the Ctrl-C is kept');
  assert.equal(level.cut, true, 'and marked cut');
  assert.ok(
    level.durationUs < durationS * 1e6,
    `it ran ${level.durationUs} µs of its ${durationS} s, and says so`,
  );
  const ok = lines.filter((r) => r.ok);
  assert.equal(level.stats.count, ok.length, 'one raw line per answered query');
  const lastAnswerUs = Math.max(...ok.map((r) => r.endUs));
  assert.ok(lastAnswerUs <= level.durationUs + 1, `answers end by its end (${lastAnswerUs} µs)`);
  assert.equal(
    level.throughput,
    Math.round((ok.length * 1e9) / level.durationUs) / 1000,
    'throughput = answered / the time it ran',
  );
  assert.equal(level.tripped, undefined, 'a cut level that failed nothing is not judged');
}

describe('a level cut short by Ctrl-C', () => {
  test('closed model: the level under way is kept, marked cut, its rate over the time it ran', async () => {
    const { cwd, env } = pgDir();
    const durationS = 3;
    const run = await runAndCutLevelTwo(
      [
        'run',
        '--kinds',
        'load',
        '--sweep',
        '1,2',
        '--duration',
        String(durationS),
        '--format',
        'json',
        '--raw',
        'raw.ndjson',
      ],
      { cwd, env },
    );
    assert.equal(run.code, 130, run.stderr);
    const result = resultOf(run);
    const load = result.measurements[0]?.load;
    const [first, second] = load?.levels ?? [];
    const lines = rawLines(cwd);
    assert.equal(first?.cut, undefined, 'level 1 ran its full time');
    assert.equal(first?.stats.count, lines.filter((r) => r.level === 1 && r.ok).length);
    checkCutLevel(
      second,
      lines.filter((r) => r.level === 2),
      durationS,
    );
    assert.equal(load?.knee, undefined);
    const markdown = formatMarkdown(result);
    // The client verdict, when the thread was busy, follows it in the same cell.
    assert.match(markdown, /\| not judged: cut after \d\.\d\d s of 3 s(; client-limited: [^|]+)? \|$/m);
    assert.doesNotMatch(
      markdown,
      /Kept up at every level \(/,
      'never "kept up at every level" over a cut one',
    );
    assert.match(markdown, /Kept up at every level that ran its full 3 s; 2 connections was cut short/);
  });

  test('open model: achieved over the time it ran, and no "did not keep up" from the cut', async () => {
    const { cwd, env } = pgDir();
    const rate = 200;
    const run = await runAndCutLevelTwo(
      [
        'run',
        '--kinds',
        'load',
        '--rate',
        String(rate),
        '--sweep',
        `100,${rate}`,
        '--concurrency',
        '4',
        '--duration',
        '3',
        '--format',
        'json',
        '--raw',
        'raw.ndjson',
      ],
      { cwd, env },
    );
    assert.equal(run.code, 130, run.stderr);
    const level = resultOf(run).measurements[0]?.load?.levels[1];
    const lines = rawLines(cwd).filter((r) => r.level === rate);
    checkCutLevel(level, lines, 3);
    const starts = level!.starts!;
    const ranS = level!.durationUs / 1e6;
    // Asked: the starts due before the cut, no more (the timetable's own times, from --raw).
    assert.ok(starts.asked <= Math.floor(rate * ranS) + 1, `asked ${starts.asked} in ${ranS} s`);
    assert.ok(
      Math.max(...lines.map((r) => r.intendedUs)) <= level!.durationUs,
      'no raw line was due after the cut',
    );
    assert.equal(
      starts.achievedRate,
      Math.round((starts.started * 1e9) / level!.durationUs) / 1000,
      'achieved = started / the time it ran',
    );
  });
});

describe('arrivals spread over probing threads', () => {
  test('--rate 3 --threads 2: 3 arrivals, each at its own time of the one timetable', async () => {
    const { cwd, env } = pgDir();
    const run = await runCli(
      [
        'run',
        '-q',
        '--kinds',
        'load',
        '--rate',
        '3',
        '--concurrency',
        '2',
        '--duration',
        '1',
        '--threads',
        '2',
        '--format',
        'json',
        '--raw',
        'raw.ndjson',
      ],
      { cwd, env },
    );
    assert.equal(run.code, 0, run.stderr);
    const result = resultOf(run);
    const level = result.measurements[0]?.load?.levels[0];
    const lines = rawLines(cwd);
    assert.equal(result.plan.threads, 2);
    assert.deepEqual(
      lines.map((r) => r.intendedUs).sort((a, b) => a - b),
      [0, 333_333, 666_667],
      'the one timetable, dealt out: no start floored away, none twice at 0',
    );
    assert.equal(level?.starts?.asked, 3);
    assert.equal(level?.stats.count, lines.filter((r) => r.ok).length);
    assert.equal(level?.tripped, undefined, `kept up: ${level?.tripped}`);
    assert.deepEqual(
      level && result.measurements[0]?.load?.fanOut?.places.map((p) => p.levels[0]?.share),
      [2, 1],
    );
  });

  test('--rate 100 over 8 threads asks for 100/s; --rate 1 over 2 for 1', async () => {
    const { cwd, env } = pgDir();
    const hundred = await runCli(
      [
        'run',
        '-q',
        '--kinds',
        'load',
        '--rate',
        '100',
        '--concurrency',
        '8',
        '--duration',
        '1',
        '--threads',
        '8',
        '--format',
        'json',
        '--raw',
        'raw.ndjson',
      ],
      { cwd, env },
    );
    assert.equal(hundred.code, 0, hundred.stderr);
    const level = resultOf(hundred).measurements[0]?.load?.levels[0];
    const intended = rawLines(cwd)
      .map((r) => r.intendedUs)
      .sort((a, b) => a - b);
    assert.deepEqual(
      intended,
      Array.from({ length: 100 }, (_, i) => Math.round(i * 10_000)),
    );
    assert.equal(level?.starts?.asked, 100);
    assert.equal(level?.starts?.askedRate, 100);
    const one = await runCli(
      [
        'run',
        '-q',
        '--kinds',
        'load',
        '--rate',
        '1',
        '--concurrency',
        '2',
        '--duration',
        '1',
        '--threads',
        '2',
        '--format',
        'json',
        '--raw',
        'one.ndjson',
      ],
      { cwd, env },
    );
    assert.equal(one.code, 0, one.stderr);
    const oneLevel = resultOf(one).measurements[0]?.load?.levels[0];
    assert.equal(oneLevel?.starts?.asked, 1);
    assert.equal(rawLines(cwd, 'one.ndjson').length, 1);
    assert.equal(oneLevel?.tripped, undefined);
  });

  test('a 2/s schedule over 2 threads starts its requests at their own times', async () => {
    const { cwd, env } = pgDir();
    const run = await runCli(
      [
        'run',
        '-q',
        '--kinds',
        'schedule',
        '--rate',
        '2',
        '--queries',
        '1',
        '--duration',
        '1',
        '--threads',
        '2',
        '--format',
        'json',
        '--raw',
        'raw.ndjson',
      ],
      { cwd, env },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.deepEqual(
      rawLines(cwd)
        .map((r) => r.intendedUs)
        .sort((a, b) => a - b),
      [0, 500_000],
    );
    assert.equal(resultOf(run).measurements[0]?.schedule?.starts.asked, 2);
  });

  test('threads without work are not started: no idle thread is the bottleneck, no listener warning', async () => {
    const { cwd, env } = pgDir();
    const single = await runCli(
      [
        'run',
        '-q',
        '--kinds',
        'load',
        '--concurrency',
        '1',
        '--threads',
        '4',
        '--duration',
        '1',
        '--format',
        'json',
      ],
      { cwd, env },
    );
    assert.equal(single.code, 0, single.stderr);
    const alone = resultOf(single);
    assert.doesNotMatch(alone.environment.location.label, /probing threads/, 'one connection: one thread');
    assert.doesNotMatch(alone.measurements[0]?.load?.levels[0]?.clientLimited ?? '', /shares limited/);
    // runCli fails on any process warning: twelve threads' listeners on one signal printed Node's
    // "possible EventTarget memory leak" warning.
    const many = await runCli(
      [
        'run',
        '-q',
        '--kinds',
        'load',
        '--concurrency',
        '12',
        '--threads',
        '32',
        '--duration',
        '0.5',
        '--format',
        'json',
      ],
      { cwd, env },
    );
    assert.equal(many.code, 0, many.stderr);
    const spread = resultOf(many);
    assert.equal(spread.plan.threads, 12, '32 asked, 12 with work');
    const places = spread.measurements[0]?.load?.fanOut?.places ?? [];
    assert.equal(places.length, 12);
    assert.ok(places.every((p) => p.levels[0]?.share === 1));
  });
});

describe('Ctrl-C during a --runner load level', () => {
  let runner: RunnerProcess;
  before(async () => {
    runner = await startRunnerProcess({ DBPROBE_TOKEN: TOKEN, PG_URL: testbedEnv('DBPROBE_TEST_PG_URL') });
  });
  after(() => runner.stop());

  test("the runner's measured level is kept, cut, and matches the runner's request lines", async () => {
    const cwd = configDir({ targets: [{ name: 'pg', driver: 'pg', connection: 'env:PG_URL' }] });
    const durationS = 3;
    const run = await runAndCutLevelTwo(
      [
        'run',
        '--runner',
        runner.url,
        '--kinds',
        'load',
        '--sweep',
        '1,2',
        '--duration',
        String(durationS),
        '--format',
        'json',
        '--raw',
        'raw.ndjson',
      ],
      { cwd, env: { DBPROBE_TOKEN: TOKEN } },
    );
    assert.equal(run.code, 130, run.stderr);
    const result = resultOf(run);
    assert.equal(result.state, 'cancelled');
    assert.equal(result.environment.location.kind, 'runner');
    const levels = result.measurements[0]?.load?.levels ?? [];
    assert.equal(levels.length, 2, 'both levels, the one under way included');
    const lines = rawLines(cwd);
    assert.equal(levels[0]?.stats.count, lines.filter((r) => r.level === 1 && r.ok).length);
    checkCutLevel(
      levels[1],
      lines.filter((r) => r.level === 2),
      durationS,
    );
    assert.ok(!run.stdout.includes(TOKEN) && !run.stderr.includes(TOKEN));
  });
});

/**
 * Issues 22 and 24: the open model at a rate this host cannot reach names the client as the limit,
 * with the reason, over one thread and over two; a rate it keeps up with says nothing. The rates
 * asked are beyond any thread by construction: 100,000 SELECT 1/s (the most a level may ask) over
 * one thread and over two (50,000/s each), where one Node thread has issued 11,000-18,000/s on the
 * 2-core testbeds seen so far.
 * (The test asked 20,000/s over one thread until a faster host reached 17,800/s of it at 84% CPU,
 * its 64 connections all busy: the database's limit there, rightly not called the client's.)
 * 200/s and 2,000/s leave the thread mostly idle (its pacer still spins for the last millisecond
 * before each start, so the CPU share alone would call 2,000/s client-limited: the verdict needs
 * the thread's own loop to fall behind the schedule).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { LoadLevelFigures } from '../../src/shared/loadResult';
import type { RunResult } from '../../src/shared/result';
import { configDir, runCli } from '../helpers/cli';
import { testbedEnv } from '../helpers/testbed';

const REASON =
  /^client-limited: one thread (at \d+% CPU|busy \d+% of the time at \d+% CPU \(the host took the rest\)); its schedule fell behind \(\d+% of starts reached over 1 ms late by its own loop; start lateness p99 [\d.,]+ (ms|µs), [\d,]+\/s of [\d,]+\/s achieved\)/;

const cwd = configDir({ targets: [{ name: 'pg', driver: 'pg', connection: 'env:PG_URL' }] });
const env = () => ({ PG_URL: testbedEnv('DBPROBE_TEST_PG_URL') });

async function levels(args: string[]): Promise<{ levels: LoadLevelFigures[]; seen: string }> {
  const run = await runCli(['run', '--kinds', 'load', '-q', '--format', 'json', ...args], {
    cwd,
    env: env(),
    timeoutMs: 60_000,
  });
  assert.equal(run.code, 0, run.stderr);
  const found = (JSON.parse(run.stdout) as RunResult).measurements[0]?.load?.levels ?? [];
  const seen = JSON.stringify(
    found.map((l) => [
      l.level,
      l.starts?.achievedRate,
      l.starts?.latenessP99Us,
      l.clientCpuPercent,
      l.clientLimited,
    ]),
  );
  console.log(`levels [rate, achieved/s, lateness p99 µs, client CPU %, flag]: ${seen}`);
  return { levels: found, seen };
}

test(
  'open model at 100,000/s over one thread: client-limited, with the reason',
  { timeout: 90_000 },
  async () => {
    const { levels: found, seen } = await levels([
      '--rate',
      '100000',
      '--concurrency',
      '64',
      '--duration',
      '2',
      '--threads',
      '1',
    ]);
    assert.match(found[0]?.clientLimited ?? '', REASON, seen);

    const md = await runCli(
      [
        'run',
        '--kinds',
        'load',
        '-q',
        '--rate',
        '100000',
        '--concurrency',
        '64',
        '--duration',
        '2',
        '--threads',
        '1',
      ],
      { cwd, env: env(), timeoutMs: 60_000 },
    );
    assert.equal(md.code, 0, md.stderr);
    const row = md.stdout.split('\n').find((l) => l.startsWith('| 100000 |')) ?? '';
    // The same reason in the Markdown row, whichever sentence (CPU or loop) the level's figures earned.
    assert.match(row, new RegExp(REASON.source.slice(1)), md.stdout);
  },
);

test(
  'open model at 100,000/s over two threads: client-limited, with the reason',
  { timeout: 90_000 },
  async () => {
    const { levels: found, seen } = await levels([
      '--rate',
      '100000',
      '--concurrency',
      '64',
      '--duration',
      '2',
      '--threads',
      '2',
    ]);
    assert.match(found[0]?.clientLimited ?? '', REASON, seen);
    assert.match(found[0]?.clientLimited ?? '', /\([12] of 2 shares limited\)$/, seen);
  },
);

test('open model at 200/s and 2,000/s: the client is not the limit', { timeout: 90_000 }, async () => {
  const { levels: found, seen } = await levels([
    '--rate',
    '200',
    '--sweep',
    '200,2000',
    '--concurrency',
    '64',
    '--duration',
    '2',
  ]);
  assert.deepEqual(
    found.map((l) => l.level),
    [200, 2000],
    seen,
  );
  for (const level of found) assert.equal(level.clientLimited, undefined, seen);
});

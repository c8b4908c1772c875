/**
 * Every "faster", "wins" and "overtakes" the tool writes is earned. Two identical targets
 * (the same URL under two names: the testbed PostgreSQL twice, an embedded libSQL file twice) are
 * probed in several runs each (RUNS); no run may name a crossover between them or a difference with a winner, in
 * the Markdown or in the panel's view model. Each run's bootstrap is seeded (by kind and target), so a
 * result always gives the same verdict; the runs differ by their samples only. The PostgreSQL pair
 * runs again beside a CPU hog (two `yes > /dev/null` processes on this 2-core machine): a busy host's
 * slow spells span many consecutive samples, which the bootstrap's blocks must absorb (it named a
 * difference in 1 run of 20 at load 4-7 when it resampled samples one at a time). Beside the hog one
 * series of 14 may hold as many claiming runs as the calibration bench's bound of 1 in 20 gives in
 * 95% of series (2; seen: 1 run in 2 of 6 series, e.g. 14.2 vs 12.9 ms, the interval's end at 0.1
 * ms); the quiet pairs name none.
 */
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, test } from 'node:test';
import { buildRunViewModel } from '../../src/extension/model/runViewModel';
import { formatMarkdown } from '../../src/report/markdown';
import type { RunResult } from '../../src/shared/result';
import { configDir, runCli } from '../helpers/cli';
import { testbedEnv } from '../helpers/testbed';

/**
 * Runs per pair. PostgreSQL's costs 2 s a run, and 3.5 s beside the hog (its two `yes` processes
 * slow every CLI start): 20 and 20 were the file's two minutes. A rule that names a winner between
 * identical targets in a good share of runs is caught in 10 as in 20 (with neither the interval nor
 * the spread floor of src/shared/differences.ts, the first run already named one); a rule wrong in
 * one run of twenty was never reliably caught by 20 either. The hog keeps more runs than the quiet
 * pair: its slow spells are what the bootstrap's blocks absorb, and resampling one sample at a time
 * named a difference there in 1 run of 20. libSQL's pair is cheap (0.3 s a run) and keeps 20.
 */
const RUNS = { pg: 10, libsql: 20, hog: 14 } as const;
const ITERATIONS = 100;
/** Sentences that name a winner (the verdict's "twin-b fastest", not "twin-a and twin-b tied fastest"). */
const CLAIM = /\bfaster than\b|\bslower than\b|\bwins\b|\bovertakes\b|\bbeats\b|\btwin-[ab] fastest\b/;

async function twins(
  runs: number,
  driver: string,
  url: string,
  dir?: (cwd: string) => string,
  extraArgs: string[] = [],
): Promise<string[]> {
  const claims: string[] = [];
  const gaps: string[] = [];
  const cwd = configDir({
    targets: [
      { name: 'twin-a', driver, connection: 'env:TWIN_URL' },
      { name: 'twin-b', driver, connection: 'env:TWIN_URL' },
    ],
    iterations: ITERATIONS,
    warmup: 5,
  });
  const env = { TWIN_URL: dir ? dir(cwd) : url };
  for (let i = 0; i < runs; i++) {
    const run = await runCli(['run', '-q', '--format', 'json', ...extraArgs], {
      cwd,
      env,
      timeoutMs: 120_000,
    });
    assert.equal(run.code, 0, run.stderr);
    const result = JSON.parse(run.stdout) as RunResult;
    for (const m of result.measurements) assert.equal(m.stats.count, ITERATIONS, `${m.target} ${m.kind}`);
    const model = buildRunViewModel(result);
    const markdown = formatMarkdown(result);
    const said = [
      ...markdown.split('\n').filter((line) => /twin-[ab]/.test(line) && CLAIM.test(line)),
      ...model.expected.crossovers.map((c) => `crossover: ${c.text}`),
      ...model.differences.comparisons.flatMap((c) =>
        c.differences.filter((d) => d.established || CLAIM.test(d.text)).map((d) => `difference: ${d.text}`),
      ),
    ];
    claims.push(...said.map((s) => `run ${i + 1}: ${s}`));
    for (const kind of ['initial', 'subsequent'] as const) {
      const [a, b] = result.measurements.filter((m) => m.kind === kind).map((m) => m.stats.p50Us);
      if (a !== undefined && b !== undefined)
        gaps.push(`${kind} ${Math.round((100 * Math.abs(a - b)) / Math.min(a, b))}% (${a}/${b} us)`);
    }
  }
  console.log(`${driver} twins, p50 gap per run: ${gaps.join('; ')}`);
  return claims;
}

test(
  `the testbed PostgreSQL twice, ${RUNS.pg} runs: no crossover, no winner named`,
  { timeout: 600_000 },
  async () => {
    const claims = await twins(RUNS.pg, 'pg', testbedEnv('DBPROBE_TEST_PG_URL'));
    assert.deepEqual(claims, []);
  },
);

test(
  `one libSQL file twice, ${RUNS.libsql} runs: no crossover, no winner named`,
  { timeout: 600_000 },
  async () => {
    const claims = await twins(RUNS.libsql, 'libsql', '', (cwd) => `file:${path.join(cwd, 'twin.db')}`);
    assert.deepEqual(claims, []);
  },
);

/** The calibration bench's bound on runs that name a difference between identical targets. */
const FALSE_CLAIM_BOUND = 1 / 20;

/**
 * The most runs of `runs` that may name a winner when each does with chance `rate`: the count k
 * from which a count above k has a chance below `rarerThan` (the binomial tail).
 */
function claimsAllowed(runs: number, rate: number, rarerThan: number): number {
  const choose = (n: number, k: number) => {
    let c = 1;
    for (let i = 1; i <= k; i++) c = (c * (n - k + i)) / i;
    return c;
  };
  let atMost = 0;
  for (let k = 0; k <= runs; k++) {
    atMost += choose(runs, k) * rate ** k * (1 - rate) ** (runs - k);
    if (1 - atMost < rarerThan) return k;
  }
  return runs;
}

/** The hog's processes; killed after the test (and after HOG_MAX_MS whatever happens). */
const hogs: ChildProcess[] = [];
const HOG_MAX_MS = 600_000;
const stopHogs = (): void => {
  for (const hog of hogs) if (hog.exitCode === null && hog.signalCode === null) hog.kill('SIGTERM');
};
after(stopHogs);

test(
  `the testbed PostgreSQL twice beside a CPU hog (two busy processes), initial, ${RUNS.hog} runs: no winner named`,
  { timeout: HOG_MAX_MS },
  async () => {
    // Bounded: a hog outlives a killed test otherwise (seen: an hour of two `yes` on 2 cores).
    for (let i = 0; i < 2; i++)
      hogs.push(spawn('timeout', [String(HOG_MAX_MS / 1000), 'yes'], { stdio: 'ignore' }));
    setTimeout(stopHogs, HOG_MAX_MS).unref();
    try {
      const claims = await twins(RUNS.hog, 'pg', testbedEnv('DBPROBE_TEST_PG_URL'), undefined, [
        '--kinds',
        'initial',
      ]);
      console.log(
        `load average beside the hog: ${os
          .loadavg()
          .map((x) => x.toFixed(1))
          .join(', ')}`,
      );
      assert.ok(
        hogs.every((hog) => hog.exitCode === null && hog.signalCode === null),
        'the hog ran throughout',
      );
      // A 95% interval names a difference between identical targets in some runs by design: the
      // calibration bench bounds it at 1 run in 20 beside its neighbour (verdict_false_claims_*).
      // The series fails when its count of claiming runs would be rarer than 5% at that bound; a
      // rule without the interval, or without its blocks, names one in most runs and fails here.
      const runsThatClaimed = new Set(claims.map((claim) => claim.split(':')[0])).size;
      const allowed = claimsAllowed(RUNS.hog, FALSE_CLAIM_BOUND, 0.05);
      assert.ok(
        runsThatClaimed <= allowed,
        `${runsThatClaimed} of ${RUNS.hog} runs named a winner (at most ${allowed} at 1 in 20)\n${claims.join('\n')}`,
      );
      if (claims.length > 0)
        console.log(
          `${runsThatClaimed} of ${RUNS.hog} runs named a winner (at most ${allowed}):\n${claims.join('\n')}`,
        );
    } finally {
      stopHogs();
    }
  },
);

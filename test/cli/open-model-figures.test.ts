/**
 * A saturated open-model level through the real CLI on an embedded libSQL file: the corrected figures
 * it reports match the exact ones computed from every request it wrote with `--raw`, they are the
 * headline (JSON stats, stderr), and a threshold on a level that did not keep up fails.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { RawRequest } from '../../src/shared/loadResult';
import type { RunResult } from '../../src/shared/result';
import { configDir, runCli } from '../helpers/cli';
import { assertMatchesSchema } from '../helpers/schema';

const TARGET = 'lite';
/** Far above what one embedded connection serves: the level cannot keep up. */
const SATURATING = ['--kinds', 'load', '--rate', '100000', '--concurrency', '1'];

function localDb(): { cwd: string; env: NodeJS.ProcessEnv } {
  const cwd = configDir({ targets: [{ name: TARGET, driver: 'libsql', connection: 'env:LOAD_DB_URL' }] });
  return { cwd, env: { LOAD_DB_URL: `file:${path.join(cwd, 'load.db')}` } };
}

/** Nearest-rank percentile of a sorted array. */
function at(sorted: number[], percentile: number): number {
  return sorted[Math.max(0, Math.ceil((percentile / 100) * sorted.length) - 1)] ?? NaN;
}

test('corrected p50 and p99 of a saturated level match the exact values from --raw, and lead', async () => {
  const { cwd, env } = localDb();
  const real = await runCli(
    ['run', ...SATURATING, '--duration', '6', '--format', 'json', '--raw', 'raw.ndjson'],
    { cwd, env },
  );
  assert.equal(real.code, 0, real.stderr);
  const result = JSON.parse(real.stdout) as RunResult;
  assertMatchesSchema('result', result);
  const m = result.measurements[0];
  const level = m?.load?.levels[0];
  assert.ok(m && level?.corrected && level.starts, real.stdout.slice(0, 400));
  assert.ok(level.tripped, 'a saturated level did not keep up');

  const lines = readFileSync(path.join(cwd, 'raw.ndjson'), 'utf8').trim().split('\n');
  const requests = lines.map((line) => JSON.parse(line) as RawRequest);
  assert.ok(
    requests.every((r) => r.target === TARGET && r.kind === 'load' && r.level === 100000),
    lines[0],
  );
  const ok = requests.filter((r) => r.ok);
  assert.equal(ok.length, level.corrected.count, 'one raw line per answered request');
  const corrected = ok.map((r) => r.endUs - r.intendedUs).sort((a, b) => a - b);
  const lateness = ok.map((r) => (r.startUs ?? NaN) - r.intendedUs).sort((a, b) => a - b);
  for (const [p, reported] of [
    [50, level.corrected.p50Us],
    [99, level.corrected.p99Us],
  ] as const) {
    const exact = at(corrected, p);
    assert.ok(
      Math.abs(reported - exact) <= exact * 0.01,
      `corrected p${p}: reported ${reported} µs, exact from --raw ${exact} µs`,
    );
  }
  assert.ok(
    level.corrected.p99Us >= at(lateness, 50),
    `corrected p99 ${level.corrected.p99Us} µs below the median lateness ${at(lateness, 50)} µs`,
  );
  assert.ok(level.corrected.p99Us >= level.starts.latenessP50Us, JSON.stringify(level.starts));

  // The headline everywhere is the corrected figure; the service time is kept beside it.
  assert.equal(m.stats.p99Us, level.corrected.p99Us);
  assert.equal(m.load?.service?.p99Us, level.stats.p99Us);
  assert.match(
    real.stderr,
    new RegExp(`${TARGET} load: corrected \\(from the intended start\\) p50 [\\d.]+ ms`),
  );
  assert.match(real.stderr, /; service time p50 [\d.]+ ms/);
  assert.match(real.stderr, new RegExp(`--raw .*raw\\.ndjson: ${requests.length} requests`));
});

test('a threshold on a level that did not keep up fails and says so, whatever its percentile', async () => {
  const { cwd, env } = localDb();
  const run = await runCli(
    // Two seconds: a level this far over what one connection serves falls behind in the first.
    ['run', ...SATURATING, '--duration', '2', '--threshold', `${TARGET}:load:p99<5ms`],
    { cwd, env },
  );
  assert.equal(run.code, 3, run.stderr);
  assert.match(run.stderr, /threshold failed: target "lite" load p99 = [\d.]+ ms, limit < 5\.000 ms; fails/);
  // Which shortfall is named depends on how far the probing threads got: starts, or the rate achieved.
  assert.match(
    run.stderr,
    /level 100000\/s did not keep up \((started \d+ of 200000|achieved [\d.]+\/s of 100000\/s) asked/,
  );
  assert.match(run.stdout, /## Load \(every query of every level\), from the intended start/);
  // A limit every figure meets still fails: the level measured less than was asked.
  const lenient = await runCli(
    ['run', ...SATURATING, '--duration', '1', '--threshold', `${TARGET}:load:p99<3600s`],
    {
      cwd,
      env,
    },
  );
  assert.notEqual(lenient.code, 0, lenient.stderr);
  assert.match(lenient.stderr, /did not keep up/);
});

/**
 * The client watch must not cry wolf. `dbprobe demo` run 20 times in a row (short runs,
 * -n 50) on this machine: no run's report carries the client warning, and no measurement's JSON
 * says the client was the bottleneck. The watch judges only stalls that touched a timed sample and
 * leaves out embedded drivers' own synchronous work (src/core/clientWatch.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runCli } from '../helpers/cli';
import { tempDir } from '../helpers/tempDir';

const RUNS = 20;

test('dbprobe demo 20 times in a row: no client warning in any', { timeout: 600_000 }, async () => {
  const warned: string[] = [];
  for (let i = 0; i < RUNS; i++) {
    const run = await runCli(['demo', '-q', '-n', '50'], { cwd: tempDir('demo-quiet'), timeoutMs: 60_000 });
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /# Database latency/);
    const line = run.stdout.split('\n').find((l) => /client warning|client may have limited/i.test(l));
    if (line) warned.push(`run ${i + 1}: ${line}`);
  }
  assert.deepEqual(warned, []);
});

/**
 * The limits the README promises, for the slowest-to-yield case: an embedded libSQL file answers
 * without I/O, so only the engine's turns between samples let timers, signals and finalizers run.
 * These assertions are the product's stated limits (run limit + 1 s, Ctrl-C within 1.5 s), with
 * margins for a shared, busy host, not speed figures. The 300 MB memory limit is run-memory.test.ts's.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunResult } from '../../src/shared/result';
import { runCli, type CliRun } from '../helpers/cli';
import { MILLION, libsqlFileRun, samplesIn } from '../helpers/libsqlFileRun';

test('timeouts.runMs 2000 ends a 1,000,000-iteration libSQL file run within 3 s as timedOut', async () => {
  const run = await runCli(['run', '-q', '-f', 'json'], {
    ...libsqlFileRun({ timeouts: { runMs: 2000 } }),
    // Without turns the run ignores its limit and goes on for the whole million (a minute or more).
    timeoutMs: 30_000,
  });
  assert.equal(run.code, 1, run.stderr);
  const result = JSON.parse(run.stdout) as RunResult;
  assert.equal(result.state, 'timedOut');
  assert.match(result.stopReason ?? '', /2000 ms limit/);
  // Both ends: a limit that cut the run early is as wrong as one that let it run on. The engine starts
  // its clock and the limit's timer together, so 50 ms covers what lies between the two.
  assert.ok(
    result.durationUs >= 1_950_000 && result.durationUs <= 3_000_000,
    `the run lasted ${result.durationUs / 1000} ms; its limit was 2000 ms`,
  );
  assert.ok(samplesIn(result) > 0, 'the report holds the samples measured before the limit');
  assert.match(run.stderr, /run stopped: the run exceeded its 2000 ms limit/);
});

/** Starts the million-sample run, sends `signal` 1 s after the run started, times the exit. */
async function interruptAfterOneSecond(signal: NodeJS.Signals): Promise<{ run: CliRun; exitMs: number }> {
  let pid = 0;
  let sentAt: bigint | undefined;
  let timer: NodeJS.Timeout | undefined;
  const run = await runCli(['run', '-f', 'json'], {
    ...libsqlFileRun({ kinds: ['subsequent'] }),
    timeoutMs: 30_000,
    onSpawn: (p) => (pid = p),
    onStderr: (chunk) => {
      // The progress line "probing ..." is written when the run starts.
      if (timer || !chunk.includes('probing')) return;
      timer = setTimeout(() => {
        sentAt = process.hrtime.bigint();
        process.kill(pid, signal);
      }, 1000);
    },
  });
  const exitedAt = process.hrtime.bigint();
  assert.ok(sentAt, `the run started and got ${signal}:\n${run.stderr}`);
  return { run, exitMs: Number(exitedAt - sentAt) / 1e6 };
}

for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  test(`${signal} 1 s into a libSQL file run exits ${code} within 1.5 s with the partial report`, async (t) => {
    const { run, exitMs } = await interruptAfterOneSecond(signal);
    t.diagnostic(`exited ${exitMs.toFixed(0)} ms after ${signal}`);
    assert.equal(run.code, code, run.stderr);
    assert.ok(exitMs <= 1500, `exited ${exitMs.toFixed(0)} ms after ${signal}`);
    const result = JSON.parse(run.stdout) as RunResult;
    assert.equal(result.state, 'cancelled');
    assert.ok(samplesIn(result) > 0, 'the partial report holds the samples measured before the signal');
    assert.ok(samplesIn(result) < MILLION);
    assert.match(run.stderr, /cancelling/);
  });
}

/**
 * The memory limit the README promises for the slowest-to-yield case: a million-sample run on an
 * embedded libSQL file stays under 300 MB. libsql-js frees native memory in finalizers Node runs from
 * `setImmediate`, so without the engine's turns between samples the run grows by gigabytes. Memory,
 * not time: it runs beside other CLI files (scripts/test/groups.ts), apart from run-limits.test.ts,
 * whose signal and limit timings want the cores to themselves.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { RunResult } from '../../src/shared/result';
import { runCli } from '../helpers/cli';
import { libsqlFileRun, samplesIn } from '../helpers/libsqlFileRun';
import { watchPeakRss } from '../helpers/peakRss';

test('peak RSS of a 1,000,000-iteration libSQL file run stays under 300 MB', async (t) => {
  if (process.platform !== 'linux') {
    t.skip('reads /proc/<pid>/status');
    return;
  }
  let watch: ReturnType<typeof watchPeakRss> | undefined;
  // runMs bounds the test on a slow machine; without turns it is ignored and RSS grows by GBs.
  const run = await runCli(['run', '-q', '-f', 'json'], {
    ...libsqlFileRun({ kinds: ['subsequent'], timeouts: { runMs: 25_000 } }),
    timeoutMs: 120_000,
    onSpawn: (pid) => (watch = watchPeakRss(pid)),
  });
  const peakMb = watch?.stop() ?? 0;
  assert.ok(run.code === 0 || run.code === 1, run.stderr);
  const result = JSON.parse(run.stdout) as RunResult;
  t.diagnostic(`${samplesIn(result)} samples (${result.state}), peak RSS ${peakMb} MB`);
  assert.ok(samplesIn(result) >= 10_000, `${samplesIn(result)} samples`);
  assert.ok(peakMb > 0, 'the peak was read');
  assert.ok(peakMb < 300, `peak RSS ${peakMb} MB`);
});

/**
 * A load level's CPU share of its probing thread (src/core/load/levelBusy.ts): CPU over the wall
 * time the host let the thread run. One thread never exceeds one core; a schedstat reading that lags
 * by a tick over a very short level must not say it did. (No figure here depends on how long the
 * test itself takes: the run times are far past or at zero.)
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LevelBusy } from '../../src/core/load/levelBusy';

/** A watch whose schedstat reads `end` at the level's end, zero before. */
function watch(end: { runUs: number; waitUs: number }) {
  let readings = 0;
  return {
    who: 'one thread',
    cpuUs: () => 0,
    // Two readings at the start (construction, the level's clock start), then the end one.
    threadSched: () => (readings++ < 2 ? { runUs: 0, waitUs: 0 } : end),
  };
}

test('a run-time reading past the wall time (a lag over a short level) is one core, not more', () => {
  const busy = new LevelBusy(watch({ runUs: 10_000_000, waitUs: 0 }));
  busy.hooks({}).started?.(0n);
  const { cpuPercent, who } = busy.end();
  assert.deepEqual({ cpuPercent, who }, { cpuPercent: 100, who: 'one thread' });
});

test("the level's event-loop busy share: a loop kept busy reads near 100%, one waiting for I/O near 0", async () => {
  // The loop must be running: before its first turn Node reads no utilisation at all.
  await new Promise((resolve) => setTimeout(resolve, 5));
  const spin = new LevelBusy(watch({ runUs: 0, waitUs: 0 }));
  spin.hooks({}).started?.(0n);
  const until = Date.now() + 60;
  while (Date.now() < until); // Bounded: 60 ms of synchronous work, the loop never waits.
  const spun = spin.end().loopPercent ?? 0;
  assert.ok(spun >= 90, `a loop that never waited read ${spun}% busy`);
  const idle = new LevelBusy(watch({ runUs: 0, waitUs: 0 }));
  idle.hooks({}).started?.(0n);
  // A longer wait than the busy side's. On a crowded host the process is also taken off the CPU
  // during its few ms of work, which reads as busy (52% was seen beside a full test phase), so the
  // waiting loop is judged against the spinning one measured just before, not against a share.
  await new Promise((resolve) => setTimeout(resolve, 250));
  const waited = idle.end().loopPercent ?? 100;
  assert.ok(waited < spun, `a loop that waited on a timer read ${waited}% busy, one that spun ${spun}%`);
});

test('a thread that did not run reads 0%', () => {
  const busy = new LevelBusy(watch({ runUs: 0, waitUs: 0 }));
  busy.hooks({}).started?.(0n);
  assert.equal(busy.end().cpuPercent, 0);
});

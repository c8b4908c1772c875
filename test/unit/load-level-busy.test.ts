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
  assert.deepEqual(busy.end(), { cpuPercent: 100, who: 'one thread' });
});

test('a thread that did not run reads 0%', () => {
  const busy = new LevelBusy(watch({ runUs: 0, waitUs: 0 }));
  busy.hooks({}).started?.(0n);
  assert.equal(busy.end().cpuPercent, 0);
});

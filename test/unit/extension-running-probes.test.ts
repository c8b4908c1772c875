/**
 * Closing or reloading the window stops every run under way the way Cancel does and waits, within a
 * bound, for each to save what it measured (src/extension/probe/runningProbes.ts).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { RunningProbes } from '../../src/extension/probe/runningProbes';

function deferred() {
  let resolve: () => void = () => undefined;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
}

test('stopAll stops every run and resolves once each has saved', async () => {
  const running = new RunningProbes();
  const stopped: string[] = [];
  const a = deferred();
  const b = deferred();
  running.track(() => {
    stopped.push('a');
    setTimeout(a.resolve, 20);
  }, a.promise);
  running.track(() => {
    stopped.push('b');
    setTimeout(b.resolve, 40);
  }, b.promise);
  assert.equal(running.count, 2);
  assert.equal(running.closing, false);
  const unsaved = await running.stopAll(5_000);
  assert.deepEqual(stopped, ['a', 'b'], 'both were stopped');
  assert.equal(unsaved, 0, 'both saved within the bound');
  assert.equal(running.count, 0);
  assert.equal(running.closing, true, 'runs finishing now show nothing more');
});

test('stopAll gives up at its bound and says how many runs did not save', async () => {
  const running = new RunningProbes();
  const never = deferred();
  const quick = deferred();
  running.track(() => undefined, never.promise);
  running.track(quick.resolve, quick.promise);
  const startedAt = performance.now();
  const unsaved = await running.stopAll(100);
  const waited = performance.now() - startedAt;
  assert.equal(unsaved, 1, 'the run that never finished is counted');
  assert.ok(waited >= 90 && waited < 2_000, `waited ${waited.toFixed(0)} ms for a 100 ms bound`);
});

test('a run that finished (or failed) is no longer tracked', async () => {
  const running = new RunningProbes();
  const done = deferred();
  // Recorded, not thrown: stopAll goes on past a stop that throws.
  const stopped: string[] = [];
  running.track(() => stopped.push('finished'), done.promise);
  running.track(() => stopped.push('failed'), Promise.reject(new Error('failed')));
  done.resolve();
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.equal(running.count, 0);
  assert.equal(await running.stopAll(50), 0);
  assert.deepEqual(stopped, [], 'neither was stopped');
});

test('a run whose stop throws does not keep the others from stopping', async () => {
  const running = new RunningProbes();
  const saved = deferred();
  running.track(
    () => {
      throw new Error('Channel has been closed');
    },
    new Promise(() => undefined),
  );
  running.track(saved.resolve, saved.promise);
  assert.equal(await running.stopAll(100), 1, 'the second run stopped and saved; the first is counted');
});

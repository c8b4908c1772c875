/**
 * CancelScope under a load level's churn: a subscriber per query, many in flight. What a finished
 * query subscribed must not outlive it in the old generation: a Set there rebuilt its hash table
 * every few queries, the obsolete tables chained to their successors, and once one was promoted
 * every later table (and each query's closures in it) was promoted too (seen red with the Set).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { getHeapSpaceStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { CancelScope } from '../../src/core/deadline';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as (options?: { type: 'major' | 'minor' }) => void;

const oldSpaceUsed = (): number =>
  getHeapSpaceStatistics().find((s) => s.space_name === 'old_space')?.space_used_size ?? 0;

test('subscribers that come and go leave nothing in the old generation', () => {
  const scope = new CancelScope(new AbortController().signal);
  const inFlight = 64;
  const live: { slot: number; subscriber: () => void }[] = [];
  const subscribe = () => {
    // Each query's closure holds ~1 KB, as a query's promise chain does.
    const payload = new Array<number>(128).fill(live.length);
    const subscriber = () => void payload.length;
    live.push({ slot: scope.subscribe(subscriber), subscriber });
  };
  for (let i = 0; i < inFlight; i++) subscribe();
  gc({ type: 'major' });
  const before = oldSpaceUsed();
  for (let i = 0; i < 40_000; i++) {
    const done = live.splice(i % live.length, 1)[0]!;
    scope.unsubscribe(done.slot, done.subscriber);
    subscribe();
    // Scavenges as often as a busy thread's allocation makes them.
    if (i % 500 === 0) gc({ type: 'minor' });
  }
  gc({ type: 'minor' });
  const grownMiB = (oldSpaceUsed() - before) / 2 ** 20;
  // ~40 MB were allocated; a promotion chain keeps most of it (measured 20-40 MiB), none keeps < 2.
  assert.ok(grownMiB < 4, `old space grew ${grownMiB.toFixed(1)} MiB under subscriber churn`);
  scope.dispose();
});

test('a cancel reaches every subscriber still in, once; an ended one is not called', () => {
  const controller = new AbortController();
  const scope = new CancelScope(controller.signal);
  const calls: string[] = [];
  const a = () => calls.push('a');
  const b = () => calls.push('b');
  const c = () => calls.push('c');
  const slotA = scope.subscribe(a);
  const slotB = scope.subscribe(b);
  scope.unsubscribe(slotA, a);
  // A second unsubscribe of an ended slot, now reused by c, must not end c's subscription.
  const slotC = scope.subscribe(c);
  scope.unsubscribe(slotA, a);
  assert.equal(slotC, slotA);
  controller.abort();
  assert.deepEqual(calls.sort(), ['b', 'c']);
  scope.unsubscribe(slotB, b);
});

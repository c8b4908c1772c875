/**
 * The probe thread's batches leave between samples: from `add` once EVENT_BATCH_MS old, so in a run
 * whose events come fast no timer ever sends one while a query is out; the timer sends only what a
 * slow run left waiting.
 */
import assert from 'node:assert/strict';
import { afterEach, beforeEach, mock, test } from 'node:test';
import { EventBatch } from '../../src/probeThread/eventBatch';
import { EVENT_BATCH_MAX, EVENT_BATCH_MS, type FromProbeThread } from '../../src/shared/probeThreadMessages';
import type { RawRequest } from '../../src/shared/loadResult';

let clock = 0;
let posted: { at: number; count: number; from: 'add' | 'timer' }[] = [];
let inAdd = false;

function batch(): EventBatch<number> {
  const port = {
    postMessage: (message: FromProbeThread) => {
      assert.equal(message.type, 'requests');
      posted.push({
        at: clock,
        count: message.type === 'requests' ? message.requests.length : 0,
        from: inAdd ? 'add' : 'timer',
      });
    },
  };
  return new EventBatch<number>(
    port,
    (items) => ({ type: 'requests', requests: items as unknown as RawRequest[] }),
    () => clock,
  );
}

function add(b: EventBatch<number>, item: number, last = false): void {
  inAdd = true;
  try {
    b.add(item, last);
  } finally {
    inAdd = false;
  }
}

beforeEach(() => {
  clock = 0;
  posted = [];
  mock.timers.enable({ apis: ['setTimeout'] });
});
afterEach(() => mock.timers.reset());

test('a fast run: every batch leaves from add once EVENT_BATCH_MS old, none from the timer', () => {
  const b = batch();
  // One event every 100 µs for a second, the timer's clock moving with it.
  for (let i = 0; i < 10_000; i++) {
    add(b, i);
    clock += 0.1;
    mock.timers.tick(0.1);
  }
  assert.ok(posted.length >= 18, `${posted.length} batches`);
  assert.deepEqual(
    posted.filter((p) => p.from === 'timer'),
    [],
  );
  // EVENT_BATCH_MS of events each (the clock's sums of 0.1 ms may land an event either side).
  const perBatch = EVENT_BATCH_MS / 0.1;
  for (const p of posted) assert.ok(Math.abs(p.count - perBatch) <= 2, `${p.count} events in a batch`);
});

test('a batch leaves at once when full, and with the last event', () => {
  const b = batch();
  for (let i = 0; i < EVENT_BATCH_MAX; i++) add(b, i);
  assert.deepEqual(posted, [{ at: 0, count: EVENT_BATCH_MAX, from: 'add' }]);
  add(b, 1);
  add(b, 2, true);
  assert.deepEqual(posted.at(-1), { at: 0, count: 2, from: 'add' });
});

test('a slow run: what waits is sent by the timer, 2 x EVENT_BATCH_MS after it came', () => {
  const b = batch();
  add(b, 1);
  mock.timers.tick(2 * EVENT_BATCH_MS - 1);
  assert.equal(posted.length, 0);
  mock.timers.tick(1);
  assert.deepEqual(posted, [{ at: 0, count: 1, from: 'timer' }]);
  // Sent by add after a batch left: the timer does not fire again for it.
  add(b, 2);
  b.flush();
  mock.timers.tick(10 * EVENT_BATCH_MS);
  assert.equal(posted.length, 2);
});

/**
 * ConnectionTracker closes many connections at once (every worker of a load level) with one
 * listener on the run's stop signal: a listener per close made Node print "Possible EventTarget
 * memory leak detected" on the user's terminal at 21 connections. A stop still drops every
 * connection still closing, and nothing stays attached to the signal afterwards.
 */
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { test } from 'node:test';
import type { DriverConnection } from '../../src/core/driver';
import { ConnectionTracker } from '../../src/core/connection';

/** A connection whose polite close never settles (a hung server); records destroy(). */
function hangingConnection(destroyed: Set<DriverConnection>): DriverConnection {
  const conn: DriverConnection = {
    query: () => Promise.resolve(),
    close: () => new Promise<void>(() => undefined),
    destroy: () => void destroyed.add(conn),
  };
  return conn;
}

test('closing 256 connections at once adds one listener to the stop signal, and a stop drops them all', async () => {
  const stop = new AbortController();
  const tracker = new ConnectionTracker(stop.signal);
  const destroyed = new Set<DriverConnection>();
  for (let i = 0; i < 256; i++) tracker.add(hangingConnection(destroyed));
  const closing = tracker.closeAll();
  assert.equal(getEventListeners(stop.signal, 'abort').length, 1);
  stop.abort();
  await closing;
  assert.equal(destroyed.size, 256, 'every connection still closing was dropped');
  assert.equal(getEventListeners(stop.signal, 'abort').length, 0);
});

test('closes that settle leave no listener behind', async () => {
  const stop = new AbortController();
  const tracker = new ConnectionTracker(stop.signal);
  const conns = Array.from({ length: 64 }, () =>
    tracker.add({ query: () => Promise.resolve(), close: () => Promise.resolve(), destroy: () => undefined }),
  );
  await Promise.all(conns.map((conn) => tracker.close(conn)));
  assert.equal(tracker.size, 0);
  assert.equal(getEventListeners(stop.signal, 'abort').length, 0);
});

/**
 * Sockets a client makes with tls.connect() and no hook of its own to hand them over before they
 * start connecting (the mongodb driver's makeSocket, ioredis's connector): Node 20 publishes net.connect() sockets on the `net.client.socket` channel
 * but not tls.connect() ones. This wraps `tls.connect` once, in place, so a socket made while a
 * driver runs `withTlsConnectWatch` goes to that call's reporter (an AsyncLocalStorage tells which
 * call, so concurrent connects never mix). Outside such a call the wrapper is the same call as
 * before plus one AsyncLocalStorage read: other code in the process sees no difference.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Socket } from 'node:net';
// The module object itself (not a namespace copy), so the wrapper is what every require('tls') sees.
import tls from 'node:tls';

type Report = (socket: Socket) => void;

interface Watch {
  scope: AsyncLocalStorage<Report>;
}

// Each driver is its own bundle: they share one scope through the global registry, so the wrapper
// is installed once whichever driver installs it first.
const KEY = Symbol.for('dbprobe.tlsConnectWatch');

function watch(): Watch {
  const registry = globalThis as unknown as Record<symbol, Watch | undefined>;
  let found = registry[KEY];
  if (!found) {
    const scope = new AsyncLocalStorage<Report>();
    const original = tls.connect;
    const wrapped = function (this: unknown, ...args: unknown[]): tls.TLSSocket {
      const socket = (original as (...a: unknown[]) => tls.TLSSocket).apply(this, args);
      scope.getStore()?.(socket);
      return socket;
    };
    tls.connect = wrapped as typeof tls.connect;
    found = registry[KEY] = { scope };
  }
  return found;
}

/** Runs `fn`; every tls.connect() socket it (and what it starts) makes is handed to `report`. */
export function withTlsConnectWatch<T>(report: Report | undefined, fn: () => T): T {
  if (!report) return fn();
  return watch().scope.run(report, fn);
}

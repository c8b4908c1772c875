/**
 * DNS and TCP timings of the connection a sample opens, read from the driver's own socket: Node
 * publishes every client socket on the `net.client.socket` diagnostics channel, and an
 * AsyncLocalStorage tells which sample created it (so concurrent runs in one process never mix).
 * Sockets made by tls.connect directly (https, rediss:, mongodb+tls) are not published by Node 20:
 * those samples simply have no DNS/TCP split.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import * as diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import { elapsedUs, type Clock } from './clock';

export interface SocketPhases {
  /** Name lookup; absent when the host was an IP address (no lookup happened). */
  dnsUs?: number;
  /** From the end of the lookup (or the socket's creation) to the TCP connection. */
  tcpUs: number;
}

class SampleSockets {
  private created: bigint | undefined;
  private lookedUp: bigint | undefined;
  private connected: bigint | undefined;

  constructor(private readonly clock: Clock) {}

  /** Only the sample's first socket counts: later ones (a driver's monitor socket) are not its setup. */
  watch(socket: Socket): void {
    if (this.created !== undefined) return;
    this.created = this.clock.nowNs();
    socket.once('lookup', () => (this.lookedUp ??= this.clock.nowNs()));
    socket.once('connect', () => (this.connected ??= this.clock.nowNs()));
  }

  phases(startNs: bigint): SocketPhases | undefined {
    if (this.connected === undefined || this.created === undefined) return undefined;
    const tcpFrom = this.lookedUp ?? this.created;
    return {
      ...(this.lookedUp !== undefined ? { dnsUs: elapsedUs(startNs, this.lookedUp) } : {}),
      tcpUs: elapsedUs(tcpFrom, this.connected),
    };
  }
}

const current = new AsyncLocalStorage<SampleSockets>();
let subscribed = false;

function subscribeOnce(): void {
  if (subscribed) return;
  subscribed = true;
  diagnostics.subscribe('net.client.socket', (message) => {
    const socket = (message as { socket?: Socket }).socket;
    if (socket) current.getStore()?.watch(socket);
  });
}

/** For sockets Node does not publish: a driver hands them over through ConnectOptions.onSocket. */
export function reportSocket(socket: Socket): void {
  current.getStore()?.watch(socket);
}

/** Runs `connect` so that the sockets it creates are timed; read the phases after it resolves. */
export function withSocketPhases<T>(
  clock: Clock,
  connect: () => Promise<T>,
): { done: Promise<T>; phases: (startNs: bigint) => SocketPhases | undefined } {
  subscribeOnce();
  const sockets = new SampleSockets(clock);
  return { done: current.run(sockets, connect), phases: (startNs) => sockets.phases(startNs) };
}

/**
 * The anatomy of the connection a sample opens, read from the driver's own socket: DNS, TCP, TLS,
 * and the protocol handshake after them. An AsyncLocalStorage tells which sample created a socket
 * (so concurrent runs in one process never mix), and the sockets reach it two ways:
 * - Node publishes every `net.connect()` socket on the `net.client.socket` diagnostics channel;
 * - a driver hands over what Node does not publish (sockets made by `new Socket()` or `tls.connect()`,
 *   and TLS upgrades over a socket already open) through the reporter in ConnectOptions.phases.
 *
 * The steps, in the sample's own clock, with `start` the sample's start and `ready` the end of connect:
 * - dns: the socket's creation -> its `lookup` event (absent when the host is an IP address: no lookup);
 * - tcp: the lookup (or the socket's creation) -> `connect`: the wire's own round trip;
 * - tls: a TLS socket doing its own TCP (tls.connect with a host): `connect` -> `secureConnect`, the
 *   ClientHello Node builds in its own `connect` listener included (the step's start is read first in
 *   line, so a TCP step is the wire's round trip only, as the projection's floor needs); an
 *   upgrade over the sample's socket (pg after the server's 'S' to SSLRequest, mysql2 after its SSL
 *   request): tls.connect() returned -> `secureConnect`. Either way the ClientHello is on its way
 *   when the step starts, and the client's own TLS set-up before it (its secure context: the CA
 *   parsed) is client work, counted in handshake.
 *   A plaintext connection has no tls step at all (absent, not unmeasured);
 * - handshake: the rest of connect, `connectUs - dns - tcp - tls`: the protocol's handshake and auth,
 *   plus the client's own work before its socket existed and pg's SSLRequest round trip. Being the
 *   remainder, the steps add up to connect exactly.
 * Steps only count when they ended before connect did: a client that opens its socket in the
 * background (libsql over ws) shows none, and its driver says why through `unmeasured`.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import * as diagnostics from 'node:diagnostics_channel';
import type { Socket } from 'node:net';
import type {
  ConnectPhaseFields,
  ConnectStep,
  SampleReasons,
  SampleSuccess,
  WireFigure,
  WireReasons,
} from '../shared/result';
import { elapsedUs, type Clock } from './clock';
import { noteExchange, WireWatch } from './wireWatch';

/** The parts of a TLS socket the phases read (a tls.TLSSocket; the engine opens no socket itself). */
export interface TlsSocketLike {
  prependOnceListener(event: 'secureConnect', listener: () => void): unknown;
  isSessionReused(): boolean;
  /** The protocol the server picked from the client's ALPN offer; false when none was offered. */
  alpnProtocol?: string | false | null;
}

/** How a driver hands the sample what Node does not publish (ConnectOptions.phases). */
export interface PhaseReporter {
  /** A socket the client created; a TLS socket doing its own TCP is timed for TLS too. */
  socket(socket: Socket): void;
  /**
   * The TLS socket of an upgrade over the sample's open socket (pg, mysql2), handed over as soon as
   * tls.connect() returns: the handshake is timed from then (its ClientHello is on the way).
   */
  tlsSocket(socket: TlsSocketLike): void;
  /** A step of this connection that cannot be seen, and why (the result shows the reason). */
  unmeasured(step: ConnectStep, reason: string): void;
  /** A wire figure of this connection that cannot be seen, and why (e.g. alpn on a platform's fetch). */
  wireUnmeasured(figure: WireFigure, reason: string): void;
  /**
   * A request written (`sent`) or its response's headers read (`answered`) on a socket whose
   * protocol runs in native code (an HTTP/2 session): the turns the wire watch cannot see itself.
   * Works after connect too (a warm connection's queries): it goes by the socket.
   */
  exchange(socket: Socket, step: 'sent' | 'answered'): void;
}

/**
 * The connect steps seen on the sample's sockets (the connect phase's fields but its total, which the
 * sample times itself), what its connection negotiated (alpn), and what could not be seen, with why.
 */
export interface SocketPhases
  extends Omit<ConnectPhaseFields, 'connectUs'>, Pick<SampleSuccess, 'wire'>, SampleReasons {}

function isTlsSocket(socket: Socket): socket is Socket & TlsSocketLike {
  return (socket as { encrypted?: unknown }).encrypted === true;
}

class SampleSockets {
  private socket: Socket | undefined;
  private created: bigint | undefined;
  private lookedUp: bigint | undefined;
  private connected: bigint | undefined;
  private tlsSeen = false;
  private tlsFrom: bigint | undefined;
  private secured: bigint | undefined;
  private resumed: boolean | undefined;
  /** The ALPN protocol of the sample's TLS connection; null when TLS ended without one. */
  private alpn: string | null | undefined;
  private readonly reasons: Partial<Record<ConnectStep, string>> = {};
  private readonly wireReasons: WireReasons = {};
  /** Every socket of the sample, for what crosses the wire (wireWatch.ts). */
  readonly wire = new WireWatch();

  constructor(private readonly clock: Clock) {}

  /** Only the sample's first socket counts: later ones (a driver's second socket) are not its setup. */
  watch(socket: Socket): void {
    this.wire.socket(socket);
    if (this.socket !== undefined) return;
    this.socket = socket;
    this.created = this.clock.nowNs();
    socket.once('lookup', () => (this.lookedUp ??= this.clock.nowNs()));
    // First in line: a tls.connect() socket's own `connect` listener (registered before the socket
    // reaches us) builds and sends the ClientHello (its key shares), which is TLS work, not the wire's.
    socket.prependOnceListener('connect', () => (this.connected ??= this.clock.nowNs()));
    // tls.connect() with a host: the TLS socket makes its own TCP connection, TLS starts at `connect`.
    if (isTlsSocket(socket)) this.watchTls(socket, false);
  }

  /** An upgrade over the watched socket: starts now (or at `connect`, if that has not come yet). */
  upgrade(socket: TlsSocketLike): void {
    this.wire.upgrade(socket);
    if (this.tlsSeen || this.socket === undefined) return;
    this.watchTls(socket, true);
  }

  /**
   * The first socket connected (TCP accepted) and not one byte came back on it: whatever listens
   * there took the connection and never spoke. Read after a connect timeout; `bytesRead` outlives the
   * socket's destruction.
   */
  heardNothing(): boolean {
    return this.socket !== undefined && this.connected !== undefined && this.socket.bytesRead === 0;
  }

  unmeasured(step: ConnectStep, reason: string): void {
    this.reasons[step] ??= reason;
  }

  wireUnmeasured(figure: WireFigure, reason: string): void {
    this.wireReasons[figure] ??= reason;
  }

  private watchTls(socket: TlsSocketLike, upgrade: boolean): void {
    this.tlsSeen = true;
    if (upgrade && this.connected !== undefined) this.tlsFrom ??= this.clock.nowNs();
    // First in line, so the driver's own secureConnect work (sending its login) is not counted as TLS.
    socket.prependOnceListener('secureConnect', () => {
      this.secured ??= this.clock.nowNs();
      this.resumed = socket.isSessionReused();
      this.alpn = typeof socket.alpnProtocol === 'string' ? socket.alpnProtocol : null;
    });
  }

  /**
   * The protocol the connection negotiated in its TLS handshake (ALPN: h2, http/1.1), read at
   * `secureConnect`; a driver that knows why there is none says so through wireUnmeasured.
   */
  private alpnFigure(): Pick<SocketPhases, 'wire' | 'wireUnmeasured'> {
    const alpn = this.alpn ?? undefined;
    const { alpn: alpnReason, ...others } = this.wireReasons;
    const reasons: WireReasons =
      alpn === undefined && alpnReason !== undefined ? { ...others, alpn: alpnReason } : others;
    return {
      ...(alpn !== undefined ? { wire: { alpn } } : {}),
      ...(Object.keys(reasons).length > 0 ? { wireUnmeasured: { ...reasons } } : {}),
    };
  }

  /** The steps of a connect that ran from `startNs` to `readyNs`; the rest of it is `handshakeUs`. */
  phases(startNs: bigint, readyNs: bigint): SocketPhases {
    return { ...this.steps(startNs, readyNs), ...this.alpnFigure() };
  }

  private steps(startNs: bigint, readyNs: bigint): SocketPhases {
    const unmeasured = Object.keys(this.reasons).length > 0 ? { unmeasured: { ...this.reasons } } : {};
    const { created, connected } = this;
    if (created === undefined || connected === undefined || connected > readyNs) return unmeasured;
    const lookedUp = this.lookedUp !== undefined && this.lookedUp <= connected ? this.lookedUp : undefined;
    const dnsUs = lookedUp !== undefined ? elapsedUs(created, lookedUp) : undefined;
    const tcpUs = elapsedUs(lookedUp ?? created, connected);
    let tls: { tlsUs: number; tlsResumed: boolean } | undefined;
    if (this.tlsSeen) {
      const from = this.tlsFrom !== undefined && this.tlsFrom > connected ? this.tlsFrom : connected;
      // A TLS handshake that did not finish within connect cannot be split off: say so, never guess.
      if (this.secured === undefined || this.secured > readyNs) {
        return { unmeasured: { ...this.reasons, tls: 'the TLS handshake did not end within connect' } };
      }
      tls = { tlsUs: elapsedUs(from, this.secured), tlsResumed: this.resumed === true };
    }
    const connectUs = elapsedUs(startNs, readyNs);
    return {
      ...(dnsUs !== undefined ? { dnsUs } : {}),
      tcpUs,
      ...(tls ?? {}),
      handshakeUs: Math.max(0, connectUs - (dnsUs ?? 0) - tcpUs - (tls?.tlsUs ?? 0)),
      ...unmeasured,
    };
  }
}

const current = new AsyncLocalStorage<SampleSockets>();
let subscribed = false;
/**
 * Samples still taking their sockets (withSocketPhases until its release). While none is, the
 * storage is disabled: an enabled AsyncLocalStorage makes Node 20 run a promise hook for every
 * promise of the thread (about 50 ns each, measured here: a loop of awaited promises went from 105 to
 * 263 ns an iteration with one enabled, and back to 114 once disabled), several of them inside each
 * timed query. So a warm `subsequent` query or a load level pays nothing for the attribution that only
 * connects need. `run()` enables it again for the next sample.
 */
let attributing = 0;

function subscribeOnce(): void {
  if (subscribed) return;
  subscribed = true;
  diagnostics.subscribe('net.client.socket', (message) => {
    const socket = (message as { socket?: Socket }).socket;
    if (socket) current.getStore()?.watch(socket);
  });
}

/**
 * The reporter drivers receive: each call goes to the sample whose connect is running where it is
 * made (the AsyncLocalStorage), and does nothing outside a sample (a `subsequent` reconnect).
 */
export const phaseReporter: PhaseReporter = {
  socket: (socket) => current.getStore()?.watch(socket),
  tlsSocket: (socket) => current.getStore()?.upgrade(socket),
  unmeasured: (step, reason) => current.getStore()?.unmeasured(step, reason),
  wireUnmeasured: (figure, reason) => current.getStore()?.wireUnmeasured(figure, reason),
  exchange: noteExchange,
};

/** True while some sample is taking its sockets (the storage, and Node's promise hook, are on). */
export function attributingSockets(): boolean {
  return attributing > 0;
}

/** Runs `connect` so that the sockets it creates are timed; read the phases after it resolves. */
export function withSocketPhases<T>(
  clock: Clock,
  connect: () => Promise<T>,
): {
  done: Promise<T>;
  phases: (startNs: bigint, readyNs: bigint) => SocketPhases;
  /** What crosses the sample's sockets, from before `connect` ran on (see wireWatch.ts). */
  wire: WireWatch;
  /**
   * The sample takes no more sockets (an `initial` sample once it closed: a driver may open one in
   * its first query, as mongodb's pool does; a warm connection once connected). Once per call.
   */
  release: () => void;
  /** The sample's socket was accepted and nothing came back on it (see SampleSockets.heardNothing). */
  heardNothing: () => boolean;
} {
  subscribeOnce();
  const sockets = new SampleSockets(clock);
  attributing += 1;
  let released = false;
  const release = (): void => {
    if (released) return;
    released = true;
    attributing -= 1;
    if (attributing === 0) current.disable();
  };
  return {
    done: current.run(sockets, connect),
    phases: (startNs, readyNs) => sockets.phases(startNs, readyNs),
    wire: sockets.wire,
    release,
    heardNothing: () => sockets.heardNothing(),
  };
}

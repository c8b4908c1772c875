/**
 * What crosses the wire in one sample, counted on the driver's own sockets: round trips,
 * TCP handshakes, bytes, and the TLS version, cipher and ALPN a new connection negotiated.
 *
 * Bytes come from the TCP handle's own counters (`bytesWritten`/`bytesRead` of the stream in native
 * code), so under TLS they are the encrypted bytes, handshake included. A turn (round trip) is the
 * client writing, then data coming back; writes sent before any reply are one turn, and a server
 * that speaks first (MySQL's greeting) answers the TCP handshake's last ACK, so that is a turn too.
 *
 * Where the turns are seen:
 * - a plaintext socket: every write (`_writeGeneric`) and every chunk read (`push`) runs in JS;
 * - a TLS socket: Node's TLS layer reads and writes the TCP handle in native code, so no JS runs per
 *   raw chunk during the handshake. The points that do run JS are the `keylog` lines (written as
 *   each server flight is processed, before the client's answer is flushed) and `secureConnect`; at
 *   each the raw counters say whether bytes came in and went out since the previous point. During a
 *   handshake the client never sends two flights without a reply between them, so bytes out since
 *   the last point that came after an earlier unanswered write mean one more exchange in between (a
 *   HelloRetryRequest). After the handshake the cleartext writes and reads run in JS again.
 * An HTTP/2 session over TLS reads and writes its socket in native code after the handshake, so no
 * JS runs per chunk there either. Its client (the HTTP session, drivers/httpSession.ts) reports each
 * request as it goes out and each response as its headers arrive (`exchange`, keyed by the socket,
 * so a warm `subsequent` connection reports outside the sample's connect too); those are the
 * session's writes and reads. A stream read in native code with nothing reported shows no turns:
 * the count says so (`roundTripsUnseen`) rather than give a short figure.
 */
import type { Socket } from 'node:net';
import type { SampleWire } from '../shared/result';

/** The TCP handle's native counters (a StreamBase), read at any time while the socket lives. */
interface CountingHandle {
  bytesWritten?: number;
  bytesRead?: number;
}

/** The parts of a socket (net.Socket or tls.TLSSocket) the watch patches and reads. */
interface WatchedSocket {
  _handle?: (CountingHandle & { _parent?: CountingHandle }) | null;
  _writeGeneric?: (...args: unknown[]) => unknown;
  push(chunk: unknown, encoding?: unknown): boolean;
  once(event: 'connect' | 'secureConnect', listener: () => void): unknown;
  prependOnceListener(event: 'secureConnect', listener: () => void): unknown;
  on(event: 'keylog', listener: () => void): unknown;
  encrypted?: boolean;
  getProtocol?(): string | null;
  getCipher?(): { name?: string } | undefined;
  alpnProtocol?: string | false | null;
}

/** What observe() saw move since the last read: bits, so the read allocates nothing. */
const WROTE = 1;
const READ = 2;

/** One TCP connection: its counters as last seen, and where its TLS handshake stands. */
class Connection {
  /** Counters at the last observation (kept when the handle is gone: a closed socket). */
  w = 0;
  r = 0;
  /** Bytes written when the last turn ended: more than this are written and not yet answered. */
  answeredW = 0;
  handshaking = false;
  /** The client wrote cleartext during the handshake: TLS holds it, flushed when secure. */
  held = false;
  /**
   * Cleartext chunks read in JS after the handshake, and answers an HTTP/2 session reported (none
   * while raw bytes came: read natively and unreported).
   */
  appReads = 0;
  rAtSecure: number | undefined;

  constructor(private readonly counting: () => CountingHandle | null | undefined) {}

  /** Reads the counters; returns what moved since the last read (WROTE | READ). */
  observe(): number {
    const handle = this.counting();
    const w = handle?.bytesWritten ?? this.w;
    const r = handle?.bytesRead ?? this.r;
    const moved = (w > this.w ? WROTE : 0) | (r > this.r ? READ : 0);
    if (w > this.w) this.w = w;
    if (r > this.r) this.r = r;
    return moved;
  }
}

export interface WireSnapshot {
  roundTrips: number;
  tcpHandshakes: number;
  bytesSent: number;
  bytesReceived: number;
}

/** A snapshot to fill: a warm connection keeps two and refills them every sample. */
export function emptySnapshot(): WireSnapshot {
  return { roundTrips: 0, tcpHandshakes: 0, bytesSent: 0, bytesReceived: 0 };
}

/** Which watch counts each socket: a reported HTTP/2 exchange finds its connection here. */
const watchOfSocket = new WeakMap<object, WireWatch>();

/**
 * An HTTP/2 request written (`sent`) or its response's headers read (`answered`) on `socket`, as
 * the session's client saw them; a socket no sample watches (a `load` worker's) is ignored.
 */
export function noteExchange(socket: object, step: 'sent' | 'answered'): void {
  watchOfSocket.get(socket)?.exchange(socket, step);
}

export class WireWatch {
  private readonly connections = new Map<WatchedSocket, Connection>();
  /**
   * Each TCP connection once (a TLS upgrade maps a second socket to the same one): the per-sample
   * reads walk this array rather than build a Set of the map's values each time.
   */
  private readonly distinct: Connection[] = [];
  private turns = 0;
  private handshakes = 0;
  /** A client write (or a TCP handshake's last ACK) not yet answered. */
  private pending = false;
  /**
   * Writes handed to a socket in JS (`_writeGeneric`): a sample that compares it before and after
   * calling its driver knows whether the request reached the socket within the call
   * (kinds/subsequentKind.ts, requestOnWire). Not an HTTP/2 session's reported requests: those are
   * reported before native code writes their frames.
   */
  writes = 0;
  private tls: Pick<SampleWire, 'tlsVersion' | 'tlsCipher' | 'alpn'> = {};

  /** A socket the sample created (net.connect, new Socket(), tls.connect with a host). */
  socket(socket: Socket): void {
    const s = socket as unknown as WatchedSocket;
    if (this.connections.has(s)) return;
    const own = s.encrypted === true;
    // A TLS socket doing its own TCP keeps the TCP handle as its handle's parent.
    const conn = new Connection(() => (own ? s._handle?._parent : s._handle));
    this.connections.set(s, conn);
    this.distinct.push(conn);
    watchOfSocket.set(s, this);
    s.once('connect', () => {
      this.handshakes += 1;
      this.pending = true;
      conn.observe();
      // Node starts the TLS handshake on `connect` before this listener: the ClientHello is counted.
      if (own) conn.handshaking = true;
    });
    this.hookAppData(s, conn);
    if (own) this.hookTls(s, conn);
  }

  /** A TLS upgrade over a socket already watched (pg after SSLRequest, mysql2 after its SSL request). */
  upgrade(secure: unknown): void {
    const s = secure as WatchedSocket;
    // The socket it wraps is the handle's `_parentWrap` (Node's TLS upgrade); else the only one watched.
    const raw = (s._handle as { _parentWrap?: WatchedSocket } | null | undefined)?._parentWrap;
    const conn = (raw && this.connections.get(raw)) ?? this.soleConnection();
    if (!conn || this.connections.has(s)) return;
    // The ClientHello went out within tls.connect(): it is in the counters read now.
    conn.observe();
    conn.handshaking = true;
    this.connections.set(s, conn);
    watchOfSocket.set(s, this);
    this.hookAppData(s, conn);
    this.hookTls(s, conn);
  }

  /** A message its client reported on a socket read and written natively (see the file's comment). */
  exchange(socket: object, step: 'sent' | 'answered'): void {
    const conn = this.connections.get(socket as WatchedSocket);
    if (!conn) return;
    if (step === 'sent') this.onWrite(conn);
    else this.onRead(conn);
  }

  /** True once the sample handed over a socket. */
  sawSocket(): boolean {
    return this.connections.size > 0;
  }

  /**
   * Counts so far, written into `into` (a warm connection reuses its own two, so a sample allocates
   * none); the sample's figures are the difference of two snapshots.
   */
  snapshot(into: WireSnapshot = emptySnapshot()): WireSnapshot {
    let bytesSent = 0;
    let bytesReceived = 0;
    for (let i = 0; i < this.distinct.length; i++) {
      const conn = this.distinct[i]!;
      conn.observe();
      bytesSent += conn.w;
      bytesReceived += conn.r;
    }
    into.roundTrips = this.turns;
    into.tcpHandshakes = this.handshakes;
    into.bytesSent = bytesSent;
    into.bytesReceived = bytesReceived;
    return into;
  }

  /** Starts a new window (a `subsequent` query): nothing is pending from before it. */
  settle(into?: WireSnapshot): WireSnapshot {
    this.pending = false;
    const snap = this.snapshot(into);
    for (let i = 0; i < this.distinct.length; i++) {
      const conn = this.distinct[i]!;
      conn.answeredW = conn.w;
    }
    return snap;
  }

  /** TLS version, cipher and ALPN of the first TLS handshake the sample made. */
  tlsFigures(): Pick<SampleWire, 'tlsVersion' | 'tlsCipher' | 'alpn'> {
    return { ...this.tls };
  }

  /**
   * Why the turns are not all in the count, when a connection's stream was read out of sight: as of
   * the last snapshot (each caller takes one first), so it reads no native counter again.
   */
  roundTripsUnseen(): string | undefined {
    for (let i = 0; i < this.distinct.length; i++) {
      const conn = this.distinct[i]!;
      if (conn.rAtSecure !== undefined && conn.r > conn.rAtSecure && conn.appReads === 0)
        return 'the connection was read in native code after its TLS handshake, and its client reported no request on it: no turn could be seen';
    }
    return undefined;
  }

  private soleConnection(): Connection | undefined {
    return this.distinct.length === 1 ? this.distinct[0] : undefined;
  }

  private hookAppData(s: WatchedSocket, conn: Connection): void {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the patched methods keep the socket's `this`
    const watch = this;
    const write = s._writeGeneric;
    if (typeof write === 'function') {
      // Node's net.Socket#_writeGeneric(writev, data, encoding, cb): named parameters, not a rest
      // array, so the hook allocates nothing per write (it runs inside the timed region).
      s._writeGeneric = function (
        this: unknown,
        writev: unknown,
        data: unknown,
        encoding: unknown,
        cb: unknown,
      ) {
        const result = write.call(this, writev, data, encoding, cb);
        watch.writes += 1;
        watch.onWrite(conn);
        return result;
      };
    }
    const push = s.push;
    s.push = function (this: unknown, chunk: unknown, encoding?: unknown) {
      if (chunk !== null && chunk !== undefined && (chunk as { length?: number }).length !== 0)
        watch.onRead(conn);
      return push.call(this, chunk, encoding);
    };
  }

  private hookTls(s: WatchedSocket, conn: Connection): void {
    s.on('keylog', () => this.onHandshakeStep(conn));
    s.prependOnceListener('secureConnect', () => {
      this.onHandshakeStep(conn);
      conn.handshaking = false;
      conn.rAtSecure = conn.r;
      if (conn.held) this.pending = true;
      if (this.tls.tlsVersion === undefined) {
        const version = s.getProtocol?.();
        const cipher = s.getCipher?.()?.name;
        const alpn = s.alpnProtocol;
        this.tls = {
          ...(version ? { tlsVersion: version } : {}),
          ...(cipher ? { tlsCipher: cipher } : {}),
          ...(typeof alpn === 'string' && alpn ? { alpn } : {}),
        };
      }
    });
  }

  /**
   * The counters are read only where the logic needs them: during a handshake (its steps compare
   * them), and at a turn's end (answeredW). A write after the handshake only marks the turn pending:
   * whatever it moved is read at the turn's end or the next snapshot, so the counts are the same and
   * the timed region skips a native read per write.
   */
  private onWrite(conn: Connection): void {
    if (conn.handshaking) {
      conn.observe();
      conn.held = true;
    } else this.pending = true;
  }

  private onRead(conn: Connection): void {
    if (conn.handshaking) conn.observe();
    else conn.appReads += 1;
    if (!this.pending) return;
    if (!conn.handshaking) conn.observe();
    this.turns += 1;
    this.pending = false;
    conn.answeredW = conn.w;
  }

  /** A point inside the handshake (see the file's comment): reply bytes in mean one or two turns. */
  private onHandshakeStep(conn: Connection): void {
    const unansweredBefore = conn.w > conn.answeredW;
    const moved = conn.observe();
    if ((moved & READ) === 0) return;
    const dw = (moved & WROTE) !== 0;
    const turns = unansweredBefore && dw ? 2 : unansweredBefore || dw || this.pending ? 1 : 0;
    if (turns === 0) return;
    this.turns += turns;
    this.pending = false;
    conn.answeredW = conn.w;
  }
}

/** A sample's wire figures: the difference between its two snapshots, plus what its TLS negotiated. */
export function wireBetween(before: WireSnapshot, after: WireSnapshot): SampleWire {
  return {
    roundTrips: after.roundTrips - before.roundTrips,
    tcpHandshakes: after.tcpHandshakes - before.tcpHandshakes,
    bytesSent: after.bytesSent - before.bytesSent,
    bytesReceived: after.bytesReceived - before.bytesReceived,
  };
}

/**
 * How one sample is taken for each probe kind. The timed region starts inside the operation (after
 * the deadline's timer is armed) and ends in the continuation of the driver's own promise, so the
 * harness adds as little as possible to what is measured.
 */
import type { ProbeKind } from '../shared/plan';
import { elapsedUs, type Clock } from './clock';
import { queryWithDeadline, runWithDeadline, type CancelScope } from './deadline';
import type { DriverConnection } from './driver';
import { classifyError, ProbeError } from './failure';
import { QueryGate, type GateWatch } from './queryGate';
import { phaseReporter, withSocketPhases } from './socketPhases';
import type { ConnectStep, SampleWire, WireReasons } from '../shared/result';
import type { TargetSlot } from './slot';
import { connectCpuReader } from './clientWatch';
import { emptySnapshot, wireBetween, type WireSnapshot, type WireWatch } from './wireWatch';

export interface SampleContext {
  clock: Clock;
  scope: CancelScope;
  connectMs: number;
  queryMs: number;
  /** Tracks every open connection so cancellation can close them all. */
  connections: ConnectionTracker;
}

/** One sample's latency; `connectUs` is its connect phase when the sample opened a connection. */
export interface SampleTiming {
  us: number;
  connectUs?: number;
  /** Parts of connectUs seen on the driver's socket (see socketPhases.ts); they add up to connectUs. */
  dnsUs?: number;
  tcpUs?: number;
  tlsUs?: number;
  handshakeUs?: number;
  tlsResumed?: boolean;
  /** Steps of this sample's connect the driver could not see, with why (not part of the sample record). */
  unmeasured?: Partial<Record<ConnectStep, string>>;
  /** What crossed the sample's own sockets (wireWatch.ts). */
  wire?: SampleWire;
  /** Wire figures this sample could not count, with why (not part of the sample record). */
  wireUnmeasured?: WireReasons;
  /** A `cold` sample's hot connect taken right after it, and how long making it cold took. */
  cold?: { waitMs: number; hotUs: number; hotConnectUs?: number };
}

export interface KindStrategy {
  kind: ProbeKind;
  /** What samples of this kind share, stated in the result. */
  reused: string[];
  sample(slot: TargetSlot, ctx: SampleContext): Promise<SampleTiming>;
  finish(slot: TargetSlot, ctx: SampleContext): Promise<void>;
  /**
   * Asked right after sample() returned: true when that sample's request was already handed to its
   * socket within the call, so nothing the caller does before it yields can delay the request, only
   * run while the answer is on its way (the engine does the last sample's bookkeeping there).
   * Absent or false: the request may still be waiting on a later tick (fetch, a pool, a connect).
   */
  requestOnWire?(slot: TargetSlot): boolean;
}

const CLOSE_GRACE_MS = 1_000;

export class ConnectionTracker {
  private readonly open = new Set<DriverConnection>();
  /**
   * Closes waiting on the stop signal. One listener on the signal fans out to all of them: a load
   * level closes every worker's connection at once, and a listener per close (64, 256 of them on
   * the run's one signal) made Node warn of a leak on the user's terminal.
   */
  private readonly waiting = new Set<() => void>();
  private readonly onStopped = (): void => {
    for (const wake of [...this.waiting]) wake();
  };

  /**
   * `stopped`: the run's cancel/limit signal. Once it fires, connections are dropped at once rather
   * than closed politely: a polite close waits on the server, which may be the slow part, and the
   * run must end within a second of a cancel or its time limit.
   */
  constructor(private readonly stopped?: AbortSignal) {}

  add(conn: DriverConnection): DriverConnection {
    this.open.add(conn);
    return conn;
  }

  /** Closes one connection, waiting at most the grace period (the driver destroys its socket). */
  async close(conn: DriverConnection): Promise<void> {
    this.open.delete(conn);
    if (this.stopped?.aborted) {
      conn.destroy();
      return;
    }
    if (!(await settleWithin(safeClose(conn), CLOSE_GRACE_MS, (wake) => this.onStop(wake)))) conn.destroy();
  }

  /** Calls `wake` once when the stop signal fires; returns its removal. The signal gets one listener. */
  private onStop(wake: () => void): () => void {
    const stopped = this.stopped;
    if (!stopped) return () => undefined;
    if (this.waiting.size === 0) stopped.addEventListener('abort', this.onStopped, { once: true });
    this.waiting.add(wake);
    return () => {
      this.waiting.delete(wake);
      if (this.waiting.size === 0) stopped.removeEventListener('abort', this.onStopped);
    };
  }

  async closeAll(): Promise<void> {
    const all = [...this.open];
    this.open.clear();
    await Promise.all(all.map((conn) => this.close(conn)));
  }

  get size(): number {
    return this.open.size;
  }
}

export function connect(
  slot: TargetSlot,
  ctx: SampleContext,
  onStart?: () => void,
  around: (open: () => Promise<DriverConnection>) => Promise<DriverConnection> = (open) => open(),
): Promise<DriverConnection> {
  const driver = slot.driver;
  const url = slot.url;
  if (!driver || url === undefined)
    return Promise.reject(slot.setupError ?? new Error('target is not ready'));
  return runWithDeadline(
    (signal) => {
      onStart?.();
      return around(() =>
        driver.connect({
          url,
          signal,
          timeoutMs: ctx.connectMs,
          options: slot.spec.options ?? {},
          ...(slot.tls ? { tls: slot.tls } : {}),
          ...(slot.spec.http ? { http: slot.spec.http } : {}),
          phases: phaseReporter,
        }),
      );
    },
    {
      timeoutMs: ctx.connectMs,
      scope: ctx.scope,
      what: 'connect',
      setting: 'timeouts.connectMs',
      onLate: (late) => void ctx.connections.close(ctx.connections.add(late)),
    },
  ).then((conn) => ctx.connections.add(conn));
}

/** One query under the run's query timeout; `stamp(true)` and `stamp(false)` bound its timing. */
export function query(
  conn: DriverConnection,
  slot: TargetSlot,
  ctx: SampleContext,
  stamp: (start: boolean) => void,
): Promise<unknown> {
  return queryWithDeadline(conn, slot.workload, ctx.scope, ctx.queryMs, stamp);
}

/** New client, new connection, first query, then close: every sample pays the full setup. */
export const initialKind: KindStrategy = {
  kind: 'initial',
  reused: [],
  sample: sampleInitial,
  async finish() {},
};

/** What a connect's sockets are watched through (socketPhases.ts). */
type ConnectWatch = ReturnType<typeof withSocketPhases<DriverConnection>>;

async function sampleInitial(slot: TargetSlot, ctx: SampleContext): Promise<SampleTiming> {
  let start = 0n;
  let end = 0n;
  let sockets: ConnectWatch | undefined;
  const cpu = connectCpuReader();
  let cpuStart = 0;
  try {
    const conn = await connect(
      slot,
      ctx,
      () => {
        // Read before the start stamp and after the connected one: the read is not in the timing.
        cpuStart = cpu.readUs();
        start = ctx.clock.nowNs();
      },
      (open) => (sockets = withSocketPhases(ctx.clock, open)).done,
    );
    // Outside the query's timed path: the split costs the total nothing.
    const connected = ctx.clock.nowNs();
    const clientCpuUs = Math.max(0, Math.round(cpu.readUs() - cpuStart));
    let counted: WireSnapshot | undefined;
    try {
      await query(conn, slot, ctx, (isStart) => {
        if (isStart) return;
        end = ctx.clock.nowNs();
        // The counters at the query's end, before the close's own goodbye crosses the wire.
        counted = sockets?.wire.snapshot();
      });
    } finally {
      await ctx.connections.close(conn);
    }
    const {
      wire: negotiated,
      wireUnmeasured: negotiatedWhy,
      ...phases
    } = sockets?.phases(start, connected) ?? {};
    const counts = openedWire(sockets?.wire, counted, clientCpuUs, cpu.processWide, phases.unmeasured);
    // The driver's own reason (a plaintext session's alpn) before the generic one.
    const wireUnmeasured = { ...counts.wireUnmeasured, ...negotiatedWhy };
    return {
      us: elapsedUs(start, end),
      connectUs: elapsedUs(start, connected),
      ...phases,
      wire: { ...negotiated, ...counts.wire },
      ...(Object.keys(wireUnmeasured).length > 0 ? { wireUnmeasured } : {}),
    };
  } finally {
    // After the close, not at connect: a driver may open a socket in its first query (mongodb's pool).
    sockets?.release();
  }
}

/**
 * The wire figures of a sample that opened its connection (`initial`, `cold`): counts from the
 * sample's sockets, the TLS it negotiated, the client's CPU during connect; what could not be
 * counted is named with why.
 */
function openedWire(
  wire: WireWatch | undefined,
  counted: WireSnapshot | undefined,
  clientCpuUs: number,
  processWide: boolean,
  phasesUnmeasured: Partial<Record<ConnectStep, string>> | undefined,
): Pick<SampleTiming, 'wire' | 'wireUnmeasured'> {
  const reasons: WireReasons = {};
  if (processWide)
    reasons.clientCpu =
      "the process's CPU time (this Node has no per-thread CPU figure; Linux's per-thread one counts only whole scheduler ticks): the libuv pool's and GC helpers' work is in it";
  if (!wire || !counted || !wire.sawSocket()) {
    const why =
      phasesUnmeasured?.tcp ??
      'the sample opened no socket the tool could watch (an embedded database, or a runtime fetch that hides its connections)';
    return {
      wire: { clientCpuUs },
      wireUnmeasured: { ...reasons, roundTrips: why, bytes: why, tls: why, alpn: why },
    };
  }
  const figures: SampleWire = {
    ...wireBetween({ roundTrips: 0, tcpHandshakes: 0, bytesSent: 0, bytesReceived: 0 }, counted),
    ...wire.tlsFigures(),
    clientCpuUs,
  };
  const unseen = wire.roundTripsUnseen();
  if (unseen) {
    delete figures.roundTrips;
    reasons.roundTrips = unseen;
  }
  return { wire: figures, ...(Object.keys(reasons).length > 0 ? { wireUnmeasured: reasons } : {}) };
}

/**
 * A warm `subsequent` connection and what its samples reuse, made once when it connected: its query
 * gate (one timer refreshed per query, the answer handlers, one subscription to the run's
 * cancellation: queryGate.ts), the two wire snapshots, so a sample allocates its promise and its own
 * figures and nothing else. A slot takes its samples one at a time, and a connection that broke is
 * replaced with a new one (its gate disposed, its subscription ended).
 */
class WarmConnection implements GateWatch<SampleTiming> {
  private readonly before = emptySnapshot();
  private readonly after = emptySnapshot();
  /** The watch's write count when the current query was about to be sent. */
  private writesBefore = 0;
  private readonly gate: QueryGate<SampleTiming>;
  /** Its place among the run's cancel subscribers (CancelScope). */
  private readonly subscription: number;

  constructor(
    readonly conn: DriverConnection,
    private readonly slot: TargetSlot,
    private readonly ctx: SampleContext,
    /** The watch made while it connected; none when it opened no socket the tool could watch. */
    private readonly wire: WireWatch | undefined,
  ) {
    this.gate = new QueryGate(ctx.clock, ctx.queryMs, this);
    this.subscription = ctx.scope.subscribe(this.gate);
  }

  sample(): Promise<SampleTiming> {
    if (this.ctx.scope.cancelled) return Promise.reject(new ProbeError('cancelled', 'query cancelled'));
    return this.gate.run(this.conn, this.slot.workload);
  }

  /** Read before the start stamp: not in the timing. */
  started(): void {
    this.wire?.settle(this.before);
    this.writesBefore = this.wire?.writes ?? 0;
  }

  /** True when the query just started wrote to the socket within its driver call (see requestOnWire). */
  requestOnWire(): boolean {
    return this.wire !== undefined && this.wire.writes > this.writesBefore;
  }

  answered(): SampleTiming {
    // Read after the end stamp: not in the timing.
    this.wire?.snapshot(this.after);
    const us = elapsedUs(this.gate.startNs, this.gate.endNs);
    const wire = this.wire;
    if (!wire) {
      const why = 'the warm connection opened no socket the tool could watch';
      return { us, wireUnmeasured: { roundTrips: why, bytes: why } };
    }
    const counts = wireBetween(this.before, this.after);
    const unseen = wire.roundTripsUnseen();
    if (!unseen) return { us, wire: counts };
    delete counts.roundTrips;
    return { us, wire: counts, wireUnmeasured: { roundTrips: unseen } };
  }

  failed(error: unknown): void {
    // A rejected query leaves the connection usable; anything else may have left it mid-protocol.
    if (classifyError(error, this.slot.driver?.classify) === 'query') return;
    if (this.slot.conn === this.conn) this.slot.conn = undefined;
    this.release();
    void this.ctx.connections.close(this.conn);
  }

  /** The connection is done with: no timer or subscription outlives it. */
  release(): void {
    this.gate.dispose();
    this.ctx.scope.unsubscribe(this.subscription, this.gate);
  }
}

/** The reused state of each warm `subsequent` connection (see WarmConnection). */
const warmConnections = new WeakMap<DriverConnection, WarmConnection>();

async function connectWarm(slot: TargetSlot, ctx: SampleContext): Promise<WarmConnection> {
  let sockets: ConnectWatch | undefined;
  let conn: DriverConnection;
  try {
    conn = await connect(slot, ctx, undefined, (open) => (sockets = withSocketPhases(ctx.clock, open)).done);
  } finally {
    // Its queries open no socket of their own: the watch already holds the connection's.
    sockets?.release();
  }
  const warm = new WarmConnection(conn, slot, ctx, sockets?.wire.sawSocket() ? sockets.wire : undefined);
  warmConnections.set(conn, warm);
  slot.conn = conn;
  return warm;
}

const sampleFresh = (fresh: WarmConnection): Promise<SampleTiming> => fresh.sample();
const warmOf = (slot: TargetSlot): WarmConnection | undefined => slot.conn && warmConnections.get(slot.conn);

/** One warm connection, repeated queries; the connection is replaced only after it broke. */
export const subsequentKind: KindStrategy = {
  kind: 'subsequent',
  reused: ['connection'],
  // Not an async function: the warm path is the gate's promise, nothing more.
  sample(slot, ctx) {
    const warm = warmOf(slot);
    if (warm) return warm.sample();
    return connectWarm(slot, ctx).then(sampleFresh);
  },
  async finish(slot, ctx) {
    const conn = slot.conn;
    slot.conn = undefined;
    if (!conn) return;
    warmConnections.get(conn)?.release();
    await ctx.connections.close(conn);
  },
  requestOnWire(slot) {
    return warmOf(slot)?.requestOnWire() ?? false;
  },
};

/** `load` and `schedule` run for a duration (load/loadKind.ts); these entries only name what they reuse. */
function durationKind(kind: ProbeKind, reused: string[]): KindStrategy {
  return {
    kind,
    reused,
    sample: () => Promise.reject(new Error(`${kind} is not taken sample by sample`)),
    async finish() {},
  };
}

/** The kinds that need nothing from the caller; `cold` is built per run (see cold.ts). */
export const KIND_STRATEGIES: Record<Exclude<ProbeKind, 'cold'>, KindStrategy> = {
  initial: initialKind,
  subsequent: subsequentKind,
  schedule: durationKind('schedule', []),
  load: durationKind('load', [
    'connection (per worker in the closed model, shared by arrivals in the open one)',
  ]),
};

function safeClose(conn: DriverConnection): Promise<void> {
  try {
    return conn.close();
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * True when `promise` settled within `ms`; false on the timer or as soon as the stop fires.
 * `onStop(wake)` registers a wake-up and returns its removal (see ConnectionTracker.onStop).
 */
function settleWithin(
  promise: Promise<unknown>,
  ms: number,
  onStop: (wake: () => void) => () => void,
): Promise<boolean> {
  return new Promise((resolve) => {
    let done = false;
    const finish = (settled: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      forget();
      resolve(settled);
    };
    const timer = setTimeout(() => finish(false), ms);
    const forget = onStop(() => finish(false));
    promise.then(
      () => finish(true),
      () => finish(true),
    );
  });
}

/**
 * How one sample is taken for each probe kind. The timed region starts inside the operation (after
 * the deadline's timer is armed) and ends in the continuation of the driver's own promise, so the
 * harness adds as little as possible to what is measured.
 */
import type { ProbeKind } from '../shared/plan';
import { elapsedUs, type Clock } from './clock';
import { runWithDeadline, type CancelScope } from './deadline';
import type { DriverConnection } from './driver';
import { classifyError } from './failure';
import { phaseReporter, withSocketPhases } from './socketPhases';
import type { ConnectStep, SampleWire, WireReasons } from '../shared/result';
import type { TargetSlot } from './slot';

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
  /** What the sample's own connection negotiated (see socketPhases.ts). */
  wire?: SampleWire;
  /** Wire figures of this sample's connection that could not be seen, with why (not in the record). */
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

export function query(
  conn: DriverConnection,
  slot: TargetSlot,
  ctx: SampleContext,
  stamp: (start: boolean) => void,
) {
  return runWithDeadline(
    () => {
      stamp(true);
      return conn.query(slot.workload).then(() => stamp(false));
    },
    {
      timeoutMs: ctx.queryMs,
      scope: ctx.scope,
      what: 'query',
      setting: 'timeouts.queryMs',
      onAbandon: () => conn.destroy(),
    },
  );
}

/** New client, new connection, first query, then close: every sample pays the full setup. */
export const initialKind: KindStrategy = {
  kind: 'initial',
  reused: [],
  async sample(slot, ctx) {
    let start = 0n;
    let end = 0n;
    let sockets: ReturnType<typeof withSocketPhases> | undefined;
    const conn = await connect(
      slot,
      ctx,
      () => (start = ctx.clock.nowNs()),
      (open) => (sockets = withSocketPhases(ctx.clock, open)).done,
    );
    // Outside the query's timed path: the split costs the total nothing.
    const connected = ctx.clock.nowNs();
    try {
      await query(conn, slot, ctx, (isStart) => {
        if (!isStart) end = ctx.clock.nowNs();
      });
    } finally {
      await ctx.connections.close(conn);
    }
    return {
      us: elapsedUs(start, end),
      connectUs: elapsedUs(start, connected),
      ...sockets?.phases(start, connected),
    };
  },
  async finish() {},
};

/** One warm connection, repeated queries; the connection is replaced only after it broke. */
export const subsequentKind: KindStrategy = {
  kind: 'subsequent',
  reused: ['connection'],
  async sample(slot, ctx) {
    slot.conn ??= await connect(slot, ctx);
    const conn = slot.conn;
    let start = 0n;
    let end = 0n;
    try {
      await query(conn, slot, ctx, (isStart) => {
        if (isStart) start = ctx.clock.nowNs();
        else end = ctx.clock.nowNs();
      });
    } catch (error) {
      // A rejected query leaves the connection usable; anything else may have left it mid-protocol.
      if (classifyError(error, slot.driver?.classify) !== 'query') {
        slot.conn = undefined;
        void ctx.connections.close(conn);
      }
      throw error;
    }
    return { us: elapsedUs(start, end) };
  },
  async finish(slot, ctx) {
    const conn = slot.conn;
    slot.conn = undefined;
    if (conn) await ctx.connections.close(conn);
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

/**
 * The engine's connections: opening one under the run's connect timeout (with the target's TLS and
 * HTTP settings and the socket-phase reporter), one query under the query timeout, and the tracker
 * that closes every connection a run opened, at once when the run is cancelled.
 */
import { ProbeError } from './failure';
import { queryWithDeadline, runWithDeadline, type CancelScope } from './deadline';
import type { Clock } from './clock';
import type { DriverConnection } from './driver';
import { phaseReporter, type withSocketPhases } from './socketPhases';
import type { TargetSlot } from './slot';

export interface SampleContext {
  clock: Clock;
  scope: CancelScope;
  connectMs: number;
  queryMs: number;
  /** Tracks every open connection so cancellation can close them all. */
  connections: ConnectionTracker;
}

/** What a connect's sockets are watched through (socketPhases.ts). */
export type ConnectWatch = ReturnType<typeof withSocketPhases<DriverConnection>>;

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

/**
 * A connect cut by the timeout on a socket the server accepted and never wrote to is not a slow
 * server: something listens on the port and does not speak the driver's protocol (another service,
 * a proxy with nothing behind it), or the database is hung. Says so instead of a bare timeout.
 */
export function explainSilence(error: unknown, watch: ConnectWatch | undefined, driver: string): unknown {
  if (!(error instanceof ProbeError) || error.errorClass !== 'timeout') return error;
  if (!error.message.startsWith('connect timed out') || !watch?.heardNothing()) return error;
  return new ProbeError(
    'timeout',
    `${error.message}: the server accepted the TCP connection and then sent not one byte`,
    `Whatever listens on that host and port did not answer in time in the protocol driver ${driver} speaks: another service on that port, a proxy or tunnel with nothing behind it, or a hung database. Check the port in the connection string (and TLS: a TLS client waits in silence on a plaintext port), and that the database behind it is up.`,
  );
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

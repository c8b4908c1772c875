/**
 * Runs one driver operation under a timeout and the run's cancellation. Built to add as little as
 * possible around a sample: one listener on the run's signal for the whole run (CancelScope), and
 * an AbortController only for operations that take a signal (connects, not queries).
 */
import { ProbeError } from './failure';

/** Fans one AbortSignal out to many short-lived subscribers without touching the EventTarget per sample. */
export class CancelScope {
  /**
   * Subscribers by slot, with the free slots: an array that stops growing at the run's highest
   * concurrency. Not a Set: a Set that gains and loses a subscriber per query (64 queries in flight
   * on one scope) rebuilds its hash table every few queries, and each obsolete table points to its
   * successor; once one of them is promoted to the old generation it holds every later table, and
   * the closures in them, past each scavenge. On the 2-core testbed that promoted nearly everything a
   * closed-model query allocated (old space grew ~11 MB/s) and cost ~7 µs of CPU per query in GC.
   */
  private readonly subscribers: ((() => void) | undefined)[] = [];
  private readonly free: number[] = [];
  /** One reusable timer (see startTimer); released timers may still fire, as a no-op. */
  private timer: NodeJS.Timeout | undefined;
  private timerMs = 0;
  private timerOwner: (() => void) | undefined;
  private readonly onAbort = (): void => {
    const all = this.subscribers.filter((s): s is () => void => s !== undefined);
    for (const subscriber of all) subscriber();
  };

  constructor(readonly signal: AbortSignal) {
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  get cancelled(): boolean {
    return this.signal.aborted;
  }

  /** Calls `subscriber` once when the run is cancelled; answers its slot, for unsubscribe. */
  subscribe(subscriber: () => void): number {
    const slot = this.free.pop() ?? this.subscribers.length;
    this.subscribers[slot] = subscriber;
    return slot;
  }

  /** Ends the subscription in `slot` when it is still `subscriber`'s: a second call does nothing. */
  unsubscribe(slot: number, subscriber: () => void): void {
    if (this.subscribers[slot] !== subscriber) return;
    this.subscribers[slot] = undefined;
    this.free.push(slot);
  }

  /**
   * Arms a timeout; returns its disarm. Consecutive operations with the same timeout reuse one
   * Timeout through refresh(), sparing a timer allocation and list insert/remove per sample.
   */
  startTimer(ms: number, onFire: () => void): () => void {
    if (this.timerOwner === undefined && (this.timer === undefined || this.timerMs === ms)) {
      this.timerOwner = onFire;
      if (this.timer) this.timer.refresh();
      else {
        this.timerMs = ms;
        this.timer = setTimeout(() => {
          const owner = this.timerOwner;
          this.timerOwner = undefined;
          owner?.();
        }, ms);
      }
      return () => {
        if (this.timerOwner === onFire) this.timerOwner = undefined;
      };
    }
    const own = setTimeout(onFire, ms);
    return () => clearTimeout(own);
  }

  dispose(): void {
    this.signal.removeEventListener('abort', this.onAbort);
    this.subscribers.length = 0;
    this.free.length = 0;
    clearTimeout(this.timer);
    this.timerOwner = undefined;
  }
}

export interface DeadlineOptions<T> {
  timeoutMs: number;
  scope: CancelScope;
  /** Names the operation in the error: "connect", "query". */
  what: string;
  /** The plan setting that set `timeoutMs` ("timeouts.queryMs"), named when the deadline cuts in. */
  setting?: string;
  /** Called with a value that arrived after the deadline (e.g. a connection to close). */
  onLate?: (value: T) => void;
  /** Called once when the deadline passes or the run is cancelled, before the promise rejects. */
  onAbandon?: () => void;
}

/**
 * The returned promise settles at the deadline without waiting for the driver to comply; an
 * operation that declares a signal parameter gets one, aborted on timeout or cancellation, so the
 * driver can drop its socket.
 */
export function runWithDeadline<T>(
  op: (signal: AbortSignal) => Promise<T>,
  options: DeadlineOptions<T>,
): Promise<T>;
export function runWithDeadline<T>(op: () => Promise<T>, options: DeadlineOptions<T>): Promise<T>;
export function runWithDeadline<T>(
  op: (signal: AbortSignal) => Promise<T>,
  options: DeadlineOptions<T>,
): Promise<T> {
  const { timeoutMs, scope, what, setting, onLate, onAbandon } = options;
  if (scope.cancelled) return Promise.reject(new ProbeError('cancelled', `${what} cancelled`));
  const controller = op.length > 0 ? new AbortController() : undefined;
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (): boolean => {
      if (settled) return false;
      settled = true;
      disarm();
      scope.unsubscribe(slot, onCancel);
      return true;
    };
    const fail = (error: ProbeError): void => {
      if (!settle()) return;
      controller?.abort(error);
      onAbandon?.();
      reject(error);
    };
    const onCancel = (): void => fail(new ProbeError('cancelled', `${what} cancelled`));
    const disarm = scope.startTimer(timeoutMs, () => fail(deadlineError(what, timeoutMs, setting)));
    const slot = scope.subscribe(onCancel);
    let pending: Promise<T>;
    try {
      pending = controller ? op(controller.signal) : (op as () => Promise<T>)();
    } catch (error) {
      if (settle()) reject(error);
      return;
    }
    pending.then(
      (value) => {
        if (settle()) resolve(value);
        else onLate?.(value);
      },
      (error: unknown) => {
        if (settle()) reject(error);
      },
    );
  });
}

/** The error of an operation cut off by dbprobe's own deadline. */
export function deadlineError(what: string, timeoutMs: number, setting?: string): ProbeError {
  return new ProbeError('timeout', `${what} timed out after ${timeoutMs} ms`, ownTimeoutHint(what, setting));
}

/**
 * The deadline is dbprobe's own, not the server's or the driver's: say so, and which setting to raise
 * (the catalogue's timeout rows read "did not answer in time").
 */
function ownTimeoutHint(what: string, setting: string | undefined): string {
  return `dbprobe's own ${what} timeout cut this off: the server did not answer in time. Check the server, firewalls and the network path, or raise ${setting ?? 'the timeouts in dbprobe.json'} if the server is only slow.`;
}

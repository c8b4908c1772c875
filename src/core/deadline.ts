/**
 * Runs one driver operation under a timeout and the run's cancellation. Built to add as little as
 * possible around a sample: one listener on the run's signal for the whole run (CancelScope), and
 * an AbortController only for operations that take a signal (connects, not queries).
 */
import { ProbeError } from './failure';

/** What a scope wakes without a closure: an operation under a deadline (see Deadline). */
export interface Abandonable {
  abandon(why: 'cancelled' | 'timeout'): void;
}

type Subscriber = (() => void) | Abandonable;

function wake(subscriber: Subscriber): void {
  if (typeof subscriber === 'function') subscriber();
  else subscriber.abandon('cancelled');
}

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
  private readonly subscribers: (Subscriber | undefined)[] = [];
  private readonly free: number[] = [];
  /** One reusable timer (see claimTimer); released timers may still fire, as a no-op. */
  private timer: NodeJS.Timeout | undefined;
  private timerMs = 0;
  private timerOwner: Abandonable | undefined;
  private readonly onAbort = (): void => {
    const all = this.subscribers.filter((s): s is Subscriber => s !== undefined);
    for (const subscriber of all) wake(subscriber);
  };

  constructor(readonly signal: AbortSignal) {
    signal.addEventListener('abort', this.onAbort, { once: true });
  }

  get cancelled(): boolean {
    return this.signal.aborted;
  }

  /** Wakes `subscriber` once when the run is cancelled; answers its slot, for unsubscribe. */
  subscribe(subscriber: Subscriber): number {
    const slot = this.free.pop() ?? this.subscribers.length;
    this.subscribers[slot] = subscriber;
    return slot;
  }

  /** Ends the subscription in `slot` when it is still `subscriber`'s: a second call does nothing. */
  unsubscribe(slot: number, subscriber: Subscriber): void {
    if (this.subscribers[slot] !== subscriber) return;
    this.subscribers[slot] = undefined;
    this.free.push(slot);
  }

  /**
   * Hands the scope's one timer to `owner` for `ms`; false when another operation holds it or it runs
   * for another duration (the caller then arms its own). Consecutive operations with the same timeout
   * reuse one Timeout through refresh(), sparing a timer allocation and list insert/remove per sample.
   */
  claimTimer(ms: number, owner: Abandonable): boolean {
    if (this.timerOwner !== undefined || (this.timer !== undefined && this.timerMs !== ms)) return false;
    this.timerOwner = owner;
    if (this.timer) this.timer.refresh();
    else {
      this.timerMs = ms;
      this.timer = setTimeout(() => {
        const expired = this.timerOwner;
        this.timerOwner = undefined;
        expired?.abandon('timeout');
      }, ms);
    }
    return true;
  }

  /** Gives the timer back; a no-op for an owner that no longer holds it. */
  releaseTimer(owner: Abandonable): void {
    if (this.timerOwner === owner) this.timerOwner = undefined;
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
  const { timeoutMs, scope, what, setting } = options;
  if (scope.cancelled) return Promise.reject(new ProbeError('cancelled', `${what} cancelled`));
  const controller = op.length > 0 ? new AbortController() : undefined;
  return new OpDeadline<T>(scope, timeoutMs, what, setting, op, options, controller).start();
}

/** The parts of a driver connection a query under the deadline uses. */
interface Queryable {
  query(workload: string): Promise<unknown>;
  destroy(): void;
}

/**
 * One query under the run's deadline, timed by `stamp`: `stamp(true)` right before the driver is
 * called (the timer is armed by then), `stamp(false)` first thing in the continuation of the
 * driver's own promise. On timeout or cancellation the connection is destroyed. The sample's hot
 * path: one QueryDeadline, no option object, no closure of its own.
 */
export function queryWithDeadline(
  conn: Queryable,
  workload: string,
  scope: CancelScope,
  timeoutMs: number,
  stamp: (start: boolean) => void,
): Promise<unknown> {
  if (scope.cancelled) return Promise.reject(new ProbeError('cancelled', 'query cancelled'));
  return new QueryDeadline(scope, timeoutMs, conn, workload, stamp).start();
}

const ignore = (): void => undefined;

/**
 * One operation under a timeout and the run's cancellation. It is itself the scope's subscriber
 * and its timer's owner (Abandonable), so arming and disarming allocate nothing: an operation costs
 * this object, its promise and the two callbacks on the driver's promise.
 */
abstract class Deadline<T> implements Abandonable {
  private settled = false;
  private resolve: (value: T) => void = ignore;
  private reject: (error: unknown) => void = ignore;
  /** Its own timer, when the scope's shared one is taken (operations running at once: `load`). */
  private ownTimer: NodeJS.Timeout | undefined;
  /** Its place among the scope's subscribers. */
  private slot = -1;

  constructor(
    private readonly scope: CancelScope,
    private readonly timeoutMs: number,
    private readonly what: string,
    private readonly setting: string | undefined,
  ) {}

  /** Calls the driver. */
  protected abstract begin(): Promise<T>;
  /** The driver's promise fulfilled, settled or not (a query's end stamp). */
  protected ended(): void {}
  /** The deadline passed or the run was cancelled; the promise rejects right after. */
  protected abstract abandoned(error: ProbeError): void;
  /** A value that arrived after the deadline. */
  protected late(_value: T): void {}

  start(): Promise<T> {
    const promise = new Promise<T>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
    });
    if (!this.scope.claimTimer(this.timeoutMs, this))
      this.ownTimer = setTimeout(expire, this.timeoutMs, this);
    this.slot = this.scope.subscribe(this);
    let pending: Promise<T>;
    try {
      pending = this.begin();
    } catch (error) {
      if (this.settle()) this.reject(error);
      return promise;
    }
    pending.then(this.onValue, this.onError);
    return promise;
  }

  abandon(why: 'cancelled' | 'timeout'): void {
    if (!this.settle()) return;
    const error =
      why === 'cancelled'
        ? new ProbeError('cancelled', `${this.what} cancelled`)
        : deadlineError(this.what, this.timeoutMs, this.setting);
    this.abandoned(error);
    this.reject(error);
  }

  private readonly onValue = (value: T): void => {
    this.ended();
    if (this.settle()) this.resolve(value);
    else this.late(value);
  };

  private readonly onError = (error: unknown): void => {
    if (this.settle()) this.reject(error);
  };

  private settle(): boolean {
    if (this.settled) return false;
    this.settled = true;
    if (this.ownTimer) clearTimeout(this.ownTimer);
    else this.scope.releaseTimer(this);
    this.scope.unsubscribe(this.slot, this);
    return true;
  }
}

function expire(deadline: Abandonable): void {
  deadline.abandon('timeout');
}

/** runWithDeadline's operation: any driver call, with its options' hooks and an optional signal. */
class OpDeadline<T> extends Deadline<T> {
  constructor(
    scope: CancelScope,
    timeoutMs: number,
    what: string,
    setting: string | undefined,
    private readonly op: (signal: AbortSignal) => Promise<T>,
    private readonly options: Pick<DeadlineOptions<T>, 'onLate' | 'onAbandon'>,
    private readonly controller: AbortController | undefined,
  ) {
    super(scope, timeoutMs, what, setting);
  }

  protected begin(): Promise<T> {
    return this.controller ? this.op(this.controller.signal) : (this.op as () => Promise<T>)();
  }

  protected abandoned(error: ProbeError): void {
    this.controller?.abort(error);
    this.options.onAbandon?.();
  }

  protected override late(value: T): void {
    this.options.onLate?.(value);
  }
}

class QueryDeadline extends Deadline<unknown> {
  constructor(
    scope: CancelScope,
    timeoutMs: number,
    private readonly conn: Queryable,
    private readonly workload: string,
    private readonly stamp: (start: boolean) => void,
  ) {
    super(scope, timeoutMs, 'query', 'timeouts.queryMs');
  }

  protected begin(): Promise<unknown> {
    this.stamp(true);
    return this.conn.query(this.workload);
  }

  protected override ended(): void {
    this.stamp(false);
  }

  protected abandoned(): void {
    this.conn.destroy();
  }
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

/**
 * One connection's queries, one at a time, under the query timeout and the run's cancellation, for
 * the price of one promise a query. runWithDeadline (deadline.ts) builds a promise, its handlers and,
 * with other queries in flight, a timer of its own for every query: between a third and a half of
 * what the engine added to a pg query (~1.5 µs of ~4 µs CPU on the 2-core testbed, plus the GC of
 * it), where a raw loop adds nothing. A gate serves one query at a time, so it keeps everything per
 * gate: one timer, refreshed per query; answer handlers made once per connection; the executor made
 * once; the clock readings in fields. Two callers hold one: a closed-model worker (load/closedModel.ts)
 * and a warm `subsequent` connection (kinds/subsequentKind.ts). Cancellation reaches a gate through
 * `abandon` (it is an Abandonable a CancelScope can hold), not through a listener per query.
 *
 * Same contract as runWithDeadline: the promise settles at the deadline or on a cancel without
 * waiting for the driver, whose connection is then destroyed; an answer that comes after is ignored.
 * The timed region starts after the timer is armed and ends in the continuation of the driver's own
 * promise.
 */
import type { Clock } from './clock';
import { deadlineError, type Abandonable } from './deadline';
import type { DriverConnection, FirstRowWatch } from './driver';
import { ProbeError } from './failure';

/** The driver's answer handlers for one connection: an answer for another connection is stale. */
interface Answers {
  conn: DriverConnection;
  ok: (answer: unknown) => void;
  failed: (error: unknown) => void;
}

/**
 * What a caller does around each query, without a closure per query: `started` right before the
 * start stamp, `answered` right after the end stamp with the driver's answer (its value is what the
 * query's promise resolves with), `failed` before the promise rejects (an error, a timeout or a cancel).
 */
export interface GateWatch<T> {
  started(): void;
  answered(answer: unknown): T;
  failed(error: unknown): void;
}

export class QueryGate<T = void> implements Abandonable, FirstRowWatch {
  /** The last query's clock readings: its start, and its answer (0n until it answered). */
  startNs = 0n;
  endNs = 0n;
  /** Its first row, on the streamed path (RowStream); 0n on the ordinary one. */
  firstRowNs = 0n;
  private resolve: ((value: T) => void) | undefined;
  private reject: ((error: unknown) => void) | undefined;
  private answers: Answers | undefined;
  private timer: NodeJS.Timeout | undefined;
  /** The query `begin` starts, set by run() just before (so the executor captures nothing). */
  private nextConn: DriverConnection | undefined;
  private nextWorkload = '';
  private nextStreamed = false;
  private readonly onTimeout = (): void => {
    // A timer left armed by an answered query fires into an idle gate: nothing to do.
    this.abandon('timeout');
  };

  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs: number,
    private readonly watch?: GateWatch<T>,
  ) {}

  /**
   * Runs one query on `conn`; resolves when it answered, rejects on its error, timeout or cancel.
   * `streamed`: through the connection's RowStream, stamping the first row as it arrives.
   */
  run(conn: DriverConnection, workload: string, streamed = false): Promise<T> {
    this.nextConn = conn;
    this.nextWorkload = workload;
    this.nextStreamed = streamed;
    return new Promise<T>(this.begin);
  }

  /** Called by the driver's RowStream in its client's event for the first row; later calls change nothing. */
  firstRow(): void {
    if (this.firstRowNs === 0n && this.resolve) this.firstRowNs = this.clock.nowNs();
  }

  /**
   * Ends the query in flight, if any (its connection dropped, its answer ignored): at its timeout, or
   * when the run is cancelled, as runWithDeadline's would.
   */
  abandon(why: 'cancelled' | 'timeout'): void {
    const reject = this.reject;
    const answers = this.answers;
    if (!reject || !answers) return;
    const error =
      why === 'cancelled'
        ? new ProbeError('cancelled', 'query cancelled')
        : deadlineError('query', this.timeoutMs, 'timeouts.queryMs');
    this.settle();
    this.answers = undefined;
    answers.conn.destroy();
    this.watch?.failed(error);
    reject(error);
  }

  /** The connection is done: no timer may keep the thread alive after it. */
  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.answers = undefined;
  }

  /** The promise's executor, made once: arms the timer, stamps the start, calls the driver. */
  private readonly begin = (resolve: (value: T) => void, reject: (error: unknown) => void): void => {
    const conn = this.nextConn;
    this.nextConn = undefined;
    if (!conn) return reject(new Error('QueryGate.run without a connection'));
    this.resolve = resolve;
    this.reject = reject;
    const answers = this.answersFor(conn);
    if (this.timer) this.timer.refresh();
    else this.timer = setTimeout(this.onTimeout, this.timeoutMs);
    this.endNs = 0n;
    this.firstRowNs = 0n;
    // Chosen before the start stamp: the ordinary path's timed window holds the driver call alone.
    const rows = this.nextStreamed ? conn.rows : undefined;
    this.watch?.started();
    this.startNs = this.clock.nowNs();
    try {
      (rows ? rows.query(this.nextWorkload, this) : conn.query(this.nextWorkload)).then(
        answers.ok,
        answers.failed,
      );
    } catch (error) {
      answers.failed(error);
    }
  };

  private answersFor(conn: DriverConnection): Answers {
    if (this.answers?.conn === conn) return this.answers;
    const answers: Answers = {
      conn,
      ok: (answer) => {
        const { resolve, reject } = this;
        if (this.answers !== answers || !resolve || !reject) return;
        this.endNs = this.clock.nowNs();
        this.settle();
        if (!this.watch) return resolve(undefined as T);
        // A throwing watch rejects the query rather than leave its promise pending for ever.
        try {
          resolve(this.watch.answered(answer));
        } catch (error) {
          this.watch.failed(error);
          reject(error);
        }
      },
      failed: (error) => {
        const reject = this.reject;
        if (this.answers !== answers || !reject) return;
        this.settle();
        this.watch?.failed(error);
        reject(error);
      },
    };
    this.answers = answers;
    return answers;
  }

  private settle(): void {
    this.resolve = undefined;
    this.reject = undefined;
  }
}

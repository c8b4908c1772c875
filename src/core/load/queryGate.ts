/**
 * One closed-model worker's queries under the query timeout and the run's cancellation, for the
 * price of one promise a query. runWithDeadline (core/deadline.ts) builds a promise, five closures,
 * an options object and, with other queries in flight, a timer of its own for every query: between
 * a third and a half of what the engine added to a pg query (~1.5 µs of ~4 µs CPU on the 2-core
 * testbed, plus the GC of it), where a raw pg.Pool loop adds nothing. A worker runs one query at a
 * time, so the gate keeps everything per worker: one timer, refreshed per query; handlers made
 * once per connection; the clock readings in fields. Cancellation reaches every gate of the level
 * through one subscription (closedModel.ts), not one per query.
 *
 * Same contract as runWithDeadline: the promise settles at the deadline or on a cancel without
 * waiting for the driver, whose connection is then destroyed; an answer that comes after is ignored.
 * The timed region starts after the timer is armed and ends in the continuation of the driver's own
 * promise.
 */
import type { Clock } from '../clock';
import { deadlineError } from '../deadline';
import type { DriverConnection } from '../driver';
import { ProbeError } from '../failure';

/** The driver's answer handlers for one connection: an answer for another connection is stale. */
interface Answers {
  conn: DriverConnection;
  ok: () => void;
  failed: (error: unknown) => void;
}

export class QueryGate {
  /** The last query's clock readings: its start, and its answer (0n until it answered). */
  startNs = 0n;
  endNs = 0n;
  private resolve: (() => void) | undefined;
  private reject: ((error: unknown) => void) | undefined;
  private answers: Answers | undefined;
  private timer: NodeJS.Timeout | undefined;
  private readonly onTimeout = (): void => {
    // A timer left armed by an answered query fires into an idle gate: nothing to do.
    this.abandon(deadlineError('query', this.timeoutMs, 'timeouts.queryMs'));
  };

  constructor(
    private readonly clock: Clock,
    private readonly timeoutMs: number,
  ) {}

  /** Runs one query on `conn`; resolves when it answered, rejects on its error, timeout or cancel. */
  run(conn: DriverConnection, workload: string): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.resolve = resolve;
      this.reject = reject;
      const answers = this.answersFor(conn);
      if (this.timer) this.timer.refresh();
      else this.timer = setTimeout(this.onTimeout, this.timeoutMs);
      this.endNs = 0n;
      this.startNs = this.clock.nowNs();
      try {
        conn.query(workload).then(answers.ok, answers.failed);
      } catch (error) {
        answers.failed(error);
      }
    });
  }

  /** The run was cancelled: a query in flight ends now, as runWithDeadline's would. */
  cancel(): void {
    this.abandon(new ProbeError('cancelled', 'query cancelled'));
  }

  /** The worker is done: no timer may keep the thread alive after the level. */
  dispose(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    this.answers = undefined;
  }

  private answersFor(conn: DriverConnection): Answers {
    if (this.answers?.conn === conn) return this.answers;
    const answers: Answers = {
      conn,
      ok: () => {
        if (this.answers !== answers || !this.resolve) return;
        this.endNs = this.clock.nowNs();
        const resolve = this.resolve;
        this.settle();
        resolve();
      },
      failed: (error) => {
        if (this.answers !== answers || !this.reject) return;
        const reject = this.reject;
        this.settle();
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

  /** Ends the query in flight, if any, with `error`: its connection is dropped, its answer ignored. */
  private abandon(error: ProbeError): void {
    const reject = this.reject;
    const answers = this.answers;
    if (!reject || !answers) return;
    this.settle();
    this.answers = undefined;
    answers.conn.destroy();
    reject(error);
  }
}

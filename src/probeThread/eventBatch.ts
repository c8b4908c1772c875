/**
 * Holds the probe thread's events (or request lines) and sends them as one message: one message per
 * sample of a fast embedded database would cost the editor's loop more than the events themselves.
 *
 * A batch leaves from `add`, that is right after the engine emitted an event, between two samples,
 * once it is EVENT_BATCH_MS old or EVENT_BATCH_MAX long. Copying hundreds of events into a message
 * holds the thread for a while; sent from a timer, that copy ran whenever the loop was free, which is
 * while a query is out, and was added to the sample under way (the editor's p99 read 2-4 times the
 * CLI's). The timer stays for runs whose events come slowly (a long sample, a cold wait), at twice
 * that age, so in a fast run the batch has always left from `add` before it fires.
 */
import { EVENT_BATCH_MAX, EVENT_BATCH_MS, type FromProbeThread } from '../shared/probeThreadMessages';

/** The part of a MessagePort a batch posts to. */
export interface BatchPort {
  postMessage(message: FromProbeThread): void;
}

export class EventBatch<T> {
  private items: T[] = [];
  private openedAt = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly port: BatchPort,
    private readonly message: (items: T[]) => FromProbeThread,
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** `last`: send at once (the run's last event). */
  add(item: T, last = false): void {
    if (this.items.length === 0) this.openedAt = this.now();
    this.items.push(item);
    if (last || this.items.length >= EVENT_BATCH_MAX || this.now() - this.openedAt >= EVENT_BATCH_MS)
      this.flush();
    else this.timer ??= setTimeout(() => this.flush(), 2 * EVENT_BATCH_MS);
  }

  flush(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.items.length === 0) return;
    const items = this.items;
    this.items = [];
    this.port.postMessage(this.message(items));
  }
}

/**
 * The rows of one target's answer for one kind, as the measurement collects them: the count its
 * first answer held, and for each streamed sample when its first row and its last (the answer's
 * end) arrived.
 */
import { NOT_STREAMED, ONE_ROW, type AnswerRows, type FirstArrival } from '../shared/answerRows';
import { LatencyRecorder } from './stats';

export class RowsRecorder {
  private readonly firstRow = new LatencyRecorder();
  private readonly lastRow = new LatencyRecorder();
  private count: number | undefined;

  /** `first`: what the driver's stream delivers first (Driver.firstArrival). */
  constructor(private readonly first: FirstArrival) {}

  /** The count a target's first answer held (warm-up or measured). */
  counted(rows: number): void {
    this.count = rows;
  }

  /** A measured streamed sample; held like its latency (sampleLoop.ts), flushed by tidy(). */
  record(firstRowUs: number, us: number): void {
    this.firstRow.recordHeld(firstRowUs);
    this.lastRow.recordHeld(us);
  }

  tidy(): void {
    this.firstRow.flushIfFull();
    this.lastRow.flushIfFull();
  }

  /** Undefined when no answer was counted (a kind that does not stream, a driver that cannot count). */
  figure(): AnswerRows | undefined {
    const { count } = this;
    if (count === undefined) return undefined;
    const samples = this.firstRow.moments.count;
    if (count > 1 && samples > 0)
      return {
        count,
        first: this.first,
        firstRowP50Us: this.firstRow.summary().p50Us,
        lastRowP50Us: this.lastRow.summary().p50Us,
        samples,
      };
    return { count, note: count > 1 ? NOT_STREAMED : ONE_ROW };
  }
}

/** Records latencies for one target and kind, and summarizes them. */
import { tooFewFor } from '../shared/percentileSupport';
import type { LatencyStats } from '../shared/result';
import {
  addToMoments,
  emptyMoments,
  newHistogram,
  valuesAtPercentiles,
  type Histogram,
  type Moments,
} from './histogram';

const REPORTED_PERCENTILES = [50, 90, 95, 99, 99.9];

/** Values wait here and enter the histogram in batches, off the path between two samples. */
const BATCH = 1024;
/** Held values (recordHeld) flush at this many even if nobody asks: memory stays bounded. */
const HELD_CAP = 16 * BATCH;

export class LatencyRecorder {
  private readonly hdr: Histogram = newHistogram();
  private readonly pending: number[] = [];
  readonly moments: Moments = emptyMoments();
  errors = 0;

  /** The histogram with every value recorded so far. */
  get histogram(): Histogram {
    this.flush();
    return this.hdr;
  }

  record(us: number): void {
    this.add(us);
    if (this.pending.length >= BATCH) this.flush();
  }

  /**
   * Records without entering the batch into the histogram (a flush of 1,024 values takes tens of
   * µs): for a caller whose next answer may be on its way (sampleLoop.ts), which calls flushIfFull()
   * once it is in.
   */
  recordHeld(us: number): void {
    this.add(us);
    if (this.pending.length >= HELD_CAP) this.flush();
  }

  /** Enters a full batch into the histogram (see recordHeld). */
  flushIfFull(): void {
    if (this.pending.length >= BATCH) this.flush();
  }

  private add(us: number): void {
    // A sub-microsecond answer still took time; the histogram's floor is 1 µs.
    const value = Math.max(1, Math.round(us));
    // Recording into the packed histogram costs ~0.4 µs; a gap that long between samples lets an idle
    // CPU nap deeper and shows up as latency (see the overhead bench), so it is batched.
    this.pending.push(value);
    addToMoments(this.moments, value);
  }

  private flush(): void {
    for (const value of this.pending) this.hdr.recordValue(value);
    this.pending.length = 0;
  }

  recordError(): void {
    this.errors += 1;
  }

  summary(): LatencyStats {
    return summarize(this.histogram, this.moments, this.errors);
  }
}

export function summarize(histogram: Histogram, moments: Moments, errors: number): LatencyStats {
  const count = moments.count;
  const total = count + errors;
  // A bucket's highest equivalent value can sit above the true maximum: never report p99 > max.
  const [p50 = 0, p90 = 0, p95 = 0, p99 = 0, p999 = 0] =
    count === 0 ? [] : valuesAtPercentiles(histogram, REPORTED_PERCENTILES);
  const at = (value: number) => Math.min(value, moments.max);
  return {
    count,
    errors,
    errorRate: total === 0 ? 0 : errors / total,
    minUs: count === 0 ? 0 : moments.min,
    meanUs: round3(moments.mean),
    stddevUs: round3(count < 2 ? 0 : Math.sqrt(moments.m2 / (count - 1))),
    p50Us: count === 0 ? 0 : at(p50),
    p90Us: count === 0 ? 0 : at(p90),
    p95Us: count === 0 ? 0 : at(p95),
    p99Us: count === 0 ? 0 : at(p99),
    p999Us: count === 0 ? 0 : at(p999),
    maxUs: count === 0 ? 0 : moments.max,
    ...(count > 0 && tooFewFor(count).length > 0 ? { nTooSmall: tooFewFor(count) } : {}),
  };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

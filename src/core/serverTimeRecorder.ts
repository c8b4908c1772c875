/**
 * The database's own time of one target and kind, as the measurement collects it: per-sample
 * figures read from each answer, or one per-run reading, or the note that says why there is none.
 */
import { NOT_GIVEN, type ServerTime } from '../shared/serverTime';
import type { ServerTimeSupport } from './driver';
import { LatencyRecorder } from './stats';

export class ServerTimeRecorder {
  private readonly perSample = new LatencyRecorder();
  private reading: ServerTime | undefined;

  /** `support`: the driver's; absent means the server does not say. */
  constructor(private readonly support: ServerTimeSupport | undefined) {}

  /** A measured sample's figure; held like its latency (sampleLoop.ts), flushed by tidy(). */
  record(serverUs: number | undefined): void {
    if (serverUs !== undefined) this.perSample.recordHeld(serverUs);
  }

  tidy(): void {
    this.perSample.flushIfFull();
  }

  /** The per-run figure (or the note of a refused source), when the engine read one. */
  setReading(reading: ServerTime): void {
    this.reading = reading;
  }

  figure(): ServerTime {
    const count = this.perSample.moments.count;
    if (count > 0 && this.support?.per === 'sample')
      return {
        p50Us: this.perSample.summary().p50Us,
        source: this.support.source,
        samples: count,
        figure: 'p50',
      };
    if (this.reading) return this.reading;
    if (this.support?.per === 'sample') return { note: this.support.absent, source: this.support.source };
    return { note: NOT_GIVEN };
  }
}

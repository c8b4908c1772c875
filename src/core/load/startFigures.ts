/** Start-time bookkeeping shared by the open model and the request schedule. */
import type { StartFigures } from '../../shared/loadResult';
import { encodeHistogram } from '../histogram';
import { LatencyRecorder } from '../stats';

/** A start issued later than this after its intended time counts as late. */
export const LATE_AFTER_US = 1_000;

export class StartTally {
  asked = 0;
  started = 0;
  late = 0;
  dropped = 0;
  private readonly lateness = new LatencyRecorder();

  /** One start issued `latenessUs` after its intended time. */
  issued(latenessUs: number): void {
    this.started += 1;
    if (latenessUs > LATE_AFTER_US) this.late += 1;
    this.lateness.record(Math.max(1, latenessUs));
  }

  /** `withHistogram`: a fan-out's (or threads') share, whose places merge their lateness exactly. */
  figures(askedRate: number, durationUs: number, withHistogram = false): StartFigures {
    const s = this.lateness.summary();
    return {
      asked: this.asked,
      started: this.started,
      late: this.late,
      lateAfterUs: LATE_AFTER_US,
      dropped: this.dropped,
      askedRate,
      achievedRate: durationUs > 0 ? round3((this.started * 1e6) / durationUs) : 0,
      latenessP50Us: s.p50Us,
      latenessP99Us: s.p99Us,
      latenessMaxUs: s.maxUs,
      ...(withHistogram
        ? { latenessHistogram: encodeHistogram(this.lateness.histogram, this.lateness.moments) }
        : {}),
    };
  }
}

export function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

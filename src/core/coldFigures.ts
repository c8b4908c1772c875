/** The cold kind's own figures: the hot connect after each cold sample, and cold start = cold - hot. */
import type { ColdMode } from '../shared/plan';
import type { ColdFigures, ColdPair, SignedStats } from '../shared/result';
import { LatencyRecorder } from './stats';

export class ColdRecorder {
  private readonly hot = new LatencyRecorder();
  private readonly hotConnect = new LatencyRecorder();
  /** Cold samples are few (each costs a suspend), so the differences are kept and sorted at the end. */
  private readonly differences: number[] = [];
  private readonly pairs: ColdPair[] = [];

  constructor(
    private readonly mode: ColdMode,
    private readonly cap: number,
  ) {}

  record(
    atUs: number,
    coldUs: number,
    coldConnectUs: number | undefined,
    hot: { waitMs: number; hotUs: number; hotConnectUs?: number },
  ): void {
    this.hot.record(hot.hotUs);
    if (hot.hotConnectUs !== undefined) this.hotConnect.record(hot.hotConnectUs);
    if (this.differences.length >= this.cap) return;
    this.differences.push(Math.round(coldUs) - Math.round(hot.hotUs));
    this.pairs.push({
      atUs,
      coldUs: Math.round(coldUs),
      hotUs: Math.round(hot.hotUs),
      ...(coldConnectUs !== undefined ? { coldConnectUs } : {}),
      ...(hot.hotConnectUs !== undefined ? { hotConnectUs: hot.hotConnectUs } : {}),
      waitMs: hot.waitMs,
    });
  }

  figures(): ColdFigures {
    return {
      mode: this.mode,
      hot: this.hot.summary(),
      hotConnect: this.hotConnect.summary(),
      coldStart: signedStats(this.differences),
      pairs: [...this.pairs],
    };
  }
}

/** Exact order statistics (nearest rank) over a small set that may hold negative values. */
export function signedStats(values: readonly number[]): SignedStats {
  const count = values.length;
  if (count === 0) return { count: 0, minUs: 0, meanUs: 0, stddevUs: 0, p50Us: 0, p99Us: 0, maxUs: 0 };
  const sorted = [...values].sort((a, b) => a - b);
  const mean = sorted.reduce((sum, v) => sum + v, 0) / count;
  const variance = count < 2 ? 0 : sorted.reduce((sum, v) => sum + (v - mean) ** 2, 0) / (count - 1);
  const rank = (p: number) => sorted[Math.min(count - 1, Math.max(0, Math.ceil((p / 100) * count) - 1))] ?? 0;
  return {
    count,
    minUs: sorted[0] ?? 0,
    meanUs: round3(mean),
    stddevUs: round3(Math.sqrt(variance)),
    p50Us: rank(50),
    p99Us: rank(99),
    maxUs: sorted[count - 1] ?? 0,
  };
}

function round3(value: number): number {
  return Math.round(value * 1000) / 1000;
}

/** Per-sample time series for the panel, thinned so a 10k-sample run still draws at once. */
import type { ErrorClass } from '../../shared/errors';
import type { SampleFailure, SampleRecord, SampleSuccess } from '../../shared/result';

export interface Series {
  points: [number, number][];
  errors: [number, ErrorClass][];
  thinnedFrom?: number;
}

export function timeSeries(samples: readonly SampleRecord[], maxPoints = 2000): Series {
  const ok = samples.filter((s): s is SampleSuccess => s.us !== undefined);
  // Every n-th point keeps the shape (and the spikes' positions) without sending megabytes.
  const step = Math.max(1, Math.ceil(ok.length / maxPoints));
  const points: [number, number][] = [];
  for (let i = 0; i < ok.length; i += step) {
    const s = ok[i];
    if (s) points.push([round(s.atUs / 1e6, 6), round(s.us / 1000, 3)]);
  }
  const errors: [number, ErrorClass][] = samples
    .filter((s): s is SampleFailure => s.error !== undefined)
    .slice(0, maxPoints)
    .map((s) => [round(s.atUs / 1e6, 6), s.error]);
  return { points, errors, ...(step > 1 ? { thinnedFrom: ok.length } : {}) };
}

function round(value: number, digits: number): number {
  const f = 10 ** digits;
  return Math.round(value * f) / f;
}

/**
 * A kind's wire figures (issue 23) from its measured samples: the median of each count, the most
 * frequent TLS version, cipher and ALPN, and the first reason given for each figure not counted.
 */
import type { MeasurementWire, SampleWire } from '../shared/result';

const COUNTS = ['roundTrips', 'tcpHandshakes', 'bytesSent', 'bytesReceived', 'clientCpuUs'] as const;
const NAMES = ['tlsVersion', 'tlsCipher', 'alpn'] as const;
/** Samples kept per count: a median over this many is as good as over all, and memory stays bounded. */
const KEPT = 100_000;

export class WireRecorder {
  private readonly counts = new Map<(typeof COUNTS)[number], number[]>();
  private readonly names = new Map<(typeof NAMES)[number], Map<string, number>>();
  private readonly unmeasured: NonNullable<MeasurementWire['unmeasured']> = {};

  record(wire: SampleWire | undefined, unmeasured: MeasurementWire['unmeasured']): void {
    // Most samples give no reason: no entries array (nor `{}`) per sample.
    if (unmeasured)
      for (const [figure, reason] of Object.entries(unmeasured))
        this.unmeasured[figure as keyof typeof this.unmeasured] ??= reason;
    if (!wire) return;
    for (const key of COUNTS) {
      const value = wire[key];
      if (value === undefined) continue;
      const list = this.counts.get(key) ?? [];
      if (list.length < KEPT) list.push(value);
      this.counts.set(key, list);
    }
    for (const key of NAMES) {
      const value = wire[key];
      if (value === undefined) continue;
      const seen = this.names.get(key) ?? new Map<string, number>();
      seen.set(value, (seen.get(value) ?? 0) + 1);
      this.names.set(key, seen);
    }
  }

  /** `{ wire }` for the measurement, or nothing when no sample counted anything. */
  figures(): { wire?: MeasurementWire } {
    const wire: MeasurementWire = {};
    for (const key of COUNTS) {
      const list = this.counts.get(key);
      if (list && list.length > 0) wire[key] = median(list);
    }
    for (const key of NAMES) {
      const seen = this.names.get(key);
      if (seen && seen.size > 0) wire[key] = mostFrequent(seen);
    }
    // A reason stands only where no sample saw the figure (the client CPU's is a note on a figure).
    const seen: Record<string, boolean> = {
      roundTrips: wire.roundTrips !== undefined,
      bytes: wire.bytesSent !== undefined,
      tls: wire.tlsVersion !== undefined,
      alpn: wire.alpn !== undefined,
      clientCpu: false,
    };
    const reasons = Object.entries(this.unmeasured).filter(([figure]) => !seen[figure]);
    if (reasons.length > 0) wire.unmeasured = Object.fromEntries(reasons);
    return Object.keys(wire).length > 0 ? { wire } : {};
  }
}

/** The lower median, so a count stays a count (an integer seen in some sample). */
export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;
}

function mostFrequent(seen: Map<string, number>): string {
  let best = '';
  let bestCount = -1;
  for (const [value, count] of seen) {
    if (count > bestCount) {
      best = value;
      bestCount = count;
    }
  }
  return best;
}

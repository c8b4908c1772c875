/**
 * A kind's wire figures from its measured samples: the median of each count, the most
 * frequent TLS version, cipher and ALPN, and the first reason given for each figure not counted.
 */
import type { MeasurementWire, SampleWire } from '../shared/result';

const COUNTS = ['roundTrips', 'tcpHandshakes', 'bytesSent', 'bytesReceived', 'clientCpuUs'] as const;
const NAMES = ['tlsVersion', 'tlsCipher', 'alpn'] as const;
/** Samples kept per count: a median over this many is as good as over all, and memory stays bounded. */
const KEPT = 100_000;

/**
 * One count's values as a tally (value -> samples): counts repeat (a warm query's turns and bytes are
 * the same sample after sample), so recording one allocates nothing once its value was seen, where a
 * list grew by a number a sample. The median is the lower median of the first KEPT values, as a
 * sorted list of them gives.
 */
class Tally {
  total = 0;
  readonly seen = new Map<number, number>();

  add(value: number): void {
    if (this.total >= KEPT) return;
    this.total += 1;
    this.seen.set(value, (this.seen.get(value) ?? 0) + 1);
  }

  /** The lower median, so a count stays a count (an integer seen in some sample). */
  median(): number {
    const target = Math.floor((this.total - 1) / 2);
    let below = 0;
    for (const value of [...this.seen.keys()].sort((a, b) => a - b)) {
      below += this.seen.get(value) ?? 0;
      if (below > target) return value;
    }
    return 0;
  }
}

export class WireRecorder {
  private readonly counts = new Map<(typeof COUNTS)[number], Tally>();
  private readonly names = new Map<(typeof NAMES)[number], Map<string, number>>();
  private readonly unmeasured: NonNullable<MeasurementWire['unmeasured']> = {};

  record(wire: SampleWire | undefined, unmeasured: MeasurementWire['unmeasured']): void {
    // Most samples give no reason: no entries array (nor `{}`) per sample.
    if (unmeasured)
      for (const [figure, reason] of Object.entries(unmeasured))
        this.unmeasured[figure as keyof typeof this.unmeasured] ??= reason;
    if (!wire) return;
    // Indexed loops: no iterator per sample.
    for (let i = 0; i < COUNTS.length; i++) {
      const key = COUNTS[i]!;
      const value = wire[key];
      if (value === undefined) continue;
      let tally = this.counts.get(key);
      if (!tally) this.counts.set(key, (tally = new Tally()));
      tally.add(value);
    }
    for (let i = 0; i < NAMES.length; i++) {
      const key = NAMES[i]!;
      const value = wire[key];
      if (value === undefined) continue;
      let seen = this.names.get(key);
      if (!seen) this.names.set(key, (seen = new Map<string, number>()));
      seen.set(value, (seen.get(value) ?? 0) + 1);
    }
  }

  /** `{ wire }` for the measurement, or nothing when no sample counted anything. */
  figures(): { wire?: MeasurementWire } {
    const wire: MeasurementWire = {};
    for (const key of COUNTS) {
      const tally = this.counts.get(key);
      if (tally && tally.total > 0) wire[key] = tally.median();
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

/** Hand-built results whose measurements carry wire counts and TCP phases, for the projection's pure tests. */
import type { MeasurementWire, RunResult } from '../../src/shared/result';
import { fakeResult, stats } from './extensionRunResult';

export interface Side {
  name: string;
  /** Initial samples (µs) and their counted turns; the p50 is the samples' nearest-rank median. */
  initial?: { samplesUs: number[]; wire?: MeasurementWire };
  subsequent?: { samplesUs: number[]; wire?: MeasurementWire };
  /** TCP phase of every initial sample; absent: TCP not seen. */
  tcpUs?: number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.ceil(values.length / 2) - 1]!;

/** A hand-built result whose measurements carry the wire counts and TCP phases a projection reads. */
export function projectedRun(sides: Side[]): RunResult {
  const result = fakeResult(
    sides.map((s) => ({ name: s.name, driver: 'pg', transport: 'tcp' })),
    sides.flatMap((s) =>
      (['initial', 'subsequent'] as const).flatMap((kind) => {
        const k = s[kind];
        return k ? [{ target: s.name, kind, p50Us: median(k.samplesUs), samplesUs: k.samplesUs }] : [];
      }),
    ),
  );
  for (const m of result.measurements) {
    const side = sides.find((s) => s.name === m.target)!;
    const k = side[m.kind as 'initial' | 'subsequent']!;
    if (k.wire) m.wire = k.wire;
    m.stats.minUs = Math.min(...k.samplesUs);
    if (m.kind === 'initial' && side.tcpUs !== undefined) {
      m.samples.values = m.samples.values.map((s) => (s.us === undefined ? s : { ...s, tcpUs: side.tcpUs! }));
      m.phases = { connect: stats(0), firstQuery: stats(0), tcp: stats(side.tcpUs) };
    }
  }
  return result;
}

export const flat = (us: number, n = 40) => Array.from({ length: n }, () => us);
/** n samples spread evenly over [us - width, us + width], median us. */
export const around = (us: number, width: number, n = 41) =>
  Array.from({ length: n }, (_, i) => Math.round(us - width + (2 * width * i) / (n - 1)));

export const PG: Side = {
  name: 'pg',
  tcpUs: 100,
  initial: { samplesUs: flat(2_000), wire: { roundTrips: 4, tcpHandshakes: 1, bytesReceived: 900 } },
  subsequent: { samplesUs: flat(300), wire: { roundTrips: 1, tcpHandshakes: 0 } },
};

/**
 * Where a new connection spends its time, and how much of a target's latency is distance: the one
 * computation behind the panel's phases chart and table and the Markdown phases table.
 *
 * The network floor of a target is the TCP phase p50 of its `initial` samples: a TCP connect is one
 * round trip on the wire with no database work in it, read from the driver's own socket, so no extra
 * connection is opened to measure it (bare connects to database ports pollute server logs). A figure
 * "over the floor" is its p50 minus the floor: what the protocol and the database add beyond distance.
 *
 * Pure and free of Node: the webview bundles the same copy.
 */
import type { ProbeKind } from './plan';
import { CONNECT_STEPS, type ConnectStep, type LatencyStats, type Measurement } from './result';

/** The steps of a new connection and its first query, in the order they happen. */
export const PHASE_STEPS = [...CONNECT_STEPS, 'firstQuery'] as const;
export type PhaseStep = (typeof PHASE_STEPS)[number];

export const PHASE_LABELS: Record<PhaseStep, string> = {
  dns: 'DNS',
  tcp: 'TCP',
  tls: 'TLS',
  handshake: 'handshake',
  firstQuery: 'first query',
};

/**
 * One step of one target. `p50Us` when it was measured; `unmeasured` (why) when it happened but
 * could not be seen, which a view names and never draws as zero; neither when it did not happen
 * (an IP address needs no DNS, a plaintext connection no TLS) or the result does not split it.
 */
export interface StepFigure {
  step: PhaseStep;
  p50Us?: number;
  unmeasured?: string;
}

export interface ConnectAnatomy {
  target: string;
  /** The kind whose samples were split: `initial`. */
  kind: ProbeKind;
  /** Successful samples. */
  count: number;
  /** p50 of the whole sample (connect + first query). */
  totalP50Us: number;
  connectP50Us: number;
  /** Every step of PHASE_STEPS, in order. */
  steps: StepFigure[];
  /** The TCP p50: the target's network floor (absent when TCP could not be seen). */
  floorUs?: number;
  /** TLS handshakes on the samples' own sockets, when the driver reported them. */
  tlsHandshakes?: { full: number; resumed: number };
}

/** One kind's p50 of a target, and the same over the target's floor. */
export interface OverFloorFigure {
  kind: ProbeKind;
  p50Us: number;
  /** p50 minus the floor; negative when the kind is faster than one TCP round trip. */
  overUs: number;
}

export interface TargetFloor {
  target: string;
  floorUs: number;
  kinds: OverFloorFigure[];
}

/** The kinds with one latency per sample, whose p50 can be set against the floor. */
export const PER_SAMPLE_KINDS: readonly ProbeKind[] = ['initial', 'subsequent', 'cold'];

const p50Of = (stats: LatencyStats | undefined): number | undefined =>
  stats && stats.count > 0 ? stats.p50Us : undefined;

function stepStats(phases: NonNullable<Measurement['phases']>, step: PhaseStep): LatencyStats | undefined {
  return step === 'firstQuery' ? phases.firstQuery : phases[step];
}

function unmeasuredReason(phases: NonNullable<Measurement['phases']>, step: PhaseStep): string | undefined {
  return step === 'firstQuery' ? undefined : phases.unmeasured?.[step as ConnectStep];
}

/** The connect anatomy of one measurement, or undefined when it has no split (or no success). */
export function connectAnatomy(m: Measurement): ConnectAnatomy | undefined {
  const phases = m.phases;
  if (!phases || m.stats.count === 0 || m.kind !== 'initial') return undefined;
  const steps = PHASE_STEPS.map((step): StepFigure => {
    const p50Us = p50Of(stepStats(phases, step));
    if (p50Us !== undefined) return { step, p50Us };
    const reason = unmeasuredReason(phases, step);
    return reason ? { step, unmeasured: reason } : { step };
  });
  const floorUs = p50Of(phases.tcp);
  return {
    target: m.target,
    kind: m.kind,
    count: m.stats.count,
    totalP50Us: m.stats.p50Us,
    connectP50Us: phases.connect.p50Us,
    steps,
    floorUs,
    tlsHandshakes: phases.tlsHandshakes,
  };
}

/** Every target's connect anatomy, in the result's order. */
export function connectAnatomies(measurements: readonly Measurement[]): ConnectAnatomy[] {
  return measurements.flatMap((m) => connectAnatomy(m) ?? []);
}

/** The network floor of a target: its `initial` TCP p50, when TCP was seen on its samples. */
export function networkFloor(measurements: readonly Measurement[], target: string): number | undefined {
  const initial = measurements.find((m) => m.target === target && m.kind === 'initial');
  return p50Of(initial?.phases?.tcp);
}

/** Per target with a floor: each per-sample kind's p50 and the same over the floor. */
export function targetFloors(measurements: readonly Measurement[]): TargetFloor[] {
  const targets = [...new Set(measurements.map((m) => m.target))];
  return targets.flatMap((target): TargetFloor[] => {
    const floorUs = networkFloor(measurements, target);
    if (floorUs === undefined) return [];
    const kinds = PER_SAMPLE_KINDS.flatMap((kind): OverFloorFigure[] => {
      const m = measurements.find((x) => x.target === target && x.kind === kind);
      return m && m.stats.count > 0 ? [{ kind, p50Us: m.stats.p50Us, overUs: m.stats.p50Us - floorUs }] : [];
    });
    return [{ target, floorUs, kinds }];
  });
}

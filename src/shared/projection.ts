/**
 * Projection to the app's distance: what a target's p50 would be from a place RTT away,
 * from one run here. Latency is distance times turns plus local work (DESIGN rule 12):
 *
 *   turns     = roundTrips + tcpHandshakes   (counted on the driver's own socket: Measurement.wire)
 *   local     = p50 - turns x floor          (floor: this run's measured RTT to the target, below)
 *   p50 at r  = local + turns x r
 *
 * The TCP handshake is in both lines, so the projection at the measured floor gives back the measured
 * p50; `initial` pays one handshake, `subsequent` none. A request of k queries on one new connection
 * is initial + (k - 1) x subsequent at the same r, as the Expected latency table models it.
 *
 * The floor is the target's `initial` TCP phase p50 (a connect is one round trip with no database
 * work in it: src/shared/connectPhases.ts), unless its fastest `subsequent` query per round trip is
 * smaller (floorOf says why); a target whose TCP could not be seen has only that one, an upper bound
 * of the RTT (the fastest query still holds some server work), which makes the local part, and so
 * every projection beyond the floor, a little low; the result says which floor it used.
 *
 * Derived on read like src/shared/differences.ts (every stored result gets it, no schema change).
 * Pure and free of Node: the webview bundles the same copy. One function, `projectAt`, gives every
 * projected figure the Markdown, the panel, the CodeLens and the heartbeat show.
 */
import { networkFloor } from './connectPhases';
import type { Measurement, RunResult } from './result';
import { DEFAULT_PROJECTION_RTTS_MS } from './projectionRtts';

/** The kinds a projection covers: one latency per sample, and turns counted per sample. */
export const PROJECTED_KINDS = ['initial', 'subsequent'] as const;
export type ProjectedKind = (typeof PROJECTED_KINDS)[number];

/**
 * A TCP initial congestion window: 10 segments of 1,460 bytes (RFC 6928). A response larger than
 * this cannot arrive in one flight on a new connection, so it costs more turns at a distance than on
 * loopback, where the window never limits: its projection is a lower bound.
 */
export const INITIAL_CWND_BYTES = 14_600;

/** Requests of 1..this many queries, as the Markdown's Expected latency table shows. */
export const DEFAULT_PROJECTED_QUERIES = 5;

export type FloorSource = 'tcp' | 'subsequent';

export interface ProjectionFloor {
  us: number;
  source: FloorSource;
}

/** One kind of one target, with everything its projection is drawn from. */
export interface KindProjection {
  kind: ProjectedKind;
  /** Measured here. */
  p50Us: number;
  roundTrips: number;
  tcpHandshakes: number;
  /** roundTrips + tcpHandshakes: what each unit of RTT is multiplied by. */
  turns: number;
  /** p50 - turns x floor: the part distance does not change. */
  localUs: number;
  /** Set when the kind's p50 received bytes exceed INITIAL_CWND_BYTES: the projection is a lower bound. */
  lowerBound?: { bytesReceived: number };
}

export interface TargetProjection {
  target: string;
  floor: ProjectionFloor;
  /** Present for each kind the run measured with counted turns. */
  initial?: KindProjection;
  subsequent?: KindProjection;
  /** atUs[i]: the kind's projected p50 at rttsMs[i] (absent with the kind). */
  initialAtUs?: number[];
  subsequentAtUs?: number[];
  /** requestsAtUs[k - 1][i]: a request of k queries on one new connection at rttsMs[i] (needs both kinds). */
  requestsAtUs?: number[][];
}

export interface ProjectionSet {
  rttsMs: number[];
  maxQueries: number;
  targets: TargetProjection[];
  /** Targets (or kinds of them) that could not be projected, with why. */
  skipped: { target: string; kind?: ProjectedKind; reason: string }[];
}

export interface ProjectionOptions {
  rttsMs?: readonly number[];
  maxQueries?: number;
}

/** The projected p50 of a kind at an RTT in microseconds: the one formula every view uses. */
export function projectAt(kind: Pick<KindProjection, 'localUs' | 'turns'>, rttUs: number): number {
  return Math.round(kind.localUs + kind.turns * rttUs);
}

/** A request of `queries` queries on one new connection at an RTT: initial + (queries - 1) x subsequent. */
export function projectRequestAt(
  initial: Pick<KindProjection, 'localUs' | 'turns'>,
  subsequent: Pick<KindProjection, 'localUs' | 'turns'>,
  queries: number,
  rttUs: number,
): number {
  return projectAt(initial, rttUs) + (queries - 1) * projectAt(subsequent, rttUs);
}

/** Every target of a run, projected at the RTTs asked for (defaults: DEFAULT_PROJECTION_RTTS_MS). */
export function projectRun(result: RunResult, options: ProjectionOptions = {}): ProjectionSet {
  const rttsMs = [...(options.rttsMs ?? DEFAULT_PROJECTION_RTTS_MS)];
  const maxQueries = Math.max(1, options.maxQueries ?? DEFAULT_PROJECTED_QUERIES);
  const targets: TargetProjection[] = [];
  const skipped: ProjectionSet['skipped'] = [];
  for (const target of result.targets) {
    const projected = projectTarget(result.measurements, target.name);
    if ('reason' in projected) {
      skipped.push({ target: target.name, reason: projected.reason });
      continue;
    }
    for (const s of projected.skipped) skipped.push({ target: target.name, ...s });
    const { initial, subsequent, floor } = projected;
    if (!initial && !subsequent) continue;
    const at = (k: KindProjection) => rttsMs.map((r) => projectAt(k, r * 1000));
    targets.push({
      target: target.name,
      floor,
      ...(initial ? { initial, initialAtUs: at(initial) } : {}),
      ...(subsequent ? { subsequent, subsequentAtUs: at(subsequent) } : {}),
      ...(initial && subsequent
        ? {
            requestsAtUs: Array.from({ length: maxQueries }, (_, k) =>
              rttsMs.map((r) => projectRequestAt(initial, subsequent, k + 1, r * 1000)),
            ),
          }
        : {}),
    });
  }
  return { rttsMs, maxQueries, targets, skipped };
}

export interface ProjectedParts {
  floor: ProjectionFloor;
  initial?: KindProjection;
  subsequent?: KindProjection;
  skipped: { kind: ProjectedKind; reason: string }[];
}

/** One target's floor and kinds, or why it has none. */
export function projectTarget(
  measurements: readonly Measurement[],
  target: string,
): ProjectedParts | { reason: string } {
  const own = (kind: ProjectedKind) =>
    measurements.find((m) => m.target === target && m.kind === kind && m.stats.count > 0);
  const floor = floorOf(measurements, target);
  if (!floor)
    return {
      reason:
        'no measured RTT to it: TCP was not seen on its new connections and it has no subsequent kind with counted round trips',
    };
  const parts: ProjectedParts = { floor, skipped: [] };
  for (const kind of PROJECTED_KINDS) {
    const m = own(kind);
    if (!m) continue;
    const roundTrips = m.wire?.roundTrips;
    if (roundTrips === undefined) {
      const why = m.wire?.unmeasured?.roundTrips;
      parts.skipped.push({
        kind,
        reason: why ? `round trips not counted: ${why}` : 'round trips not counted in this result',
      });
      continue;
    }
    parts[kind] = kindProjection(m, kind, roundTrips, floor.us);
  }
  return parts;
}

function kindProjection(
  m: Measurement,
  kind: ProjectedKind,
  roundTrips: number,
  floorUs: number,
): KindProjection {
  const tcpHandshakes = m.wire?.tcpHandshakes ?? 0;
  const turns = roundTrips + tcpHandshakes;
  const bytesReceived = m.wire?.bytesReceived;
  return {
    kind,
    p50Us: m.stats.p50Us,
    roundTrips,
    tcpHandshakes,
    turns,
    localUs: m.stats.p50Us - turns * floorUs,
    ...(bytesReceived !== undefined && bytesReceived > INITIAL_CWND_BYTES
      ? { lowerBound: { bytesReceived } }
      : {}),
  };
}

/**
 * The measured RTT of a target's path: the smaller of its `initial` TCP phase p50 and its fastest
 * `subsequent` query per round trip. Both bound the RTT from above; on a real network the TCP connect
 * is the tighter one, but on a busy machine or in the editor's probe thread a connect can wait for
 * the event loop longer than a whole warm query takes (a 2.2 ms TCP p50 beside a 0.17 ms query was
 * seen), and a floor above a kind's p50 would make its local part, and its projections, negative.
 */
export function floorOf(measurements: readonly Measurement[], target: string): ProjectionFloor | undefined {
  const tcp = networkFloor(measurements, target);
  const subsequent = measurements.find((m) => m.target === target && m.kind === 'subsequent');
  const turns = subsequent?.wire?.roundTrips;
  const perTurn =
    subsequent && subsequent.stats.count > 0 && turns
      ? Math.round(subsequent.stats.minUs / turns)
      : undefined;
  if (tcp !== undefined && (perTurn === undefined || tcp <= perTurn)) return { us: tcp, source: 'tcp' };
  return perTurn === undefined ? undefined : { us: perTurn, source: 'subsequent' };
}

/** The floor's source in words, for the tables and the panel. */
export const FLOOR_SOURCE_TEXT: Record<FloorSource, string> = {
  tcp: 'TCP connect p50 of its new connections',
  subsequent:
    'fastest subsequent query per round trip (an upper bound of the RTT; below its TCP connect p50, or no TCP seen)',
};

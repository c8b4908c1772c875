/**
 * Where a query's time goes (DESIGN rule 15): for each target and kind,
 *
 *   p50 = database + distance + client + rest
 *
 * database: the server's own time for the workload (Measurement.serverTime), never guessed;
 * distance: the counted turns (round trips + TCP handshakes) x the measured network floor, as the
 *   projection prices them (projection.ts);
 * client:   the probing thread's CPU during a connect (`initial`; a warm query has no CPU figure);
 * rest:     what is left: the protocol's and driver's own waits, TLS records, queueing, and a part
 *   that was not given (its time is then in the rest, and the split says so).
 *
 * Projected to an app RTT only the distance grows: turns x RTT in place of turns x floor, the sum
 * then equal to the projection's p50 at that RTT. Pure and free of Node: the panel bundles it.
 */
import {
  projectAt,
  projectTarget,
  type ProjectedKind,
  type ProjectionFloor,
  PROJECTED_KINDS,
} from './projection';
import type { Measurement } from './result';
import { isServerTimeGiven, SERVER_TIME_SOURCE_TEXT, type ServerTimeSource } from './serverTime';

export const SPLIT_PARTS = ['database', 'distance', 'client', 'rest'] as const;
export type SplitPart = (typeof SPLIT_PARTS)[number];

export const SPLIT_PART_LABELS: Record<SplitPart, string> = {
  database: 'database',
  distance: 'distance',
  client: 'client',
  rest: 'rest',
};

/**
 * One colour per part, the same in every chart that draws a split: the theme's own chart colours,
 * the rest in the muted text colour (it is what is left, not a cause).
 */
export const SPLIT_PART_COLOURS: Record<SplitPart, string> = {
  database: 'var(--vscode-charts-purple)',
  distance: 'var(--vscode-charts-blue)',
  client: 'var(--vscode-charts-orange)',
  rest: 'var(--vscode-descriptionForeground)',
};

export interface QuerySplit {
  target: string;
  kind: ProjectedKind;
  /** The p50 the parts add up to: measured here, or projected to `rttUs`. */
  p50Us: number;
  turns: number;
  floor: ProjectionFloor;
  /** Set when projected: the app's RTT that prices each turn in place of the floor. */
  rttUs?: number;
  /** Each part in µs; a part the run could not give is absent (`why` says why) and sits in `rest`. */
  parts: Partial<Record<SplitPart, number>>;
  why: Partial<Record<SplitPart, string>>;
  /** Where the database part came from. */
  source?: ServerTimeSource;
}

export interface RunSplit {
  splits: QuerySplit[];
  skipped: { target: string; kind?: ProjectedKind; reason: string }[];
}

/** Every target's split per kind; `rttUs`: projected to that RTT instead of this run's floor. */
export function splitRun(
  measurements: readonly Measurement[],
  targets: readonly string[],
  rttUs?: number,
): RunSplit {
  const splits: QuerySplit[] = [];
  const skipped: RunSplit['skipped'] = [];
  for (const target of targets) {
    const projected = projectTarget(measurements, target);
    if ('reason' in projected) {
      if (measurements.some((m) => m.target === target && m.serverTime))
        skipped.push({ target, reason: projected.reason });
      continue;
    }
    for (const s of projected.skipped) skipped.push({ target, ...s });
    for (const kind of PROJECTED_KINDS) {
      const figures = projected[kind];
      const m = measurements.find((x) => x.target === target && x.kind === kind && x.stats.count > 0);
      if (!figures || !m) continue;
      const distanceUs = figures.turns * (rttUs ?? projected.floor.us);
      const p50Us = rttUs === undefined ? figures.p50Us : projectAt(figures, rttUs);
      const parts: QuerySplit['parts'] = { distance: distanceUs };
      const why: QuerySplit['why'] = {};
      const server = m.serverTime;
      if (isServerTimeGiven(server)) parts.database = server.p50Us;
      else why.database = server?.note ?? 'not recorded in this result';
      const clientUs = kind === 'initial' ? m.wire?.clientCpuUs : undefined;
      if (clientUs !== undefined) parts.client = clientUs;
      else
        why.client =
          kind === 'initial'
            ? 'the client CPU of a connect was not measured'
            : 'a warm query has no CPU figure of its own';
      parts.rest = p50Us - (parts.database ?? 0) - distanceUs - (parts.client ?? 0);
      splits.push({
        target,
        kind,
        p50Us,
        turns: figures.turns,
        floor: projected.floor,
        ...(rttUs !== undefined ? { rttUs } : {}),
        parts,
        why,
        ...(isServerTimeGiven(server) ? { source: server.source } : {}),
      });
    }
  }
  return { splits, skipped };
}

/** "the database's own time: PlanetScale's `timing` in each answer (p50 of 200)". */
export function sourceText(m: Pick<Measurement, 'serverTime'>): string | undefined {
  const server = m.serverTime;
  if (!isServerTimeGiven(server)) return undefined;
  const over =
    server.figure === 'p50'
      ? `p50 of ${server.samples}`
      : server.figure === 'mean'
        ? `mean of ${server.samples}`
        : 'one execution';
  return `${SERVER_TIME_SOURCE_TEXT[server.source]} (${over})`;
}

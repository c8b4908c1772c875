/**
 * What a CodeLens says after its statement was probed: "p50 0.9 ms / p99 2.1 ms on neon-http, 12 min
 * ago", one line per target, from the warm (subsequent) figures when they were measured. Pure, with
 * the clock passed in, so the wording is tested without VS Code.
 */
import { fromYourApp } from '../../shared/fromYourApp';
import type { AppDistance } from './appLocation';
import type { ErrorClass, ProbeFailure } from '../../shared/errors';
import type { Ranking } from '../../shared/judgement/judgeRun';
import type { ProbeKind } from '../../shared/plan';
import { projectAt, projectTarget } from '../../shared/projection';
import { splitRun } from '../../shared/querySplit';
import type { Measurement } from '../../shared/result';
import type { QueryFamily } from '../../shared/classify';

export interface LensTargetFigures {
  target: string;
  /** The target's driver (catalog id): the lens answers first for the file's own. Absent in older records. */
  driver?: string;
  kind: ProbeKind;
  p50Us?: number;
  p99Us?: number;
  errors: number;
  /** Why it failed, when no sample succeeded: the first error's class and its (redacted) message. */
  failure?: { class: ErrorClass; message: string };
  /** The kind's local part and turns (src/shared/projection.ts), when its round trips were counted. */
  projection?: { localUs: number; turns: number };
  /**
   * Where the p50 goes (src/shared/querySplit.ts), when the server gave its own time: the parts
   * distance does not change, and the floor each turn cost here.
   */
  split?: { databaseUs: number; clientUs?: number; restUs: number; floorUs: number };
}

/** The last probe of one statement, kept per workspace (no secrets: names and figures only). */
export interface LensRecord {
  runId: string;
  /** ISO time the run started. */
  at: string;
  targets: LensTargetFigures[];
}

/** The same statement (whitespace aside) is the same key wherever it is written. */
export function statementKey(family: QueryFamily, text: string): string {
  const normal = `${family}\n${text.replace(/\s+/g, ' ').trim()}`;
  // FNV-1a, 32 bits twice (two seeds): short keys for workspaceState, collisions out of reach here.
  let a = 0x811c9dc5;
  let b = 0x01000193 ^ 0x5bd1e995;
  for (let i = 0; i < normal.length; i++) {
    const c = normal.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193) >>> 0;
    b = Math.imul(b ^ c, 0x5bd1e995) >>> 0;
  }
  return `${family}:${a.toString(16).padStart(8, '0')}${b.toString(16).padStart(8, '0')}`;
}

/**
 * One title per target. With where the app runs (an RTT, `dbprobe.appRttMs`, or a runner place,
 * `dbprobe.appLocation`: appLocation.ts) and a projection, the p50 measured here and the one
 * projected to the app's distance: "p50 0.4 ms here · ≈ 3.2 ms from your app (1 ms RTT) / p99 2.1 ms
 * on pg, just now", or "(eu-west runner, 2.1 ms RTT)" with the place's measured floor. A place with no
 * run that measured the target gets no projection, and the title says so.
 */
export function lensTitles(
  record: LensRecord,
  nowMs: number,
  app?: number | ((target: string) => AppDistance | undefined),
  /** The run's judgement for this query (lensVerdict): stated first, in place of the figures it ranks. */
  verdict?: readonly LensVerdictLine[],
): string[] {
  const ago = timeAgo(nowMs - Date.parse(record.at));
  const perTarget = targetTitles(record, ago, app);
  if (!verdict || verdict.length === 0) return perTarget;
  // The ranking holds every target that answered; a target that did not is said apart, with why. A
  // runner place's distance differs per target, so its projections stay one line per target.
  const apart = record.targets.flatMap((t, i) => {
    const failed = t.p50Us === undefined || t.p99Us === undefined;
    const distance = typeof app === 'function' ? app(t.target) : undefined;
    const atPlace =
      distance?.kind === 'unknown' || (distance?.kind === 'rtt' && distance.place !== undefined);
    return failed || atPlace ? [perTarget[i]!] : [];
  });
  return [...verdict.map((v) => `${v.sentence.replace(/\.$/, '')} · ${ago}`), ...apart];
}

/** One of the judgement's rankings as a lens states it: its sentence, and why its gaps are there. */
export interface LensVerdictLine {
  sentence: string;
  why: readonly string[];
}

/**
 * What a lens states first from the run's judgement (src/shared/judgement/judgeRun.ts): the warm
 * query's ranking, here and at the app's RTT when one is set, the cost of this query on a connection
 * the app already holds; a new connection's when no warm query was ranked. Chosen, never reworded.
 */
export function lensVerdict(rankings: readonly Ranking[]): LensVerdictLine[] {
  const warm = rankings.filter((r) => r.question === 'warm query');
  const chosen = warm.length > 0 ? warm : rankings.filter((r) => r.question === 'new connection');
  return chosen.map((r) => ({ sentence: r.sentence, why: r.why }));
}

function targetTitles(
  record: LensRecord,
  ago: string,
  app?: number | ((target: string) => AppDistance | undefined),
): string[] {
  return record.targets.map((t) => {
    if (t.p50Us === undefined || t.p99Us === undefined) return `${failureLine(t)}, ${ago}`;
    const distance: AppDistance | undefined =
      typeof app === 'number' ? { kind: 'rtt', rttUs: app * 1000 } : app?.(t.target);
    if (distance?.kind === 'unknown')
      return `p50 ${shortMs(t.p50Us)} / p99 ${shortMs(t.p99Us)} on ${t.target}, ${ago} · no projection: no run from the ${distance.place} runner has measured ${t.target}`;
    const p50 =
      distance && t.projection
        ? `${shortMs(t.p50Us)} here · ${fromYourApp(
            shortMs(projectAt(t.projection, distance.rttUs)),
            distance.place !== undefined
              ? shortMs(distance.rttUs)
              : `${+(distance.rttUs / 1000).toPrecision(6)} ms`,
            distance.place,
          )}`
        : shortMs(t.p50Us);
    const split = t.split && t.projection ? `: ${splitWords(t.split, t.projection.turns, distance)}` : '';
    return `p50 ${p50}${split} / p99 ${shortMs(t.p99Us)} on ${t.target}, ${ago}`;
  });
}

/**
 * "20.1 ms in the database, 10.4 ms distance (1 round trip x 10 ms), 1.5 ms client": the parts of the
 * figure before it (the projected one when there is a distance to the app, where only the distance
 * differs). `units: false` drops the parts' "ms" for the lens's own line, where the figure before
 * them already says it ("20.1 in the database, 10.4 distance (1 round trip x 10 ms)").
 */
export function splitWords(
  split: NonNullable<LensTargetFigures['split']>,
  turns: number,
  distance: AppDistance | undefined,
  units = true,
): string {
  const rttUs = distance?.kind === 'rtt' ? distance.rttUs : split.floorUs;
  // The RTT the user set reads as set on the lens's own line ("x 3 ms"), as its figure does.
  const asSet = !units && distance?.kind === 'rtt' && distance.place === undefined;
  const rtt = asSet ? `${+(rttUs / 1000).toPrecision(6)} ms` : shortMs(rttUs);
  const trips = `${turns} round trip${turns === 1 ? '' : 's'} x ${rtt}`;
  const part = (us: number) => (units ? shortMs(us) : shortMs(us).replace(/ ms$/, ''));
  return [
    `${part(split.databaseUs)} in the database`,
    `${part(turns * rttUs)} distance (${trips})`,
    ...(split.clientUs !== undefined ? [`${part(split.clientUs)} client`] : []),
    ...(Math.abs(split.restUs) >= 50 ? [`${part(split.restUs)} rest`] : []),
  ].join(', ');
}

/** What stopped a query on a target, in the error's own words: it is the query's failure there. */
const FAILURE_WORDS: Record<ErrorClass, string> = {
  config: 'could not be set up',
  dns: 'could not resolve the host',
  refused: 'connection refused',
  timeout: 'timed out',
  tls: 'TLS handshake failed',
  auth: 'credentials refused',
  permission: 'not permitted',
  query: 'query rejected',
  closed: 'connection closed',
  cancelled: 'cancelled',
  unknown: 'failed',
};
const MAX_MESSAGE_CHARS = 100;

/** "query rejected on local-mysql: Table 'db.pg_class' doesn't exist". */
export function failureLine(t: Pick<LensTargetFigures, 'target' | 'failure'>): string {
  if (!t.failure) return `no sample on ${t.target}`;
  const message = t.failure.message.replace(/\s+/g, ' ').trim();
  const short =
    message.length > MAX_MESSAGE_CHARS ? `${message.slice(0, MAX_MESSAGE_CHARS - 3)}...` : message;
  return `${FAILURE_WORDS[t.failure.class]} on ${t.target}${short ? `: ${short}` : ''}`;
}

/** The lens figures with the chosen kind's projection, when the run counted its round trips. */
export function withProjection(
  figures: LensTargetFigures,
  measurements: readonly Measurement[],
): LensTargetFigures {
  const parts = projectTarget(measurements, figures.target);
  if ('reason' in parts || (figures.kind !== 'initial' && figures.kind !== 'subsequent')) return figures;
  const k = parts[figures.kind];
  if (!k) return figures;
  const split = splitRun(measurements, [figures.target]).splits.find((x) => x.kind === figures.kind);
  const databaseUs = split?.parts.database;
  return {
    ...figures,
    projection: { localUs: k.localUs, turns: k.turns },
    ...(split && databaseUs !== undefined
      ? {
          split: {
            databaseUs,
            ...(split.parts.client !== undefined ? { clientUs: split.parts.client } : {}),
            restUs: split.parts.rest ?? 0,
            floorUs: split.floor.us,
          },
        }
      : {}),
  };
}

/**
 * 0.041 ms, 0.9 ms, 12.3 ms, 140 ms: two significant digits below 0.1 ms, one decimal below 100; a
 * negative figure (a split's rest) by its size alike, -0.6 ms.
 */
export function shortMs(us: number): string {
  const ms = us / 1000;
  const size = Math.abs(ms);
  if (size < 0.1) return `${ms.toFixed(3)} ms`;
  if (size < 100) return `${ms.toFixed(1)} ms`;
  return `${Math.round(ms)} ms`;
}

export function timeAgo(elapsedMs: number): string {
  const minutes = Math.floor(Math.max(0, elapsedMs) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.floor(hours / 24)} days ago`;
}

/** The figures a lens shows for one target: subsequent when measured, else the first kind with any. */
export function pickFigures(
  target: string,
  measurements: readonly {
    target: string;
    kind: ProbeKind;
    stats: { count: number; errors: number; p50Us: number; p99Us: number };
    firstErrors?: readonly ProbeFailure[];
  }[],
): LensTargetFigures | undefined {
  const own = measurements.filter((m) => m.target === target);
  const chosen =
    own.find((m) => m.kind === 'subsequent' && m.stats.count > 0) ??
    own.find((m) => m.stats.count > 0) ??
    own[0];
  if (!chosen) return undefined;
  return chosen.stats.count > 0
    ? {
        target,
        kind: chosen.kind,
        p50Us: chosen.stats.p50Us,
        p99Us: chosen.stats.p99Us,
        errors: chosen.stats.errors,
      }
    : { target, kind: chosen.kind, errors: chosen.stats.errors, ...failureOf(own) };
}

/** The first error any kind of the target kept (warm-up errors count: a query that never ran has no other). */
function failureOf(
  own: readonly { firstErrors?: readonly ProbeFailure[] }[],
): Pick<LensTargetFigures, 'failure'> {
  const first = own.flatMap((m) => m.firstErrors ?? [])[0];
  return first ? { failure: { class: first.class, message: first.message } } : {};
}

/** Newest records kept, at most `keep`: the memory of a workspace stays small. */
export function trimRecords(records: Record<string, LensRecord>, keep: number): Record<string, LensRecord> {
  const entries = Object.entries(records).sort(([, a], [, b]) => b.at.localeCompare(a.at));
  return Object.fromEntries(entries.slice(0, keep));
}

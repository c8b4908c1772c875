/**
 * The CodeLens's answer about the query itself: how long it takes from the app, for the target the
 * file's own driver reaches ("≈ 31.2 ms from your app (30 ms RTT, 1 round trip) · 0.4 ms here on
 * pg"), or where that time goes when the server gave its own ("≈ 42.0 ms from your app on pg: 38.0
 * in the database, 3.0 distance (1 round trip x 3 ms), 1.0 rest"), in one line short enough for
 * the editor; the rest (p99, the figure here, the run's judgement of the other targets) in its hover. The other targets are shown only on request.
 * Pure, with the clock passed in.
 */
import { fromYourApp } from '../../shared/fromYourApp';
import { projectAt } from '../../shared/projection';
import type { AppDistance } from './appLocation';
import {
  failureLine,
  shortMs,
  splitWords,
  timeAgo,
  type LensRecord,
  type LensTargetFigures,
  type LensVerdictLine,
} from './lensText';

/** An editor line holds this many characters before the lens runs off a narrow editor's edge. */
export const MAX_LENS_CHARS = 100;

/** Where the app runs, as the lens reads it: a distance per target, or here (`dbprobe.appRttMs` 0). */
export type LensApp =
  { kind: 'here' } | { kind: 'distance'; of: (target: string) => AppDistance | undefined };

export interface QueryLensLine {
  /** The target the line answers for: the file's own driver's, else the first probed. */
  target: string;
  title: string;
  hover: string;
  /** The targets the run measured beside it: offered on request ("other targets…"). */
  others: number;
}

/**
 * The target a file's lens answers for: the first (in the run's order) whose driver the file imports,
 * else the first the run measured. Chosen by the file, never by a figure.
 */
export function ownTarget(record: LensRecord, fileDrivers: readonly string[]): LensTargetFigures | undefined {
  return (
    record.targets.find((t) => t.driver !== undefined && fileDrivers.includes(t.driver)) ?? record.targets[0]
  );
}

export function queryLensLine(
  record: LensRecord,
  nowMs: number,
  fileDrivers: readonly string[],
  app: LensApp | undefined,
  /** The run's judgement of the query across targets (lensVerdict): the hover's last part. */
  verdict: readonly LensVerdictLine[] = [],
): QueryLensLine | undefined {
  const t = ownTarget(record, fileDrivers);
  if (!t) return undefined;
  const ago = timeAgo(nowMs - Date.parse(record.at));
  const distance = app?.kind === 'distance' ? app.of(t.target) : undefined;
  const p50Us = t.p50Us;
  const split = splitLine(t, distance);
  const title =
    p50Us === undefined
      ? cut(`${failureLine(t)}, ${ago}`, MAX_LENS_CHARS)
      : ((split && fit(split, t.target, ago, { alone: record.targets.length === 1 })) ??
        fit(lineParts({ ...t, p50Us }, app, distance), t.target, ago));
  return {
    target: t.target,
    title,
    hover: hoverText(record, t, distance, verdict),
    others: record.targets.length - 1,
  };
}

/** A line without its target and age: the answer, what follows the target's name, and a note. */
interface LineParts {
  head: string;
  /** Right after the name, as part of the answer (": 20.1 in the database, ..."). */
  named?: string;
  tail?: string;
}

/**
 * With the database's own time and a distance to the app, the answer is where that time goes:
 * "≈ 23.4 ms from your app on pg: 20.1 in the database, 3.0 distance (1 round trip x 3 ms), 0.3 rest"
 * (the figure here stays in the hover). Undefined when the run did not split it.
 */
function splitLine(t: LensTargetFigures, distance: AppDistance | undefined): LineParts | undefined {
  if (t.p50Us === undefined || distance?.kind !== 'rtt' || !t.projection || !t.split) return undefined;
  const place = distance.place !== undefined ? ` (${distance.place} runner)` : '';
  return {
    head: `≈ ${shortMs(projectAt(t.projection, distance.rttUs))} from your app${place}`,
    named: `: ${splitWords(t.split, t.projection.turns, distance, false)}`,
  };
}

/** The line without its target and age: the answer, and what follows the target's name. */
function lineParts(
  t: LensTargetFigures & { p50Us: number },
  app: LensApp | undefined,
  distance: AppDistance | undefined,
): LineParts {
  const here = shortMs(t.p50Us);
  if (app?.kind === 'here') return { head: `${here} from your app (it runs here)` };
  if (distance?.kind === 'unknown')
    return { head: `${here} here`, tail: `no run from the ${distance.place} runner measured it` };
  if (distance && t.projection) {
    const rtt =
      distance.place !== undefined
        ? shortMs(distance.rttUs)
        : `${+(distance.rttUs / 1000).toPrecision(6)} ms`;
    const projected = shortMs(projectAt(t.projection, distance.rttUs));
    return { head: `${fromYourApp(projected, rtt, distance.place, t.projection.turns)} · ${here} here` };
  }
  if (distance) return { head: `${here} here`, tail: 'round trips not counted: no projection' };
  // A runner place's floor still being looked up: the figure here alone for that moment.
  if (app?.kind === 'distance') return { head: `${here} here` };
  return { head: `${here} here`, tail: 'set where your app runs (dbprobe.appRttMs)' };
}

/**
 * The line within MAX_LENS_CHARS: the age goes first, then the target's name is cut, then the line
 * itself. A split line (`keep`) is never cut, as its figures and the target they are of would not be
 * read: without the name where the query ran on that target alone (the hover names it), else
 * undefined (the plain line is said, the split in the hover).
 */
function fit(parts: LineParts, target: string, ago: string): string;
function fit(parts: LineParts, target: string, ago: string, keep: { alone: boolean }): string | undefined;
function fit(parts: LineParts, target: string, ago: string, keep?: { alone: boolean }): string | undefined {
  const build = (name: string | undefined, withAge: boolean) =>
    [
      `${parts.head}${name === undefined ? '' : ` on ${name}`}${parts.named ?? ''}`,
      ...(parts.tail ? [parts.tail] : []),
      ...(withAge ? [ago] : []),
    ].join(' · ');
  const within = (line: string) => line.length <= MAX_LENS_CHARS;
  const noAge = build(target, false);
  const tries = [
    build(target, true),
    noAge,
    ...(keep?.alone ? [build(undefined, true), build(undefined, false)] : []),
  ];
  const fits = tries.find(within);
  if (fits || keep) return fits;
  const room = MAX_LENS_CHARS - build('', false).length;
  return room >= 4 ? build(cut(target, room), false) : cut(noAge, MAX_LENS_CHARS);
}

function cut(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

function hoverText(
  record: LensRecord,
  t: LensTargetFigures,
  distance: AppDistance | undefined,
  verdict: readonly LensVerdictLine[],
): string {
  const lines: string[] = [];
  const what = t.kind === 'subsequent' ? 'a warm query (a connection the app holds)' : `${t.kind} samples`;
  if (t.p50Us === undefined || t.p99Us === undefined) lines.push(failureLine(t));
  else {
    lines.push(`${t.target}: p50 ${shortMs(t.p50Us)} / p99 ${shortMs(t.p99Us)} here, ${what}`);
    if (t.errors > 0) lines.push(`${t.errors} error${t.errors === 1 ? '' : 's'}`);
    if (distance?.kind === 'rtt' && t.projection) {
      const at = projectAt(t.projection, distance.rttUs);
      lines.push(
        `≈ ${shortMs(at)} from your app: ${shortMs(t.projection.localUs)} local work + ${t.projection.turns} round trip${t.projection.turns === 1 ? '' : 's'} x ${shortMs(distance.rttUs)}${distance.place !== undefined ? ` (the ${distance.place} runner's measured floor)` : ''}`,
      );
    }
    if (t.split && t.projection)
      lines.push(`Where it goes: ${splitWords(t.split, t.projection.turns, distance)}`);
  }
  const others = record.targets.filter((o) => o !== t);
  if (verdict.length > 0) lines.push('', ...verdict.flatMap((v) => [v.sentence, ...v.why]));
  if (others.length > 0)
    lines.push('', `Also measured: ${others.map((o) => o.target).join(', ')} ("other targets" shows them)`);
  lines.push('', `DB Probe: ${new Date(record.at).toLocaleString()}; click to open the run`);
  return lines.join('\n');
}

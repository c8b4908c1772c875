/**
 * Where the app runs, for the editor's projected figures: an RTT (`dbprobe.appRttMs`), or
 * a runner place (`dbprobe.appLocation`) whose own runs measured its floor to each target. A place is
 * the better answer when the user has one: its RTT to the database was measured, not guessed. Pure
 * (no VS Code): the CodeLens provider and the heartbeat read it through the run store.
 */
import { floorOf } from '../../shared/projection';
import { MAX_PROJECTION_RTT_MS } from '../../shared/projectionRtts';
import type { Measurement } from '../../shared/result';

/**
 * What the settings say, after reading them: a place wins over an RTT when both are set. An RTT of 0
 * is `here`: the app runs where the probe ran, so the figures measured here are the answer (a
 * projection to 0 ms would drop the distance this machine measured and print figures lower than it).
 */
export type AppLocation =
  { kind: 'rtt'; rttMs: number } | { kind: 'place'; place: string } | { kind: 'here' };

/** `dbprobe.appRttMs` as a location: 0 is here (never a "0 ms RTT" projection below the measured). */
export function locationOfRtt(rttMs: number | undefined): AppLocation | undefined {
  if (rttMs === undefined) return undefined;
  return rttMs === 0 ? { kind: 'here' } : { kind: 'rtt', rttMs };
}

/** The settings' names (under `dbprobe.`): the one app location every surface reads. */
export const APP_RTT_SETTING = 'appRttMs';
export const APP_PLACE_SETTING = 'appLocation';

/**
 * Where the app runs, from the two settings as `get` reads them (`dbprobe.appLocation`, a runner
 * place, wins over `dbprobe.appRttMs`); undefined when neither holds a usable value. Every surface
 * (panel, export, Runs view, status bar, CodeLens, heartbeat) reads it through this one function.
 */
export function readAppLocation(get: (setting: string) => unknown): AppLocation | undefined {
  const place = get(APP_PLACE_SETTING);
  if (typeof place === 'string' && place.trim() !== '') return { kind: 'place', place: place.trim() };
  const rttMs = get(APP_RTT_SETTING);
  return typeof rttMs === 'number' && Number.isFinite(rttMs) && rttMs >= 0 && rttMs <= MAX_PROJECTION_RTT_MS
    ? locationOfRtt(rttMs)
    : undefined;
}

/**
 * What the run panel projects to: the `dbprobe.projection.rtts` columns, and the app's RTT from the
 * one reading of where the app runs that the CodeLens and the heartbeat use (`readAppLocation`). A
 * runner place measures a different RTT to each target: the panel then has no single app RTT, and says so.
 */
export interface PanelProjection {
  rttsMs: number[];
  appRttMs?: number;
  /** `dbprobe.appLocation` names a runner place (the panel projects to one RTT only). */
  appPlace?: string;
  /** `dbprobe.appRttMs` is 0: the app runs here, so the measured figures answer for it. */
  appHere?: true;
}

/** What the panel, the export and the Runs view project to, for one reading of where the app runs. */
export function panelProjectionOf(location: AppLocation | undefined, rttsMs: number[]): PanelProjection {
  return {
    rttsMs,
    ...(location?.kind === 'rtt' ? { appRttMs: location.rttMs } : {}),
    ...(location?.kind === 'place' ? { appPlace: location.place } : {}),
    ...(location?.kind === 'here' ? { appHere: true as const } : {}),
  };
}

/**
 * The distance the editor projects one target to: an RTT (the setting's, or the measured floor of
 * `place`), or none because no run from the place has measured the target (the views say so).
 */
export type AppDistance = { kind: 'rtt'; rttUs: number; place?: string } | { kind: 'unknown'; place: string };

/** The saved runs' summaries, as far as a place is concerned (src/extension/runs/runSummary.ts). */
export interface PlaceRunSummary {
  id: string;
  startedAt: string;
  location: string;
  locationKind?: 'local' | 'runner';
  group?: { id: string; place: string };
  targets: { name: string }[];
}

/** The place's floor to one target, and the run it was measured in. */
export interface PlaceFloor {
  rttUs: number;
  runId: string;
}

/**
 * Whether a saved run happened at the named runner place. A runner's results are labelled with its
 * region ("runner eu-west-1"); in a run group the place is the column the panel heads with the
 * region, or "region (name)" when two runners share a region, so the configured name works there.
 */
export function runIsAtPlace(run: PlaceRunSummary, place: string): boolean {
  if (run.locationKind !== 'runner') return false;
  const name = place.trim();
  if (name === '') return false;
  const group = run.group?.place;
  if (group !== undefined && (group === name || group.endsWith(` (${name})`))) return true;
  return run.location === `runner ${name}` || run.location.startsWith(`runner ${name} (`);
}

/**
 * The named place's measured RTT to `target`: the floor (src/shared/projection.ts floorOf) in the
 * newest run at that place that has one for it, reading at most `limit` runs; undefined when none has.
 */
export async function findPlaceFloor(
  place: string,
  target: string,
  runs: readonly PlaceRunSummary[],
  load: (id: string) => Promise<{ measurements: readonly Measurement[] } | undefined>,
  limit = 20,
): Promise<PlaceFloor | undefined> {
  return fromNewestRun(
    runs.filter((r) => runIsAtPlace(r, place) && r.targets.some((t) => t.name === target)),
    load,
    (result, runId) => {
      const floor = floorOf(result.measurements, target);
      return floor ? { rttUs: floor.us, runId } : undefined;
    },
    limit,
  );
}

/**
 * The first answer `pick` gives from the newest of `runs` (at most `limit` read, newest first; a run
 * that cannot be read is passed over): shared by the app location's floor and the heartbeat's turns.
 */
export async function fromNewestRun<R, T>(
  runs: readonly { id: string; startedAt: string }[],
  load: (id: string) => Promise<R | undefined>,
  pick: (result: R, runId: string) => T | undefined,
  limit: number,
): Promise<T | undefined> {
  const newest = [...runs].sort((a, b) => b.startedAt.localeCompare(a.startedAt)).slice(0, limit);
  for (const run of newest) {
    const result = await load(run.id).catch(() => undefined);
    const picked = result === undefined ? undefined : pick(result, run.id);
    if (picked !== undefined) return picked;
  }
  return undefined;
}

/** The distance for one target, from the setting and (for a place) the floor found for it. */
export function appDistance(
  location: Exclude<AppLocation, { kind: 'here' }>,
  floor: PlaceFloor | undefined,
): AppDistance {
  if (location.kind === 'rtt') return { kind: 'rtt', rttUs: location.rttMs * 1000 };
  return floor
    ? { kind: 'rtt', rttUs: floor.rttUs, place: location.place }
    : { kind: 'unknown', place: location.place };
}

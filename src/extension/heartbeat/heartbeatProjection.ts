/**
 * Where the heartbeat's projection comes from: the heartbeat times one query on a warm
 * connection from the editor's host, with no wire counting of its own, so its turns and the RTT of
 * its path are taken from the newest saved run that probed the same target from this machine and
 * counted its `subsequent` round trips. Its p50 then projects as any other: p50 - turns x floor +
 * turns x the app's RTT.
 */
import { fromNewestRun } from '../queries/appLocation';
import { projectAt, projectTarget } from '../../shared/projection';
import type { RunResult } from '../../shared/result';

export interface HeartbeatProjection {
  turns: number;
  floorUs: number;
  /** The run the turns and floor were read from. */
  runId: string;
}

/** Reads the newest runs first (at most `limit`), returning the first with a projected subsequent kind. */
export async function findHeartbeatProjection(
  target: string,
  runs: readonly {
    id: string;
    startedAt: string;
    locationKind?: 'local' | 'runner';
    targets: { name: string }[];
  }[],
  load: (id: string) => Promise<RunResult | undefined>,
  limit = 20,
): Promise<HeartbeatProjection | undefined> {
  return fromNewestRun(
    runs.filter((r) => (r.locationKind ?? 'local') === 'local' && r.targets.some((t) => t.name === target)),
    load,
    (result, runId) => {
      const parts = projectTarget(result.measurements, target);
      if ('reason' in parts || !parts.subsequent) return undefined;
      return { turns: parts.subsequent.turns, floorUs: parts.floor.us, runId };
    },
    limit,
  );
}

/** The heartbeat's p50 projected to `appRttMs` (the same projectAt every view uses). */
export function projectHeartbeat(p50Us: number, projection: HeartbeatProjection, appRttMs: number): number {
  const { turns, floorUs } = projection;
  return projectAt({ localUs: p50Us - turns * floorUs, turns }, appRttMs * 1000);
}

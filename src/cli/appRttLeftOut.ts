/**
 * `--app-rtt` projects each target's new-connection and warm-query figures to where the app runs,
 * from the round trips the run counted on the wire. A target with none to count (an embedded
 * database: no network between the app and it) cannot be projected; the Markdown notes it, and
 * stderr must say so too, or the flag looks applied when it changed nothing.
 */
import { PROJECTED_KINDS, projectRun } from '../shared/projection';
import type { RunResult } from '../shared/result';

export function appRttLeftOutLine(result: RunResult, appRttMs: number | undefined): string | undefined {
  if (appRttMs === undefined) return undefined;
  const projections = projectRun(result, { rttsMs: [], maxQueries: 1 });
  const left = result.targets.filter((target) => {
    const measured = PROJECTED_KINDS.filter((kind) =>
      result.measurements.some((m) => m.target === target.name && m.kind === kind && m.stats.count > 0),
    );
    const projected = projections.targets.find((p) => p.target === target.name);
    return measured.length > 0 && measured.every((kind) => projected?.[kind] === undefined);
  });
  if (left.length === 0) return undefined;
  const embedded = left.every((t) => t.transport === 'file');
  return `dbprobe: --app-rtt ${appRttMs} leaves out ${left.map((t) => t.name).join(', ')}: ${
    embedded
      ? 'an embedded database runs inside this process, with no network round trips to project to your app'
      : 'no counted round trips or measured RTT to project from'
  }; ${left.length === 1 ? 'its figures are' : 'their figures are'} from here only`;
}

/**
 * A run group: one plan run in several places at once (this machine, runners in other regions),
 * saved together. Each place's result stays an ordinary run document; the group records which run
 * came from where, what each place skipped, and what went wrong with a place that has no result.
 */
import { isRunId } from '../../shared/messages';

export const GROUP_SCHEMA = 'dbprobe.runGroup/v1';

export interface GroupPlace {
  /** "this machine", or the runner's region: the column heading everywhere. */
  label: string;
  kind: 'local' | 'runner';
  /** The runner's configured name. */
  runner?: string;
  /** The run this place produced, complete or partial; absent when it produced none. */
  runId?: string;
  /** What went wrong with the place itself (unreachable, killed mid-run), redacted. */
  error?: string;
  /** Targets this place did not run, and why (e.g. a secret the runner cannot read). */
  skipped: { target: string; reason: string }[];
}

export interface RunGroup {
  schema: typeof GROUP_SCHEMA;
  id: string;
  startedAt: string;
  places: GroupPlace[];
}

export function isRunGroup(value: unknown): value is RunGroup {
  if (typeof value !== 'object' || value === null) return false;
  const g = value as Partial<RunGroup>;
  return (
    g.schema === GROUP_SCHEMA &&
    isRunId(g.id) &&
    typeof g.startedAt === 'string' &&
    Array.isArray(g.places) &&
    g.places.every((p) => typeof p?.label === 'string' && Array.isArray(p.skipped))
  );
}

/** Run ids of the places that produced a result, in place order. */
export function memberRunIds(group: RunGroup): string[] {
  return group.places.flatMap((p) => (p.runId ? [p.runId] : []));
}

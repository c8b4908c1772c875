/**
 * The database's own time for a target and kind: what the server says it spent on the workload,
 * never an estimate. Defined apart from result.ts so the engine, the drivers, the reports and the
 * panel share one list of sources and one wording.
 */

import type { ServerTime } from './schema/resultSchema';
import type { ServerTimeSource } from './schema/resultValues';

// Defined with the result (schema/resultSchema.ts); here with their wording.
export { SERVER_TIME_SOURCES } from './schema/resultValues';
export type { ServerTimeSource } from './schema/resultValues';
export type { ServerTime } from './schema/resultSchema';
export type ServerTimeGiven = Extract<ServerTime, { figure: unknown }>;
export type ServerTimeMissing = Exclude<ServerTime, ServerTimeGiven>;
export type ServerTimeFigure = ServerTimeGiven['figure'];

/** The note of a driver whose server says nothing of its own time. */
export const NOT_GIVEN = 'not given by this server';

/** What each source measures, for the reports' footnotes and docs/measuring.md. */
export const SERVER_TIME_SOURCE_TEXT: Record<ServerTimeSource, string> = {
  'planetscale-timing': "PlanetScale's `timing` in each answer",
  hrana: "libSQL's `query_duration_ms` in each statement result",
  'server-timing': 'the `Server-Timing` header of each answer',
  'explain-analyze':
    'EXPLAIN ANALYZE of the workload on a warm connection after the samples (planning + execution)',
  pg_stat_statements:
    "pg_stat_statements' mean planning + execution time over the kind's samples (warm-up included)",
  performance_schema:
    "performance_schema's statement digest, mean over the kind's samples (warm-up included)",
  opLatencies: "serverStatus.opLatencies, mean over the kind's operations (warm-up included)",
  commandstats: "INFO commandstats' usec per call over the kind's samples (warm-up included)",
};

export function isServerTimeGiven(time: ServerTime | undefined): time is ServerTimeGiven {
  return time !== undefined && typeof time.p50Us === 'number';
}

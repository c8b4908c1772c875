/**
 * The database's own time for a target and kind: what the server says it spent on the workload,
 * never an estimate. Defined apart from result.ts so the engine, the drivers, the reports and the
 * panel share one list of sources and one wording.
 */

/** Where a figure came from: per sample from each answer, or per run from the server's own counters. */
export const SERVER_TIME_SOURCES = [
  'planetscale-timing',
  'hrana',
  'server-timing',
  'explain-analyze',
  'pg_stat_statements',
  'performance_schema',
  'opLatencies',
  'commandstats',
] as const;
export type ServerTimeSource = (typeof SERVER_TIME_SOURCES)[number];

/**
 * How the figure summarises the server's times: the p50 of per-sample figures, the mean of a
 * counter's delta over the kind's samples (all a cumulative counter can give), or one execution
 * (EXPLAIN ANALYZE runs the statement once).
 */
export type ServerTimeFigure = 'p50' | 'mean' | 'once';

/** A figure the server gave. `note` adds what it covers when that is not obvious. */
export interface ServerTimeGiven {
  p50Us: number;
  source: ServerTimeSource;
  /** Samples (or executions) the figure is over. */
  samples: number;
  figure: ServerTimeFigure;
  note?: string;
}

/** No figure, and why: the server does not say, or the source was refused (a privilege, an extension). */
export interface ServerTimeMissing {
  note: string;
  /** The source that was tried, when one was. */
  source?: ServerTimeSource;
  p50Us?: never;
  samples?: never;
  figure?: never;
}

export type ServerTime = ServerTimeGiven | ServerTimeMissing;

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

/**
 * A per-run server time from a cumulative counter pair read before and after a kind's samples
 * (pg_stat_statements, performance_schema, opLatencies, commandstats): the time's delta over the
 * executions' delta is the mean time per execution, all a cumulative counter can give.
 */
import type { ServerTimeRun } from '../core/driver';
import type { ServerTime, ServerTimeSource } from '../shared/serverTime';

export interface Counters {
  /** Executions so far. */
  count: number;
  /** Time spent on them so far, in the source's own unit. */
  total: number;
}

export interface CounterShape {
  source: ServerTimeSource;
  /** µs per unit of `total` (1000 for ms, 1e-6 for picoseconds). */
  unitUs: number;
  /** The note when no execution was counted between the two reads. */
  none: string;
  /** What the figure covers. */
  note: string;
}

export async function counterDeltaRun(
  read: () => Promise<Counters>,
  shape: CounterShape,
): Promise<ServerTimeRun> {
  const before = await read();
  return {
    finish: async (): Promise<ServerTime> => {
      const after = await read();
      const count = after.count - before.count;
      if (!(count > 0)) return { note: shape.none, source: shape.source };
      return {
        p50Us: Math.round(((after.total - before.total) * shape.unitUs) / count),
        source: shape.source,
        samples: count,
        figure: 'mean',
        note: shape.note,
      };
    },
  };
}

/**
 * MongoDB's own time for an operation, from `serverStatus`'s opLatencies once before and once after
 * a kind's samples: the delta of the category's `latency` (µs) over the delta of its `ops` is the
 * mean time the server spent per operation of that category (reads for find, writes for inserts,
 * commands for a command), over every client. A server without opLatencies (FerretDB) or a user
 * refused serverStatus: a note.
 */
import type { ServerTimeRun } from '../core/driver';
import { counterDeltaRun, type Counters } from './counterDelta';

export type OpCategory = 'reads' | 'writes' | 'commands';

/** The driver's Db, the one call this needs. */
export interface MongoCommander {
  command(command: Record<string, unknown>): Promise<Record<string, unknown>>;
}

export async function mongoServerTimeRun(db: MongoCommander, category: OpCategory): Promise<ServerTimeRun> {
  if (!(await opLatency(db, category)))
    return {
      finish: async () => ({
        note: `this server's serverStatus has no opLatencies.${category} (FerretDB has none)`,
        source: 'opLatencies',
      }),
    };
  return counterDeltaRun(async () => (await opLatency(db, category)) ?? { count: 0, total: 0 }, {
    source: 'opLatencies',
    unitUs: 1,
    none: `opLatencies counted no ${category} over the samples`,
    note: `the server's ${category}, over every client's operations during the samples`,
  });
}

async function opLatency(db: MongoCommander, category: OpCategory): Promise<Counters | undefined> {
  const status = await db.command({ serverStatus: 1, opLatencies: { histograms: false } });
  const figures = (status.opLatencies as Record<string, unknown> | undefined)?.[category] as
    { latency?: unknown; ops?: unknown } | undefined;
  const latency = Number(figures?.latency);
  const ops = Number(figures?.ops);
  return Number.isFinite(latency) && Number.isFinite(ops) ? { count: ops, total: latency } : undefined;
}

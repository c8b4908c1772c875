/**
 * Drizzle over the driver's own client: db.execute(sql.raw(query)), libSQL's db.run; its typed query
 * is the select builder's `SELECT 1` over a one-row derived table (Drizzle's builder needs a FROM).
 */
import type { sql as DrizzleSql } from 'drizzle-orm';
import type { LayerSession, LayerStarter } from './layerSession';
import { appPlanetscaleClient } from './planetscaleClient';

type Sql = typeof DrizzleSql;
type SqlChunk = ReturnType<Sql['raw']>;
/** Every dialect's db: a select builder awaited as the app awaits it. */
interface SelectingDb {
  select(fields: Record<string, SqlChunk>): { from(source: SqlChunk): PromiseLike<unknown> };
}
interface ExecutingDb extends SelectingDb {
  execute(query: SqlChunk): PromiseLike<unknown>;
}
interface RunningDb extends SelectingDb {
  run(query: SqlChunk): PromiseLike<unknown>;
}
type Construct = (options: { client: unknown }) => ExecutingDb;

/** The drizzle-orm entry point for each driver, all taking the driver's client as it is. */
const ENTRY: Record<string, string> = {
  pg: 'drizzle-orm/node-postgres',
  mysql2: 'drizzle-orm/mysql2',
  'neon-http': 'drizzle-orm/neon-http',
  'neon-ws': 'drizzle-orm/neon-serverless',
  planetscale: 'drizzle-orm/planetscale-serverless',
};

export const startDrizzle: LayerStarter = async (driver, client, imports) => {
  const { sql } = await imports.load<{ sql: Sql }>('drizzle-orm');
  if (driver === 'libsql') {
    // driver-core takes a ready client without importing @libsql/client's embedded engine.
    const { construct } = await imports.load<{ construct: (client: unknown) => RunningDb }>(
      'drizzle-orm/libsql/driver-core',
    );
    const db = construct(client);
    return session((query) => db.run(sql.raw(query)), typedSelectOne(db, sql));
  }
  const entry = ENTRY[driver];
  if (!entry) throw new Error(`drizzle has no entry for driver ${driver}`);
  const { drizzle } = await imports.load<{ drizzle: Construct }>(entry);
  const db = drizzle({
    client: driver === 'planetscale' ? await appPlanetscaleClient(client, imports) : client,
  });
  return session((query) => db.execute(sql.raw(query)), typedSelectOne(db, sql));
};

/** `select 1 from (select 1) as probe`, typed `{ one: number }[]`, through the select builder. */
function typedSelectOne(db: SelectingDb, sql: Sql): () => PromiseLike<unknown> {
  return () => db.select({ one: sql<number>`1` }).from(sql`(select 1) as probe`);
}

function session(
  query: (workload: string) => PromiseLike<unknown>,
  typedQuery: () => PromiseLike<unknown>,
): LayerSession {
  // Drizzle keeps no state of its own over a client it was handed: closing the driver's is enough.
  return { query, typedQuery, close: async () => undefined };
}

/** Drizzle over the driver's own client: db.execute(sql.raw(query)), libSQL's db.run. */
import type { sql as DrizzleSql } from 'drizzle-orm';
import type { LayerSession, LayerStarter } from './layerSession';
import { importLayerPackage } from './layerImport';
import { appPlanetscaleClient } from './planetscaleClient';

type Sql = typeof DrizzleSql;
interface ExecutingDb {
  execute(query: ReturnType<Sql['raw']>): PromiseLike<unknown>;
}
interface RunningDb {
  run(query: ReturnType<Sql['raw']>): PromiseLike<unknown>;
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

export const startDrizzle: LayerStarter = async (driver, client) => {
  const { sql } = await importLayerPackage<{ sql: Sql }>('drizzle-orm', 'drizzle');
  if (driver === 'libsql') {
    // driver-core takes a ready client without importing @libsql/client's embedded engine.
    const { construct } = await importLayerPackage<{ construct: (client: unknown) => RunningDb }>(
      'drizzle-orm/libsql/driver-core',
      'drizzle',
    );
    const db = construct(client);
    return session((query) => db.run(sql.raw(query)));
  }
  const entry = ENTRY[driver];
  if (!entry) throw new Error(`drizzle has no entry for driver ${driver}`);
  const { drizzle } = await importLayerPackage<{ drizzle: Construct }>(entry, 'drizzle');
  const db = drizzle({
    client: driver === 'planetscale' ? await appPlanetscaleClient(client, 'drizzle') : client,
  });
  return session((query) => db.execute(sql.raw(query)));
};

function session(query: (workload: string) => PromiseLike<unknown>): LayerSession {
  // Drizzle keeps no state of its own over a client it was handed: closing the driver's is enough.
  return { query, close: async () => undefined };
}

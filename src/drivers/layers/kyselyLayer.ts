/**
 * Kysely over the driver's own connection: a dialect whose pool hands out that one connection, and
 * sql.raw(query).execute(db), as an app runs raw SQL through Kysely; its typed query is
 * `db.selectNoFrom(sql<number>\`1\`.as('one'))`, built and compiled by the query builder.
 */
import type { Kysely, PostgresDialectConfig, MysqlDialectConfig, sql as KyselySql } from 'kysely';
import type { LayerStarter } from './layerSession';

interface KyselyModule {
  Kysely: new (config: { dialect: unknown }) => Kysely<unknown>;
  PostgresDialect: new (config: PostgresDialectConfig) => unknown;
  MysqlDialect: new (config: MysqlDialectConfig) => unknown;
  sql: typeof KyselySql;
}

interface PgLikeClient {
  query(text: string, values: unknown[]): Promise<unknown>;
}
type MysqlCallback = (error: unknown, result?: unknown) => void;
interface MysqlLikeConnection {
  query(text: string, values: unknown[], callback: MysqlCallback): unknown;
}

export const startKysely: LayerStarter = async (driver, client, imports) => {
  const kysely = await imports.load<KyselyModule>('kysely');
  const dialect = driver === 'mysql2' ? mysqlDialect(kysely, client) : postgresDialect(kysely, client);
  const db = new kysely.Kysely({ dialect });
  return {
    query: (workload) => kysely.sql.raw(workload).execute(db),
    typedQuery: () => db.selectNoFrom(kysely.sql<number>`1`.as('one')).execute(),
    // The pool's end is a no-op: the driver closes its own connection after this.
    close: () => db.destroy(),
  };
};

/** A pool of the one pg client (release keeps it open: it is the driver's, not Kysely's). */
function postgresDialect(kysely: KyselyModule, client: unknown): unknown {
  const pg = client as PgLikeClient;
  const lent = {
    query: (text: string, values: unknown[]) => pg.query(text, values),
    release: () => undefined,
  };
  const pool = { connect: async () => lent, end: async () => undefined };
  return new kysely.PostgresDialect({ pool: pool as unknown as PostgresDialectConfig['pool'] });
}

function mysqlDialect(kysely: KyselyModule, client: unknown): unknown {
  const mysql = client as MysqlLikeConnection;
  const lent = {
    query: (text: string, values: unknown[], callback: MysqlCallback) => mysql.query(text, values, callback),
    release: () => undefined,
  };
  const pool = {
    getConnection: (callback: (error: unknown, connection: unknown) => void) => callback(null, lent),
    end: (callback: (error: unknown) => void) => callback(null),
  };
  return new kysely.MysqlDialect({ pool: pool as unknown as MysqlDialectConfig['pool'] });
}

/**
 * The ORM and query-builder layers a target can be measured through (`"orm"` on a target), the npm
 * package each is, and the drivers each runs over here. Pure data: validation, the docs test and the
 * layer loader (src/drivers/layers/) read it; a layer over a driver not listed is refused before
 * anything connects.
 */
export const ORM_LAYERS = ['prisma', 'drizzle', 'kysely'] as const;
export type OrmLayer = (typeof ORM_LAYERS)[number];

/**
 * How a layered target's queries go through the layer (`"ormQuery"`): the workload as raw SQL, or
 * the layer's typed query builder's form of `SELECT 1` (against the raw driver's `SELECT 1`).
 */
export const ORM_QUERY_PATHS = ['raw', 'typed'] as const;
export type OrmQueryPath = (typeof ORM_QUERY_PATHS)[number];

export interface LayerInfo {
  id: OrmLayer;
  /** The package whose version the result records. */
  packageName: string;
  /** Driver ids the layer runs over, on the driver's own connection. */
  drivers: readonly string[];
  /** How the workload goes through the layer, for docs and results. */
  rawPath: string;
  /** The typed query it runs for `"ormQuery": "typed"`; absent: the layer offers none here. */
  typedQuery?: string;
  /** Why it offers no typed query, for the validation message. */
  noTypedQuery?: string;
  /**
   * The versions of `packageName` the layer is written and tested for: from `from` up to, not
   * including, `below`. Others fail in ways that name neither (a missing export, a changed class),
   * so the run refuses them before anything connects.
   */
  supported: { from: string; below: string };
}

export const LAYER_CATALOG: readonly LayerInfo[] = [
  {
    id: 'prisma',
    packageName: '@prisma/client',
    drivers: ['pg', 'planetscale', 'libsql'],
    rawPath: '$queryRawUnsafe(query) with @prisma/adapter-pg, -planetscale or -libsql',
    noTypedQuery:
      "Prisma's typed queries go through the models of the app's schema, and a probe has no schema",
    supported: { from: '7.0.0', below: '8.0.0' },
  },
  {
    id: 'drizzle',
    packageName: 'drizzle-orm',
    drivers: ['pg', 'mysql2', 'neon-http', 'neon-ws', 'planetscale', 'libsql'],
    rawPath: 'db.execute(sql.raw(query)) (libSQL: db.run)',
    typedQuery: 'db.select({ one: sql<number>`1` }).from(sql`(select 1) as probe`)',
    supported: { from: '0.45.0', below: '1.0.0' },
  },
  {
    id: 'kysely',
    packageName: 'kysely',
    drivers: ['pg', 'mysql2'],
    rawPath: 'sql.raw(query).execute(db) with PostgresDialect / MysqlDialect',
    typedQuery: "db.selectNoFrom(sql<number>`1`.as('one')).execute()",
    supported: { from: '0.28.0', below: '1.0.0' },
  },
];

export function isOrmLayer(value: unknown): value is OrmLayer {
  return typeof value === 'string' && (ORM_LAYERS as readonly string[]).includes(value);
}

export function isOrmQueryPath(value: unknown): value is OrmQueryPath {
  return typeof value === 'string' && (ORM_QUERY_PATHS as readonly string[]).includes(value);
}

export function layerInfo(id: OrmLayer): LayerInfo {
  const info = LAYER_CATALOG.find((entry) => entry.id === id);
  if (!info) throw new Error(`layer "${id}" is not in the catalog`);
  return info;
}

/** The layers that run over a driver, for errors and completion. */
export function layersOver(driver: string): OrmLayer[] {
  return LAYER_CATALOG.filter((entry) => entry.drivers.includes(driver)).map((entry) => entry.id);
}

/** The name a layered target's twin gets: the raw target keeps the user's name. */
export function layeredName(name: string, layer: OrmLayer): string {
  return `${name} · ${layer}`;
}

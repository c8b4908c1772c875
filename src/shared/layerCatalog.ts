/**
 * The ORM and query-builder layers a target can be measured through (`"orm"` on a target), the npm
 * package each is, and the drivers each runs over here. Pure data: validation, the docs test and the
 * layer loader (src/drivers/layers/) read it; a layer over a driver not listed is refused before
 * anything connects.
 */
export const ORM_LAYERS = ['prisma', 'drizzle', 'kysely'] as const;
export type OrmLayer = (typeof ORM_LAYERS)[number];

export interface LayerInfo {
  id: OrmLayer;
  /** The package whose version the result records. */
  packageName: string;
  /** Driver ids the layer runs over, on the driver's own connection. */
  drivers: readonly string[];
  /** How the workload goes through the layer, for docs and results. */
  rawPath: string;
}

export const LAYER_CATALOG: readonly LayerInfo[] = [
  {
    id: 'prisma',
    packageName: '@prisma/client',
    drivers: ['pg', 'planetscale', 'libsql'],
    rawPath: '$queryRawUnsafe(query) with @prisma/adapter-pg, -planetscale or -libsql',
  },
  {
    id: 'drizzle',
    packageName: 'drizzle-orm',
    drivers: ['pg', 'mysql2', 'neon-http', 'neon-ws', 'planetscale', 'libsql'],
    rawPath: 'db.execute(sql.raw(query)) (libSQL: db.run)',
  },
  {
    id: 'kysely',
    packageName: 'kysely',
    drivers: ['pg', 'mysql2'],
    rawPath: 'sql.raw(query).execute(db) with PostgresDialect / MysqlDialect',
  },
];

export function isOrmLayer(value: unknown): value is OrmLayer {
  return typeof value === 'string' && (ORM_LAYERS as readonly string[]).includes(value);
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

/**
 * A driver with an ORM layer over each connection it opens. `connect` opens the driver's own
 * connection (its sockets watched as usual) and starts the layer on its npm client, so `initial`
 * pays the layer's start; `query` sends the workload through the layer over that same socket, so
 * `subsequent` and the wire counts show what the layer adds per query.
 */
import type { Driver, DriverConnection } from '../../core/driver';
import { ProbeError } from '../../core/failure';
import { isOrmLayer, layerInfo, type OrmLayer, type OrmQueryPath } from '../../shared/layerCatalog';
import type { PackageLookup } from '../../shared/packageLookup';
import { layerImports } from './layerImport';
import type { LayerStarter } from './layerSession';

const STARTERS: Record<OrmLayer, () => Promise<LayerStarter>> = {
  drizzle: () => import('./drizzleLayer').then((m) => m.startDrizzle),
  kysely: () => import('./kyselyLayer').then((m) => m.startKysely),
  prisma: () => import('./prismaLayer').then((m) => m.startPrisma),
};

/**
 * `lookup` is the project the run loads packages from (the registry's): the layer's packages are the
 * project's own copies. `path` picks the layer's raw-SQL path or its typed query.
 */
export async function loadLayeredDriver(
  raw: Driver,
  layer: string,
  lookup: PackageLookup,
  path: OrmQueryPath = 'raw',
): Promise<Driver> {
  if (!isOrmLayer(layer)) throw new ProbeError('config', `unknown ORM layer "${layer}"`);
  const driverId = raw.info.id;
  if (!layerInfo(layer).drivers.includes(driverId))
    throw new ProbeError(
      'config',
      `${layer} does not run over driver ${driverId} here (it runs over ${layerInfo(layer).drivers.join(', ')}); remove "orm" or pick another driver`,
    );
  if (path === 'typed' && !layerInfo(layer).typedQuery)
    throw new ProbeError('config', `${layer} has no typed query here; remove "ormQuery" or set it to "raw"`);
  const start = await STARTERS[layer]();
  const imports = layerImports(layer, lookup);
  // Looked up before anything connects: a layer the project lacks is a setup error, not failed samples.
  imports.ensure(layerInfo(layer).packageName);
  /** The layer over an open connection; `owns`: closing it closes the connection too. */
  const startOver = async (conn: DriverConnection, owns: boolean): Promise<DriverConnection> => {
    if (conn.client === undefined) {
      if (owns) conn.destroy();
      throw new Error(`driver ${driverId} did not hand its client to the ${layer} layer`);
    }
    let session;
    try {
      session = await start(driverId, conn.client, imports);
    } catch (error) {
      if (owns) conn.destroy();
      throw error;
    }
    const typed = path === 'typed' ? session.typedQuery?.bind(session) : undefined;
    if (path === 'typed' && !typed) {
      await session.close().catch(() => undefined);
      if (owns) conn.destroy();
      throw new ProbeError(
        'config',
        `${layer} has no typed query over driver ${driverId}; set "ormQuery" to "raw"`,
      );
    }
    const started = session;
    return {
      // As an app's `await` takes the layer's answer: a layer's query may be a thenable of its own
      // (drizzle's and Prisma's are lazy ones, sent when `then` is first called), and `await` adopts
      // it through one more job, as Promise.resolve does (a native promise it returns as it is).
      // Calling the thenable's `then` directly skips that job: in one process on the 2-vCPU VM,
      // drizzle's cost read 1.5-3 µs (about a tenth) below `await`'s that way.
      query: (workload) => Promise.resolve(typed ? typed() : started.query(workload)),
      close: async () => {
        await started.close().catch(() => undefined);
        if (owns) await conn.close();
      },
      destroy: () => conn.destroy(),
      client: conn.client,
    };
  };
  return {
    ...raw,
    connect: async (options) => startOver(await raw.connect(options), true),
    over: (conn) => startOver(conn, false),
  };
}

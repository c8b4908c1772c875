/** Maps driver ids to their static info and a lazy loader, so no npm client loads until it is used. */
import type { Driver, DriverInfo, DriverRegistry } from '../core/driver';
import { DRIVER_CATALOG, isDriverId, type DriverId } from './catalog';
import { installedVersion } from './packageVersion';
import { isOrmLayer, layerInfo } from '../shared/layerCatalog';

type Loader = () => Promise<Driver>;

// One line per catalogued driver: the type makes a missing one a compile error. Each import() names
// the catalog entry's `module`; the build turns it into a separate lazy bundle (esbuild.js).
const LOADERS: Record<DriverId, Loader> = {
  pg: () => import('./pg').then((m) => m.pgDriver),
  mysql2: () => import('./mysql2').then((m) => m.mysql2Driver),
  ioredis: () => import('./ioredis').then((m) => m.ioredisDriver),
  libsql: () => import('./libsql').then((m) => m.libsqlDriver),
  'neon-http': () => import('./neonHttp').then((m) => m.neonHttpDriver),
  'neon-ws': () => import('./neonWs').then((m) => m.neonWsDriver),
  planetscale: () => import('./planetscale').then((m) => m.planetscaleDriver),
  mongodb: () => import('./mongodb').then((m) => m.mongodbDriver),
  upstash: () => import('./upstash').then((m) => m.upstashDriver),
  http: () => import('./http').then((m) => m.httpDriver),
};

export function createRegistry(catalog: readonly DriverInfo[] = DRIVER_CATALOG): DriverRegistry {
  const infos = new Map(catalog.filter((info) => isDriverId(info.id)).map((info) => [info.id, info]));
  const loaded = new Map<string, Promise<Driver>>();
  return {
    ids: () => [...infos.keys()],
    info: (id) => infos.get(id),
    load(id) {
      if (!infos.has(id) || !isDriverId(id)) return Promise.reject(new Error(`unknown driver "${id}"`));
      let driver = loaded.get(id);
      if (!driver) {
        driver = LOADERS[id]();
        // A failed load (missing package) may succeed after an install; do not cache it.
        driver.catch(() => loaded.delete(id));
        loaded.set(id, driver);
      }
      return driver;
    },
    packageVersion: (id) => {
      const info = infos.get(id);
      return info ? installedVersion(info.packageName) : undefined;
    },
    async loadLayer(id, layer) {
      const raw = await this.load(id);
      const { loadLayeredDriver } = await import('./layers/loadLayer');
      return loadLayeredDriver(raw, layer);
    },
    layerVersion: (layer) => (isOrmLayer(layer) ? installedVersion(layerInfo(layer).packageName) : undefined),
  };
}

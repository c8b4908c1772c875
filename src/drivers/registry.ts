/** Maps driver ids to their static info and a lazy loader, so no npm client loads until it is used. */
import type { Driver, DriverInfo, DriverRegistry } from '../core/driver';
import type { PackageLookup } from '../shared/packageLookup';
import { DRIVER_CATALOG, isDriverId, type DriverId } from './catalog';
import type { DriverVersion } from '../shared/result';
import { installedVersion } from './packageVersion';
import { isOrmLayer, layerInfo } from '../shared/layerCatalog';
import { NO_PROJECT, packageSourceFor, projectWords } from './packageSource';

type Loader = () => Promise<Driver>;

/** Packages that are dbprobe's own transport, not an app's database client. */
const TRANSPORT_PACKAGES = new Set(['undici', 'ws']);

function ownsClientPackage(info: DriverInfo): boolean {
  return !TRANSPORT_PACKAGES.has(info.packageName);
}

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

/**
 * `lookup` names the project whose installed driver packages a run uses (packageSource.ts); without
 * one, the bundled copies. A function is read at each load: the editor's workspace and its trust
 * change while the registry lives.
 */
export function createRegistry(
  catalog: readonly DriverInfo[] = DRIVER_CATALOG,
  lookup: PackageLookup | (() => PackageLookup | undefined) = NO_PROJECT,
): DriverRegistry {
  const infos = new Map(catalog.filter((info) => isDriverId(info.id)).map((info) => [info.id, info]));
  const modules = new Map<string, Promise<Driver>>();
  const ready = new Map<string, Driver>();
  const currentLookup = () => (typeof lookup === 'function' ? lookup() : lookup) ?? NO_PROJECT;
  return {
    ids: () => [...infos.keys()],
    info: (id) => infos.get(id),
    async load(id) {
      if (!infos.has(id) || !isDriverId(id)) throw new Error(`unknown driver "${id}"`);
      let module = modules.get(id);
      if (!module) {
        module = LOADERS[id]();
        // A failed load may succeed after a rebuild or an install; do not cache it.
        module.catch(() => modules.delete(id));
        modules.set(id, module);
      }
      const driver = await module;
      // The npm clients are chosen (project or bundled) before the first connect is timed; a second
      // load for the same project is free, another project's loads its own copies.
      const packages = currentLookup();
      await Promise.all((driver.packages ?? []).map((p) => p.load(packages)));
      ready.set(id, driver);
      return driver;
    },
    packageSource: (id): DriverVersion | undefined => {
      const info = infos.get(id);
      if (!info) return undefined;
      const chosen = ready.get(id)?.packages?.find((p) => p.name === info.packageName)?.source;
      if (chosen) return chosen;
      // A driver whose package is dbprobe's own transport (undici) loads nothing from the project.
      if (!ownsClientPackage(info)) {
        const version = installedVersion(info.packageName);
        return version ? { package: info.packageName, version } : undefined;
      }
      return packageSourceFor(info.packageName, currentLookup());
    },
    async loadLayer(id, layer, path) {
      const raw = await this.load(id);
      const { loadLayeredDriver } = await import('./layers/loadLayer');
      // The layer is the app's: loaded from the same project folders as the drivers' clients.
      return loadLayeredDriver(raw, layer, currentLookup(), path);
    },
    layerVersion: (layer) => {
      if (!isOrmLayer(layer)) return undefined;
      const lookup = currentLookup();
      const source = packageSourceFor(layerInfo(layer).packageName, lookup);
      // A layer is never bundled: a copy beside dbprobe is not the one the run would load.
      return source?.source === 'project'
        ? { version: source.version, from: projectWords(lookup) }
        : undefined;
    },
  };
}

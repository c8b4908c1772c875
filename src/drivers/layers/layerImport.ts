/**
 * The one place an ORM layer's packages are loaded. They are the app's, not the tool's: each is
 * loaded from the project the run names (src/drivers/packageSource.ts), as the app's own `require`
 * finds it, and nothing bundled stands in: without the project's copy the run says what to install.
 * Each specifier is resolved once per layered driver, so no connect pays a lookup on disk.
 */
import { ProbeError } from '../../core/failure';
import type { PackageLookup } from '../../shared/packageLookup';
import type { DriverPackageSource } from '../../shared/result';
import { loadFromProject, locateInProject, packageNameOf, projectWords } from '../packageSource';

export interface LayerImports {
  /** The project's copy of `specifier` (a package or a subpath), loaded once. */
  load<T>(specifier: string): Promise<T>;
  /** Which copy of `name` was loaded (after load). */
  sourceOf(name: string): DriverPackageSource | undefined;
  /** Throws what to install when the project has no `name`, without loading it. */
  ensure(name: string): void;
}

export function layerImports(layer: string, lookup: PackageLookup): LayerImports {
  const loaded = new Map<string, Promise<{ module: unknown; source: DriverPackageSource }>>();
  const sources = new Map<string, DriverPackageSource>();
  return {
    async load<T>(specifier: string): Promise<T> {
      let pending = loaded.get(specifier);
      if (!pending) {
        pending = loadOrExplain(specifier, layer, lookup);
        pending.catch(() => loaded.delete(specifier));
        loaded.set(specifier, pending);
      }
      const { module, source } = await pending;
      sources.set(source.package, source);
      return module as T;
    },
    sourceOf: (name) => sources.get(name),
    ensure(name) {
      if (!locateInProject(name, lookup.projectDirs)) throw missing(name, layer, lookup);
    },
  };
}

async function loadOrExplain(
  specifier: string,
  layer: string,
  lookup: PackageLookup,
): Promise<{ module: unknown; source: DriverPackageSource }> {
  const name = packageNameOf(specifier);
  let found;
  try {
    found = await loadFromProject<unknown>(specifier, lookup);
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error);
    // The layer's module loads a package of its own (drizzle over PlanetScale needs
    // @planetscale/database): that one is what to install, not the layer again.
    const needed = /Cannot find (?:module|package) '([^']+)'/.exec(reason ?? '')?.[1];
    const peer = needed !== undefined && !needed.startsWith('.') ? packageNameOf(needed) : undefined;
    if (peer !== undefined && peer !== name)
      throw new ProbeError(
        'config',
        `the "${layer}" layer's ${specifier} needs ${peer}, which is not installed in ${projectWords(lookup)}; install it (npm install ${peer}), or remove "orm" from the target`,
      );
    throw new ProbeError(
      'config',
      `the "${layer}" layer could not load ${specifier} from ${projectWords(lookup)} (${reason}); reinstall it (npm install ${name}), or remove "orm" from the target`,
    );
  }
  if (found) return found;
  throw missing(name, layer, lookup);
}

function missing(name: string, layer: string, lookup: PackageLookup): ProbeError {
  const where =
    lookup.projectDirs.length > 0
      ? `is not installed in ${projectWords(lookup)} (looked from ${lookup.projectDirs.join(', ')})`
      : `cannot be looked up: this run names no project folder${lookup.bundledBecause ? ` (${lookup.bundledBecause})` : ''}`;
  return new ProbeError(
    'config',
    `the "${layer}" layer runs your project's own ${name}, which ${where}; install it in your project (npm install ${name}), or remove "orm" from the target`,
  );
}

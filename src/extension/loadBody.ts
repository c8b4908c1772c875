/**
 * Loads the extension's core (core.ts) on first use, once. In the shipped build the import below is
 * the separate bundle dist/extensionCore.js (esbuild.js's lazyCorePlugin), so activation never parses
 * the stores, panels, engine or heartbeat; under tsx it is core.ts itself.
 */
import type { Core, Shell } from './body';

let loading: Promise<Core> | undefined;
let loaded: Core | undefined;

export function loadCore(shell: Shell): Promise<Core> {
  loading ??= import('./body').then((module) => {
    loaded = module.createCore(shell);
    return loaded;
  });
  // A failed load (a broken install) is tried again on the next use rather than remembered.
  loading.catch(() => (loading = undefined));
  return loading;
}

/** The core if something already loaded it: for work that only matters once it exists. */
export function coreIfLoaded(): Core | undefined {
  return loaded;
}

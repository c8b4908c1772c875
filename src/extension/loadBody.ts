/**
 * Loads the extension's body (body.ts) on first use, once. In the shipped build the import below is
 * the separate bundle dist/extensionBody.js (esbuild.js's lazyBodyPlugin), so activation never parses
 * the stores, panels, engine or heartbeat; under tsx it is body.ts itself.
 */
import type { ExtensionBody, Shell } from './body';

let loading: Promise<ExtensionBody> | undefined;
let loaded: ExtensionBody | undefined;

export function loadBody(shell: Shell): Promise<ExtensionBody> {
  loading ??= import('./body').then((module) => {
    loaded = module.createBody(shell);
    return loaded;
  });
  // A failed load (a broken install) is tried again on the next use rather than remembered.
  loading.catch(() => (loading = undefined));
  return loading;
}

/** The body if something already loaded it: for work that only matters once it exists. */
export function bodyIfLoaded(): ExtensionBody | undefined {
  return loaded;
}

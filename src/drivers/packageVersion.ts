/** Reads an installed package's version from its package.json without loading the package. */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';

/** Bundles that inline drivers inject their versions at build time (esbuild `define`). */
declare const __DBPROBE_DRIVER_VERSIONS__: Record<string, string> | undefined;

export function installedVersion(packageName: string): string | undefined {
  const injected =
    typeof __DBPROBE_DRIVER_VERSIONS__ === 'undefined' ? undefined : __DBPROBE_DRIVER_VERSIONS__;
  if (injected?.[packageName]) return injected[packageName];
  let dirs: string[] = [];
  try {
    dirs = require.resolve.paths(packageName) ?? [];
  } catch {
    // No CommonJS resolver here (a Worker bundle): only injected versions are known.
  }
  for (const dir of dirs) {
    try {
      const manifest = JSON.parse(readFileSync(path.join(dir, packageName, 'package.json'), 'utf8')) as {
        version?: unknown;
      };
      if (typeof manifest.version === 'string') return manifest.version;
    } catch {
      // Not in this node_modules folder; try the next one up.
    }
  }
  return undefined;
}

// The driver catalog (src/drivers/catalog.ts) for the build and lint configs, which are plain JS:
// compiled on the fly with esbuild so the TypeScript catalog stays the single source of driver ids.
const esbuild = require('esbuild');
const path = require('node:path');

let cached;

/** @returns {readonly import('../../src/core/driver').DriverInfo[]} */
function loadDriverCatalog() {
  if (cached) return cached;
  const built = esbuild.buildSync({
    entryPoints: [path.join(__dirname, '..', '..', 'src', 'drivers', 'catalog.ts')],
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'node',
    logLevel: 'silent',
  });
  const module = { exports: {} };
  new Function('module', 'exports', 'require', built.outputFiles[0].text)(module, module.exports, require);
  cached = module.exports.DRIVER_CATALOG;
  return cached;
}

/** Import specifiers of every driver's npm packages (and their subpaths), for no-restricted-imports. */
function driverPackagePatterns() {
  const names = new Set(loadDriverCatalog().flatMap((info) => info.packages));
  return [...names].flatMap((name) => [name, `${name}/*`]);
}

module.exports = { loadDriverCatalog, driverPackagePatterns };

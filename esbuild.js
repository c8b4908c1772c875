// One esbuild script with a context per bundle (vscode-eslint's pattern). `node esbuild.js [--watch] [--production]`.
const esbuild = require('esbuild');
const fs = require('node:fs');
const path = require('node:path');
const { loadDriverCatalog } = require('./scripts/build/driverCatalog.cjs');

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** Native packages a driver needs at run time: kept out of the bundle, copied to dist/node_modules. */
const NATIVE_PACKAGES = ['libsql'];
/**
 * Packages several driver bundles use: bundled once, on their own, as dist/node_modules/<name>/index.js
 * (where every dist/drivers/*.js finds them), instead of once per driver. undici is 400 kB minified
 * and five HTTP drivers use it: sharing it keeps each VSIX well under its size budget.
 */
const SHARED_PACKAGES = ['undici'];
/** Optional requires of driver clients that are not installed; they fail softly at run time. */
const OPTIONAL_PEERS = [
  'pg-native',
  'cloudflare:sockets',
  'bufferutil',
  'utf-8-validate',
  'kerberos',
  '@mongodb-js/zstd',
  'snappy',
  'socks',
  'aws4',
  'mongodb-client-encryption',
  'gcp-metadata',
  '@aws-sdk/credential-providers',
];

/** What packages/cli/package.json lists as dependencies: dbprobe's own, installed beside it. */
const CLI_PACKAGE_DEPENDENCIES = Object.keys(
  JSON.parse(fs.readFileSync(path.join(__dirname, 'packages', 'cli', 'package.json'), 'utf8')).dependencies,
);

/** @type {Record<string, import('esbuild').BuildOptions>} */
const bundles = {
  // The CLI, and its probing thread (dist/cliThread.js: the probe thread's entry, started once per
  // thread when a load run spreads over several, `--threads`).
  cli: {
    entryPoints: { cli: 'src/cli/main.ts', cliThread: 'src/probeThread/probeThreadEntry.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // The CLI runs from an npm install: drivers (one has a native module) load from node_modules.
    packages: 'external',
  },
  // The VS Code extension host bundle. Drivers are bundled, but each into its own file under
  // dist/drivers/ that the registry's lazy import() loads on first use: activation never parses them.
  // The probe thread (dist/probeWorker.js, a worker_threads entry) is built with it: it sits beside
  // dist/drivers/ and dist/node_modules/, so the same lazy driver bundles and libSQL's engine resolve.
  // dist/extension.js is only what activation needs (registrations); dist/extensionBody.js, the rest,
  // loads on first use (src/extension/loadBody.ts). main() prints the entry's size (budget 60 KB).
  extension: {
    entryPoints: {
      extension: 'src/extension/main.ts',
      extensionBody: 'src/extension/body.ts',
      probeWorker: 'src/probeThread/probeThreadEntry.ts',
      ...driverEntryPoints(),
      ...sharedPackageEntryPoints(),
    },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: ['vscode', ...NATIVE_PACKAGES, ...SHARED_PACKAGES, ...OPTIONAL_PEERS],
    define: { __DBPROBE_DRIVER_VERSIONS__: JSON.stringify(driverVersions()) },
    plugins: [
      lazyDriversPlugin(),
      lazyBodyPlugin(),
      shipNativePackagesPlugin(),
      sharedPackageManifestsPlugin(),
    ],
  },
  // The run panel's script: a browser bundle with chart.js inside (the CSP allows no CDN).
  webview: {
    entryPoints: ['webview/main.ts'],
    outfile: 'dist/webview.js',
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
  },
  // The runner as a Node server (bin dbprobe-runner); like the CLI, drivers load from node_modules.
  runner: {
    entryPoints: { runner: 'src/runner/main.ts', runnerThread: 'src/probeThread/probeThreadEntry.ts' },
    outdir: 'dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
  },
  // The installable CLI package (packages/cli, `npm pack` there): the same CLI and runner, without
  // source maps (the tarball stays small; the code is not minified, so stack traces stay readable).
  // The database clients are optional peer dependencies: a run loads the project's own copy
  // (src/drivers/packageSource.ts), so installing the CLI never changes the app's driver. A copy of
  // each is bundled into its driver's lazy file (dist/drivers/<module>.js, as in the extension) and
  // stands in when the project has none. dbprobe's own packages (histograms, undici, ws) stay
  // dependencies.
  'cli-package': {
    entryPoints: {
      cli: 'src/cli/main.ts',
      runner: 'src/runner/main.ts',
      cliThread: 'src/probeThread/probeThreadEntry.ts',
      runnerThread: 'src/probeThread/probeThreadEntry.ts',
    },
    outdir: 'packages/cli/dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: [...CLI_PACKAGE_DEPENDENCIES, ...NATIVE_PACKAGES, ...OPTIONAL_PEERS],
    define: { __DBPROBE_DRIVER_VERSIONS__: JSON.stringify(driverVersions()) },
    plugins: [lazyDriversPlugin()],
    sourcemap: false,
  },
  // Its drivers, each with the bundled copy of its client: minified, as they are mostly the clients'
  // own code (the package's unpacked size stays within its budget; test/integration/package-cli).
  'cli-package-drivers': {
    entryPoints: driverEntryPoints(),
    outdir: 'packages/cli/dist',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    external: [...CLI_PACKAGE_DEPENDENCIES, ...NATIVE_PACKAGES, ...OPTIONAL_PEERS],
    define: { __DBPROBE_DRIVER_VERSIONS__: JSON.stringify(driverVersions()) },
    minify: true,
    sourcemap: false,
  },
  // The overhead benchmark, built like the shipped bundles (tsx would add its own helpers to the
  // engine's hot path and overstate the overhead).
  'bench-overhead': {
    entryPoints: ['scripts/bench/overhead.ts'],
    outfile: 'dist/bench/overhead.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
  },
  // The memory benchmark: the engine over a million samples per driver, built like the overhead one.
  'bench-memory': {
    entryPoints: ['scripts/bench/memory.ts'],
    outfile: 'dist/bench/memory.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
  },
  // The load benchmark: the engine's closed-model load against a raw pg.Pool loop.
  'bench-load': {
    entryPoints: ['scripts/bench/load.ts'],
    outfile: 'dist/bench/load.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
  },
  // The ORM layer's engine-and-loop pairs in one process (scripts/bench/verdict.ts runs it).
  'bench-orm-in-process': {
    entryPoints: ['scripts/bench/ormInProcess.ts'],
    outfile: 'dist/bench/ormInProcess.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
  },
  // Platform entry points. Vercel and Lambda deploy with node_modules (npm clients stay external).
  'runner-vercel': {
    entryPoints: ['src/runner/entries/vercel.ts'],
    outfile: 'dist/runner-vercel.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
  },
  'runner-lambda': {
    entryPoints: ['src/runner/entries/lambda.ts'],
    outfile: 'dist/runner-lambda.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    packages: 'external',
  },
  // A Worker has no node_modules and no sockets for TCP clients: one ESM file with the HTTP drivers
  // only, fetch-based sessions, and Node built-ins left to the `nodejs_compat` flag.
  'runner-cloudflare': {
    entryPoints: ['src/runner/entries/cloudflare.ts'],
    outfile: 'dist/runner-cloudflare.mjs',
    platform: 'neutral',
    format: 'esm',
    target: 'es2022',
    mainFields: ['module', 'main'],
    conditions: ['workerd', 'worker', 'browser', 'import'],
    external: ['node:*'],
    define: { __DBPROBE_DRIVER_VERSIONS__: JSON.stringify(driverVersions()) },
    plugins: [workersOnlyPlugin()],
  },
};

/**
 * For the Worker bundle: TCP drivers become a module that says why they are missing, and the undici
 * HTTP session becomes the fetch-based one.
 */
function workersOnlyPlugin() {
  const tcpDrivers = new Set(
    loadDriverCatalog()
      .filter((info) => !info.runsOnWorkers)
      .map((info) => info.module),
  );
  return {
    name: 'workers-only',
    setup(build) {
      build.onResolve({ filter: /^\.\/[\w.-]+$/ }, (args) => {
        const name = args.path.slice(2);
        if (!args.importer.includes(`${path.sep}src${path.sep}drivers${path.sep}`)) return undefined;
        if (name === 'httpSession') return { path: path.resolve('src/drivers/httpSessionFetch.ts') };
        if (tcpDrivers.has(name) && args.kind === 'dynamic-import')
          return { path: name, namespace: 'workers-missing' };
        return undefined;
      });
      // libSQL's embedded engine is native code: a Worker probes libSQL over HTTP or WebSocket only.
      build.onResolve({ filter: /^@libsql\/client\/sqlite3$/ }, () => ({
        path: 'libsql',
        namespace: 'workers-no-engine',
      }));
      build.onLoad({ filter: /.*/, namespace: 'workers-no-engine' }, () => ({
        contents: `throw new Error('libSQL file: databases need a native engine, which a Cloudflare Worker runner cannot load; probe a libsql://, https:// or wss:// URL, or use a Node runner');`,
        loader: 'js',
      }));
      build.onLoad({ filter: /.*/, namespace: 'workers-missing' }, (args) => ({
        contents: `throw new Error('driver module ${args.path} needs TCP sockets, which a Cloudflare Worker runner does not offer; use an HTTP driver or a Node runner');`,
        loader: 'js',
      }));
    },
  };
}

/** One lazy bundle per catalogued driver module: dist/drivers/<module>.js. */
function driverEntryPoints() {
  return Object.fromEntries(
    loadDriverCatalog().map((info) => [`drivers/${info.module}`, `src/drivers/${info.module}.ts`]),
  );
}

/** dist/node_modules/<name>/index: each shared package bundled from its installed entry point. */
function sharedPackageEntryPoints() {
  return Object.fromEntries(
    SHARED_PACKAGES.map((name) => [`node_modules/${name}/index`, require.resolve(name)]),
  );
}

/** Gives each shared package bundle the package.json that makes `require(name)` find it. */
function sharedPackageManifestsPlugin() {
  return {
    name: 'shared-package-manifests',
    setup(build) {
      build.onEnd((result) => {
        if (result.errors.length > 0) return;
        for (const name of SHARED_PACKAGES) {
          const { version, license } = require(`${name}/package.json`);
          // dbprobeShared: scripts/package/vsix.ts ships the packages so marked in every VSIX.
          const manifest = { name, version, license, main: 'index.js', private: true, dbprobeShared: true };
          fs.writeFileSync(
            path.join('dist', 'node_modules', name, 'package.json'),
            `${JSON.stringify(manifest, null, 2)}\n`,
          );
        }
      });
    },
  };
}

/** Installed version of every catalogued driver package, for results (the bundle has no package.json). */
function driverVersions() {
  const versions = {};
  for (const info of loadDriverCatalog()) {
    try {
      versions[info.packageName] = require(`${info.packageName}/package.json`).version;
    } catch {
      // Not installed (or no exported package.json): the driver reports "not installed" itself.
      const manifest = path.join('node_modules', info.packageName, 'package.json');
      if (fs.existsSync(manifest))
        versions[info.packageName] = JSON.parse(fs.readFileSync(manifest, 'utf8')).version;
    }
  }
  return versions;
}

/** Makes the registry's `import('./pg')` load the separate bundle dist/drivers/pg.js at run time. */
function lazyDriversPlugin() {
  const registry = path.resolve('src/drivers/registry.ts');
  return {
    name: 'lazy-drivers',
    setup(build) {
      build.onResolve({ filter: /^\.\/[\w.-]+$/ }, (args) => {
        if (args.kind !== 'dynamic-import' || path.resolve(args.importer) !== registry) return undefined;
        return { path: `./drivers/${args.path.slice(2)}.js`, external: true };
      });
    },
  };
}

/** Makes loadBody's `import('./body')` load the separate bundle dist/extensionBody.js at run time. */
function lazyBodyPlugin() {
  const loader = path.resolve('src/extension/loadBody.ts');
  return {
    name: 'lazy-body',
    setup(build) {
      build.onResolve({ filter: /^\.\/body$/ }, (args) => {
        if (args.kind !== 'dynamic-import' || path.resolve(args.importer) !== loader) return undefined;
        return { path: './extensionBody.js', external: true };
      });
    },
  };
}

/** What activation loads: dist/extension.js must stay small (the entry budget: 60 KB). */
const ENTRY_BUDGET_BYTES = 60 * 1024;

function printEntrySize() {
  const bytes = fs.statSync(path.join('dist', 'extension.js')).size;
  const size = `extension entry bundle dist/extension.js: ${(bytes / 1024).toFixed(1)} KB`;
  const budget = `${ENTRY_BUDGET_BYTES / 1024} KB activation budget`;
  // A development build is unminified: its size says nothing of the budget,
  // which is the minified entry's (test/unit/extension-entry.test.ts builds and checks that one).
  if (!production) {
    console.error(
      `${size} (development build, unminified; the ${budget} is checked on the --production build)`,
    );
    return;
  }
  console.error(`${size} (${bytes <= ENTRY_BUDGET_BYTES ? 'within' : 'OVER'} the ${budget})`);
}

/**
 * Copies each native package, with the dependencies it needs on this platform, to dist/node_modules,
 * where the driver bundles find them in development builds (F5, tests that load dist/drivers). The
 * .vsix packages do not take this copy: scripts/package/vsix.ts stages each target's own.
 */
function shipNativePackagesPlugin() {
  return {
    name: 'ship-native-packages',
    setup(build) {
      build.onEnd((result) => {
        if (result.errors.length > 0) return;
        const wanted = new Set();
        for (const name of NATIVE_PACKAGES) collectPackage(name, wanted);
        for (const name of wanted) {
          const from = path.join('node_modules', name);
          const to = path.join('dist', 'node_modules', name);
          const version = (dir) => {
            try {
              return JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8')).version;
            } catch {
              return undefined;
            }
          };
          if (version(to) && version(to) === version(from)) continue;
          fs.rmSync(to, { recursive: true, force: true });
          fs.cpSync(from, to, { recursive: true, dereference: true });
        }
      });
    },
  };
}

function collectPackage(name, into) {
  if (into.has(name)) return;
  const manifestPath = path.join('node_modules', name, 'package.json');
  if (!fs.existsSync(manifestPath)) return;
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  if (!suitsThisMachine(manifest)) return;
  into.add(name);
  const deps = { ...manifest.dependencies, ...manifest.optionalDependencies };
  for (const dep of Object.keys(deps)) collectPackage(dep, into);
}

/** Prebuilt-binary packages list os/cpu; their names say the libc (…-gnu, …-musl). */
function suitsThisMachine(manifest) {
  if (Array.isArray(manifest.os) && !manifest.os.includes(process.platform)) return false;
  if (Array.isArray(manifest.cpu) && !manifest.cpu.includes(process.arch)) return false;
  if (process.platform === 'linux' && /-(gnu|musl)(eabihf)?$/.test(manifest.name)) {
    const musl = !process.report?.getReport().header?.glibcVersionRuntime;
    return manifest.name.includes('-musl') === musl;
  }
  return true;
}

async function main() {
  const only = process.argv
    .find((arg) => arg.startsWith('--only='))
    ?.slice('--only='.length)
    .split(',');
  const names = Object.keys(bundles).filter((name) => !only || only.includes(name));
  const contexts = await Promise.all(
    names.map((name) =>
      esbuild.context({
        bundle: true,
        sourcemap: !production,
        minify: production,
        logLevel: 'warning',
        ...bundles[name],
      }),
    ),
  );
  if (watch) {
    await Promise.all(contexts.map((ctx) => ctx.watch()));
    console.error(`watching ${names.join(', ')}`);
    return;
  }
  await Promise.all(contexts.map((ctx) => ctx.rebuild()));
  await Promise.all(contexts.map((ctx) => ctx.dispose()));
  if (names.includes('extension')) printEntrySize();
}

module.exports = { bundles, driverEntryPoints };

if (require.main === module) {
  main().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}

// One esbuild script with a context per bundle (vscode-eslint's pattern). `node esbuild.js [--watch] [--production]`.
const esbuild = require('esbuild');

const watch = process.argv.includes('--watch');
const production = process.argv.includes('--production');

/** @type {Record<string, import('esbuild').BuildOptions>} */
const bundles = {
  cli: {
    entryPoints: ['src/cli/main.ts'],
    outfile: 'dist/cli.js',
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // The CLI runs from an npm install: drivers (one has a native module) load from node_modules.
    packages: 'external',
  },
};

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
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

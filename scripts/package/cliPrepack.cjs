// `npm pack` (and `npm publish`) in packages/cli run this first: it builds the CLI package from the
// repository's sources and puts the LICENSE, the CHANGELOG and the JSON schemas beside it, so a
// pack from a fresh clone is a working package. Plain Node (no tsx): it must run, and explain
// itself, before `npm ci`. `--root`: the repository root's `npm pack`, which is refused (the root
// is the VS Code extension; its package is the .vsix).
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const PACKAGE_DIR = path.join(ROOT, 'packages', 'cli');
/** Files of the repository the package ships, as [from, to] relative to the root and the package. */
const SHIPPED = [
  ['LICENSE', 'LICENSE'],
  ['CHANGELOG.md', 'CHANGELOG.md'],
  ['schema/dbprobe.schema.json', 'schema/dbprobe.schema.json'],
  ['schema/run-result.schema.json', 'schema/run-result.schema.json'],
];

function refuse(message) {
  process.stderr.write(`dbprobe prepack: ${message}\n`);
  process.exit(1);
}

function hasDependencies() {
  try {
    require.resolve('esbuild', { paths: [ROOT] });
    return true;
  } catch {
    return false;
  }
}

function main() {
  if (process.argv.includes('--root'))
    refuse(
      'the repository root is the VS Code extension, not an npm package: `npm run package` builds its ' +
        '.vsix files. The dbprobe CLI package is packages/cli: run `npm pack` there.',
    );
  if (!fs.existsSync(path.join(ROOT, 'esbuild.js')))
    refuse(
      `${PACKAGE_DIR} is packed from the dbprobe repository, which builds it; esbuild.js is not at ${ROOT}. ` +
        'Clone the whole repository and run `npm pack` in its packages/cli.',
    );
  if (!hasDependencies())
    refuse(
      "the package is built from the repository's sources, which needs the repository's dependencies, " +
        `and they are not installed. Run \`npm ci\` in ${ROOT}, then \`npm pack\` here again.`,
    );
  // esbuild resolves the bundle's entry points from the working directory: the root's, always.
  execFileSync(process.execPath, [path.join(ROOT, 'esbuild.js'), '--only=cli-package,cli-package-drivers'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
  for (const [from, to] of SHIPPED) {
    fs.mkdirSync(path.dirname(path.join(PACKAGE_DIR, to)), { recursive: true });
    fs.copyFileSync(path.join(ROOT, from), path.join(PACKAGE_DIR, to));
  }
}

main();

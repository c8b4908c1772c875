// The CLI's release artifact: `npm run release:cli` packs packages/cli (its prepack builds it from
// this checkout) into release/dbprobe-VERSION.tgz with a .sha256 beside it. That tarball is what
// `npm publish` uploads and what a GitHub release carries; the GitHub Action installs exactly it by
// its pinned version (packages/cli/action/install.mjs) instead of building the tool on every job.
// Prints the tarball's absolute path as the last line of stdout. `--out DIR` writes elsewhere.
// Plain Node (no tsx), like the prepack it runs.
const { execFileSync } = require('node:child_process');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');
const PACKAGE_DIR = path.join(ROOT, 'packages', 'cli');

function fail(message) {
  process.stderr.write(`dbprobe release: ${message}\n`);
  process.exit(1);
}

function outDir() {
  const at = process.argv.indexOf('--out');
  if (at === -1) return path.join(ROOT, 'release');
  const dir = process.argv[at + 1];
  if (!dir) fail('--out takes a folder, e.g. --out release');
  return path.resolve(dir);
}

function main() {
  const cli = JSON.parse(fs.readFileSync(path.join(PACKAGE_DIR, 'package.json'), 'utf8'));
  const root = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8'));
  // The Action pins the CLI by packages/cli's version; the extension ships the same engine.
  if (cli.version !== root.version)
    fail(
      `packages/cli is ${cli.version} but the repository is ${root.version}: set both to one version before a release`,
    );
  const dir = outDir();
  fs.mkdirSync(dir, { recursive: true });
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
  const packed = execFileSync(npm, ['pack', '--json', '--pack-destination', dir], {
    cwd: PACKAGE_DIR,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    shell: process.platform === 'win32',
  });
  const [info] = JSON.parse(packed);
  if (!info || info.version !== cli.version) fail(`npm pack did not report dbprobe ${cli.version}`);
  const tarball = path.join(dir, info.filename);
  const sha256 = createHash('sha256').update(fs.readFileSync(tarball)).digest('hex');
  fs.writeFileSync(`${tarball}.sha256`, `${sha256}  ${info.filename}\n`);
  process.stderr.write(
    `dbprobe release: ${info.filename} (${(info.size / 1024).toFixed(1)} kB, ${info.files.length} files), sha256 ${sha256}\n` +
      `  publish: npm publish ${path.relative(process.cwd(), tarball)}\n` +
      `  GitHub:  attach it to the release v${cli.version}; the Action at that tag installs dbprobe@${cli.version}\n`,
  );
  process.stdout.write(`${tarball}\n`);
}

main();

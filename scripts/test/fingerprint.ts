/**
 * What a test file's result depends on, as one hash (scripts/test/passes.ts keeps the hash of each
 * file's last pass, and a later run of an unchanged file is not repeated).
 *
 * Erring on the side of running: a file's fingerprint covers
 * - the test file and every source file it imports, transitively (relative imports, type-only ones
 *   too, read with the TypeScript compiler's pre-processor, as the cycle check does);
 * - every source file of `src/` and `webview/`, when the file or anything it imports names `dist`
 *   or `release/` (it runs a built bundle: the CLI, the runner, the probe thread, the VSIX, the
 *   release tarball the Action installs), since a bundle holds nearly all of them;
 * - the ground every file stands on: every file of the checkout that is not a TypeScript source of
 *   `src/`, `webview/` or a test folder (package.json and the lockfile, the build scripts, the
 *   testbed's servers and fixtures, test helpers and fixtures, schemas, the manifest, media), less
 *   the prose (`docs/`, the top-level Markdown), `bench-results/` and the test runner and docs tools;
 * - the Node version and the phase.
 * A file only reached by path at run time (a fixture started as a process, a stand-in the testbed
 * bundles) is in the ground, so a change to it runs every file again.
 */
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { importGraph } from '../check/cycles';

/** TypeScript sources whose dependents are found by their imports; everything else is ground. */
const SOURCE_ROOTS = ['src/', 'webview/', 'test/unit/', 'test/cli/', 'test/integration/', 'test/e2e/'];
/**
 * Never an input of a test in the slow phases: prose, recorded benchmark figures, and the tools that
 * run the tests and write the docs (how a file is run, not what it checks; a test that imports one
 * still has it among its inputs).
 */
const NOT_INPUTS = [
  'docs/',
  'bench-results/',
  'README.md',
  'CONTRIBUTING.md',
  'scripts/test/',
  'scripts/test.sh',
  'scripts/docs/',
];

const isSource = (rel: string) => rel.endsWith('.ts') && SOURCE_ROOTS.some((root) => rel.startsWith(root));
const isBuilt = (rel: string) => rel.startsWith('src/') || rel.startsWith('webview/');

/** The checkout's files (tracked, plus new ones git does not ignore), relative to the root. */
function checkoutFiles(root: string): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  });
  return [...new Set(out.toString('utf8').split('\0'))].filter(
    (f) => f !== '' && fs.existsSync(path.join(root, f)),
  );
}

export class Fingerprints {
  private readonly hashes = new Map<string, string>();
  private readonly graph: Map<string, string[]>;
  private readonly ground: string;
  private readonly built: string[];

  constructor(
    private readonly root: string,
    private readonly phase: string,
  ) {
    const files = checkoutFiles(root);
    const sources = files.filter(isSource);
    // The graph takes every TypeScript file, so a test's imports are followed through the helpers
    // and fixtures (which are ground themselves) into src/.
    this.graph = importGraph(files.filter((f) => f.endsWith('.ts')).map((f) => path.join(root, f)));
    this.built = sources.filter(isBuilt);
    const groundFiles = files.filter((f) => !isSource(f) && !NOT_INPUTS.some((p) => f.startsWith(p))).sort();
    this.ground = this.digest(groundFiles);
  }

  /** The fingerprint of one test file (a path relative to the root or absolute). */
  of(file: string): string {
    return createHash('sha256')
      .update(`${process.version}\n${this.phase}\n${this.ground}\n`)
      .update(this.digest(this.inputs(file)))
      .digest('hex');
  }

  /** The source files a test file's result depends on, beside the ground (sorted, relative). */
  inputs(file: string): string[] {
    const start = path.resolve(this.root, file);
    const closure = new Set<string>([start]);
    const queue = [start];
    for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
      for (const dep of this.graph.get(next) ?? []) {
        if (!closure.has(dep)) {
          closure.add(dep);
          queue.push(dep);
        }
      }
    }
    const rel = [...closure].map((f) => path.relative(this.root, f));
    const runsBundles = rel.some((f) => this.namesDist(f));
    return [...new Set([...rel, ...(runsBundles ? this.built : [])])].sort();
  }

  /** Names a built bundle: `dist/`, or `release/`, where the release script packs dist/ (the Action's test). */
  private namesDist(rel: string): boolean {
    const text = fs.readFileSync(path.join(this.root, rel), 'utf8');
    return ["'dist'", '"dist"', 'dist/', 'release/'].some((name) => text.includes(name));
  }

  /** One hash over the files' paths and contents (each file read once per run). */
  private digest(files: readonly string[]): string {
    const hash = createHash('sha256');
    for (const f of files) hash.update(`${f}\0${this.fileHash(f)}\n`);
    return hash.digest('hex');
  }

  private fileHash(rel: string): string {
    let h = this.hashes.get(rel);
    if (h === undefined) {
      h = createHash('sha256')
        .update(fs.readFileSync(path.join(this.root, rel)))
        .digest('hex');
      this.hashes.set(rel, h);
    }
    return h;
  }
}

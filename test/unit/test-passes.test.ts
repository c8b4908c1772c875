/**
 * The test runner leaves out slow-phase files unchanged since their last pass
 * (scripts/test/fingerprint.ts, passes.ts): what changes a file's fingerprint and what does not, on a
 * small checkout of its own, and when every file runs regardless.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { Fingerprints } from '../../scripts/test/fingerprint';
import { PassLog, reusePolicy } from '../../scripts/test/passes';
import { tempDir } from '../helpers/tempDir';

const TEST = 'test/integration/probe.test.ts';
const BUNDLE_TEST = 'test/integration/cli.test.ts';

function checkout(): { root: string; write: (file: string, text: string) => void } {
  const root = tempDir('test-passes');
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  execFileSync('git', ['init', '-q'], { cwd: root });
  write('package.json', '{"name":"x"}\n');
  write('docs/guide.md', '# guide\n');
  write('src/core/engine.ts', "import { clock } from './clock';\nexport const engine = clock;\n");
  write('src/core/clock.ts', 'export const clock = 1;\n');
  write('src/report/markdown.ts', 'export const markdown = 2;\n');
  write('test/helpers/probe.ts', "export { engine } from '../../src/core/engine';\n");
  write(TEST, "import { engine } from '../helpers/probe';\nvoid engine;\n");
  write(BUNDLE_TEST, "const cli = 'dist/cli.js';\nvoid cli;\n");
  return { root, write };
}

const print = (root: string, file: string) => new Fingerprints(root, 'integration').of(file);

test('a file imported through a helper changes the fingerprint; one the test never reaches does not', () => {
  const { root, write } = checkout();
  const before = print(root, TEST);
  write('src/report/markdown.ts', 'export const markdown = 3;\n');
  assert.equal(print(root, TEST), before, 'the reporter is not among its imports');
  write('src/core/clock.ts', 'export const clock = 2;\n');
  assert.notEqual(print(root, TEST), before, 'clock.ts is imported by engine.ts, which the helper imports');
});

test('the ground (package.json, helpers) changes every fingerprint; prose changes none', () => {
  const { root, write } = checkout();
  const before = print(root, TEST);
  write('docs/guide.md', '# guide, longer\n');
  assert.equal(print(root, TEST), before);
  write('package.json', '{"name":"y"}\n');
  const afterManifest = print(root, TEST);
  assert.notEqual(afterManifest, before);
  write('test/fixtures/standIn.ts', 'export const standIn = 1;\n');
  assert.notEqual(print(root, TEST), afterManifest, 'a fixture started by path is ground');
});

test('the test runner and the docs tools are not inputs: a change to how files run reruns none', () => {
  const { root, write } = checkout();
  const before = print(root, TEST);
  write('scripts/test/runFiles.ts', 'export const jobs = 3;\n');
  write('scripts/docs/render.ts', 'export const render = 1;\n');
  assert.equal(print(root, TEST), before);
  write('scripts/testbed/up.sh', 'echo servers\n');
  assert.notEqual(print(root, TEST), before, "the testbed's servers are");
});

test('a file that runs a built bundle depends on every source file', () => {
  const { root, write } = checkout();
  const before = print(root, BUNDLE_TEST);
  write('src/report/markdown.ts', 'export const markdown = 4;\n');
  assert.notEqual(print(root, BUNDLE_TEST), before);
});

test('a file that installs the release tarball (packed from dist/) depends on every source file too', () => {
  const { root, write } = checkout();
  const file = 'test/integration/action.test.ts';
  write(file, 'const tarball = `release/dbprobe-${1}.tgz`;\nvoid tarball;\n');
  const before = print(root, file);
  write('src/report/markdown.ts', 'export const markdown = 5;\n');
  assert.notEqual(print(root, file), before);
});

test('the phase and the Node version are part of it', () => {
  const { root } = checkout();
  assert.notEqual(new Fingerprints(root, 'cli').of(TEST), new Fingerprints(root, 'integration').of(TEST));
});

test('a pass is found only with its fingerprint, a failure forgets it, and the log survives a save', () => {
  const file = path.join(tempDir('test-passes-log'), 'passes.json');
  const log = new PassLog(file);
  log.record(TEST, 'abc', 12.34);
  assert.equal(log.unchanged(TEST, 'abc')?.seconds, 12.3);
  assert.equal(log.unchanged(TEST, 'abd'), undefined);
  log.save();
  const again = new PassLog(file);
  assert.equal(again.unchanged(TEST, 'abc')?.fingerprint, 'abc');
  again.forget(TEST);
  again.save();
  assert.equal(new PassLog(file).unchanged(TEST, 'abc'), undefined);
  fs.writeFileSync(file, 'not json');
  assert.equal(new PassLog(file).unchanged(TEST, 'abc'), undefined, 'a broken log runs everything');
});

test('every file runs under CI, with DBPROBE_TEST_ALL=1, and in the unit phase', () => {
  assert.equal(reusePolicy('integration', { CI: 'true' }).reuse, false);
  assert.equal(reusePolicy('integration', { DBPROBE_TEST_ALL: '1' }).reuse, false);
  assert.equal(reusePolicy('unit', {}).reuse, false);
  assert.equal(reusePolicy('integration', { CI: 'false' }).reuse, true);
  assert.equal(reusePolicy('e2e', {}).reuse, true);
  assert.equal(reusePolicy('cli', { CI: '' }).reuse, true);
});

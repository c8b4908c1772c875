/**
 * DBPROBE_REPEAT runs the chosen files N times in a row and stops at the first red round; `--only`
 * narrows a script's file list to the files named. Run through the real runner, on a fixture file
 * that counts its runs and fails on the one it is told to.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';

const ROOT = path.join(__dirname, '..', '..');
const FIXTURE = path.join('test', 'fixtures', 'repeat', 'countedRun.ts');
const OTHER = path.join('test', 'fixtures', 'repeat', 'notRun.ts');

function repeat(times: string, failAt: number, args: string[] = [FIXTURE]) {
  const counter = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'dbprobe-repeat-')), 'runs');
  const run = spawnSync(
    process.execPath,
    ['--import', 'tsx', path.join('scripts', 'test', 'runFiles.ts'), '--phase', 'repeat-check', ...args],
    {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
      env: {
        ...process.env,
        DBPROBE_REPEAT: times,
        DBPROBE_REPEAT_COUNTER: counter,
        DBPROBE_REPEAT_FAIL_AT: String(failAt),
        DBPROBE_TEST_FAILURES: '',
      },
    },
  );
  const runs = fs.existsSync(counter)
    ? fs.readFileSync(counter, 'utf8').split('\n').filter(Boolean).length
    : 0;
  return { status: run.status, out: `${run.stdout}${run.stderr}`, runs };
}

test('DBPROBE_REPEAT=3 runs the file three times and says all three passed', () => {
  const { status, out, runs } = repeat('3', 0);
  assert.equal(status, 0, out);
  assert.equal(runs, 3);
  assert.match(out, /repeat-check: 3 of 3 repeats passed/);
});

test('the first red round stops the repeats and fails the run', () => {
  const { status, out, runs } = repeat('5', 2);
  assert.equal(status, 1, out);
  assert.equal(runs, 2, 'no round runs after the one that failed');
  assert.match(out, /repeat 2 of 5 failed \(.*countedRun\.ts\); 1 passed before it/);
});

test('--only narrows the list to the files named, and refuses a file not in it', () => {
  const narrowed = repeat('1', 0, ['--only', FIXTURE, FIXTURE, OTHER]);
  assert.equal(narrowed.status, 0, narrowed.out);
  assert.equal(narrowed.runs, 1);
  assert.doesNotMatch(narrowed.out, /notRun\.ts/);
  const unknown = repeat('1', 0, ['--only', OTHER, FIXTURE]);
  assert.equal(unknown.status, 2);
  assert.match(unknown.out, /--only names files that are not in this phase's list/);
});

test('DBPROBE_REPEAT must be a whole number from 1 to 100', () => {
  const { status, out } = repeat('0', 0);
  assert.equal(status, 2);
  assert.match(out, /DBPROBE_REPEAT takes a whole number from 1 to 100/);
});

/**
 * npm test says each failed file's failing tests again at its end (scripts/test/failureRecap.ts), so
 * the figures an assertion names survive a log kept by its tail. Checked on what node:test's spec
 * reporter really prints for a failing file, not on a made-up sample of it.
 */
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { failureExcerpt, recordFailure } from '../../scripts/test/failureRecap';
import { tempDir } from '../helpers/tempDir';

const FAILING = `
const { test } = require('node:test');
const assert = require('node:assert/strict');
test('passes quietly', () => { console.log('noise '.repeat(400)); });
test('a projection misses', () => {
  assert.deepEqual(['20 ms (2 of 3 runs)'], [], 'upstash subsequent: projected 21.900, measured 20.100');
});
`;

function specOutput(): string {
  const dir = tempDir('failure-recap');
  const file = path.join(dir, 'failing.test.js');
  fs.writeFileSync(file, FAILING);
  const run = spawnSync(process.execPath, ['--test-reporter=spec', file], {
    encoding: 'utf8',
    timeout: 30_000,
  });
  assert.equal(run.status, 1, `the sample file fails: ${run.stderr}`);
  return run.stdout + run.stderr;
}

test('the excerpt is the failing tests section: the message with its figures, no stack, no passing noise', () => {
  const output = specOutput();
  const excerpt = failureExcerpt(output);
  assert.match(excerpt, /^\u2716 failing tests:/);
  assert.match(excerpt, /a projection misses/);
  assert.match(excerpt, /projected 21\.900, measured 20\.100/);
  assert.match(excerpt, /20 ms \(2 of 3 runs\)/);
  assert.doesNotMatch(excerpt, /^\s+at /m, 'stack lines are left out');
  assert.doesNotMatch(excerpt, /noise noise/, "a passing test's output is not repeated");
});

test('without a failing tests section (a crash, a timeout) the output tail is kept; both are bounded', () => {
  const crash = `${'x'.repeat(10_000)}\nError: the server went away\nfile.test.ts: killed after 900 s`;
  const excerpt = failureExcerpt(crash, 200);
  assert.match(excerpt, /killed after 900 s/);
  assert.ok(excerpt.length <= 200 + 40, `bounded: ${excerpt.length} characters`);
  const long = failureExcerpt(`\u2716 failing tests:\n${'y'.repeat(5_000)}`, 1_000);
  assert.match(long, /cut at 1000 characters\]$/);
  assert.ok(long.length < 1_100);
});

test('recordFailure appends one block per failed file, and does nothing when no recap is kept', () => {
  const file = path.join(tempDir('failure-recap-file'), 'recap.txt');
  recordFailure(undefined, 'integration', 'a.test.ts', '\u2716 failing tests:\nboom');
  assert.equal(fs.existsSync(file), false);
  recordFailure(file, 'integration', 'test/integration/a.test.ts', '\u2716 failing tests:\nfirst');
  recordFailure(file, 'e2e', 'test/e2e/b.test.ts', '\u2716 failing tests:\nsecond');
  const text = fs.readFileSync(file, 'utf8');
  assert.match(text, /--- integration: test\/integration\/a\.test\.ts\n\u2716 failing tests:\nfirst/);
  assert.match(text, /--- e2e: test\/e2e\/b\.test\.ts\n\u2716 failing tests:\nsecond/);
});

/**
 * CI gates through the real CLI: an embedded libSQL file (no server) probed with --threshold and a
 * job summary file, as a GitHub Actions step would.
 */
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { configDir, runCli } from '../helpers/cli';

/** A dbprobe.json with one libSQL file target in a fresh temp folder, and the env naming its file. */
function localDb(): { cwd: string; env: NodeJS.ProcessEnv } {
  const cwd = configDir({
    targets: [{ name: 'local file', driver: 'libsql', connection: 'env:GATE_DB_URL' }],
    iterations: 20,
    warmup: 2,
  });
  return { cwd, env: { GATE_DB_URL: `file:${path.join(cwd, 'gate.db')}` } };
}

test('a threshold that must fail exits 3 and names the breach, one line each; the report still prints', async () => {
  const { cwd, env } = localDb();
  const run = await runCli(
    ['run', '-q', '--threshold', '*:subsequent:p50<0.001ms', '--threshold', '*:initial:p95<60s'],
    { cwd, env },
  );
  assert.equal(run.code, 3, run.stderr);
  const breaches = run.stderr.split('\n').filter((line) => line.startsWith('dbprobe: threshold failed:'));
  assert.equal(breaches.length, 1, run.stderr);
  assert.match(
    breaches[0]!,
    /^dbprobe: threshold failed: target "local file" subsequent p50 = \d+\.\d{3} ms, limit < 0\.001 ms$/,
  );
  assert.match(run.stdout, /# Database latency/);
});

test('thresholds that pass exit 0 and say how many checks passed', async () => {
  const { cwd, env } = localDb();
  const run = await runCli(
    ['run', '-q', '--threshold', '*:*:p95<60s', '--threshold', 'local file:subsequent:errors<1%'],
    { cwd, env },
  );
  assert.equal(run.code, 0, run.stderr);
  assert.match(run.stderr, /dbprobe: thresholds: all 3 checks passed/);
  assert.doesNotMatch(run.stderr, /threshold failed/);
});

test('bad threshold syntax is a usage error (exit 2) saying the form, before anything is probed', async () => {
  const { cwd, env } = localDb();
  const run = await runCli(['run', '--threshold', '*:subsequent:p95 < 50'], { cwd, env });
  assert.equal(run.code, 2);
  assert.match(
    run.stderr,
    /--threshold "\*:subsequent:p95 < 50": p95 needs a time unit: ms, us or s; the form is TARGET:KIND:STAT<LIMIT/,
  );
  const unknown = await runCli(['run', '--threshold', 'nosuch:*:p95<5ms'], { cwd, env });
  assert.equal(unknown.code, 2);
  assert.match(
    unknown.stderr,
    /names target "nosuch", which this run does not probe; its targets: local file/,
  );
});

test('GITHUB_STEP_SUMMARY gets the Markdown report and the verdicts appended', async () => {
  const { cwd, env } = localDb();
  const summary = path.join(cwd, 'step-summary.md');
  writeFileSync(summary, '# an earlier step\n');
  const run = await runCli(['run', '-q', '--format', 'json', '--threshold', '*:subsequent:p50<0.001ms'], {
    cwd,
    env: { ...env, GITHUB_STEP_SUMMARY: summary },
  });
  assert.equal(run.code, 3, run.stderr);
  JSON.parse(run.stdout); // stdout keeps the asked format; the summary is Markdown whatever it was
  const text = readFileSync(summary, 'utf8');
  assert.ok(text.startsWith('# an earlier step\n# Database latency'), text.slice(0, 200));
  assert.match(text, /## Subsequent query \(warm connection\)/);
  assert.match(text, /## Thresholds\n\n\*\*1 of 1 threshold checks failed\.\*\*/);
  assert.match(text, /- \*\*FAIL\*\*: target "local file" subsequent p50 = \d+\.\d{3} ms, limit < 0\.001 ms/);
});

test('--summary FILE appends without thresholds too, relative to the working directory', async () => {
  const { cwd, env } = localDb();
  const run = await runCli(['run', '-q', '--summary', 'out/../summary.md'], { cwd, env });
  assert.equal(run.code, 0, run.stderr);
  const text = readFileSync(path.join(cwd, 'summary.md'), 'utf8');
  assert.match(text, /^# Database latency/);
  assert.doesNotMatch(text, /## Thresholds/);
});

test('the demo gates too: a threshold that must fail exits 3', async () => {
  const { cwd } = localDb();
  const run = await runCli(
    ['demo', '-q', '-n', '20', '--warmup', '2', '--threshold', '*:subsequent:p50<0.001ms'],
    { cwd },
  );
  assert.equal(run.code, 3, run.stderr);
  assert.match(
    run.stderr,
    /threshold failed: target "embedded libSQL \(file\)" subsequent p50 = \d+\.\d{3} ms, limit < 0\.001 ms/,
  );
});

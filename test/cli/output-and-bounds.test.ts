/**
 * Bad inputs the CLI must answer quickly and clearly: an --out it cannot write (checked before the
 * run; a finished run is never lost to it), the missing-token hint, and inputs of absurd size
 * (bounded before any regular expression or message sees them).
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import type { RunResult } from '../../src/shared/result';
import { configDir, runCli } from '../helpers/cli';
import { tempDir } from '../helpers/tempDir';

/** A config with one embedded libSQL target; its file lives in the config's folder. */
function libsqlConfig(extra: Record<string, unknown> = {}) {
  const cwd = configDir({
    targets: [{ name: 'embedded', driver: 'libsql', connection: 'env:LIBSQL_URL' }],
    kinds: ['subsequent'],
    warmup: 0,
    iterations: 20,
    ...extra,
  });
  return { cwd, env: { LIBSQL_URL: `file:${path.join(cwd, 'probe.db')}` } };
}

/** Fast answers only: before the bounds, some of these inputs kept a core busy for minutes. */
const QUICK = { timeoutMs: 20_000 };

test('--out into a folder that does not exist fails before the run, naming the folder', async () => {
  const { cwd, env } = libsqlConfig();
  const run = await runCli(['run', '--out', 'missing/folder/report.md'], { cwd, env, ...QUICK });
  assert.equal(run.code, 2, run.stderr);
  assert.match(
    run.stderr,
    /--out \S+missing\/folder\/report\.md: the folder \S+missing\/folder does not exist; create it or pass another --out path; nothing was measured yet/,
  );
  assert.doesNotMatch(run.stderr, /probing|unexpected error/, 'no run started');
  assert.ok(!existsSync(path.join(cwd, 'probe.db')), 'the database was never opened');
});

test('--out naming a folder fails before the run and suggests a file path', async () => {
  const { cwd, env } = libsqlConfig();
  const run = await runCli(['run', '--out', '.'], { cwd, env, ...QUICK });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /--out \S+ is a folder; give a file path such as \S+report\.md/);
});

test('--out that becomes unwritable during the run: the report goes to a temporary file, said where', async () => {
  const { cwd, env } = libsqlConfig({ iterations: 1_000_000, timeouts: { runMs: 1500 } });
  const outDir = path.join(cwd, 'reports');
  mkdirSync(outDir);
  const tmp = tempDir('fallback');
  const run = await runCli(['run', '-f', 'json', '--out', path.join(outDir, 'r.json')], {
    cwd,
    env: { ...env, TMPDIR: tmp },
    timeoutMs: 30_000,
    // The folder passes the check, then disappears while the run goes on.
    onStderr: (chunk) => {
      if (chunk.includes('probing')) rmSync(outDir, { recursive: true, force: true });
    },
  });
  assert.equal(run.code, 1, run.stderr);
  const match =
    /could not write the report to \S+r\.json \(its folder no longer exists\); wrote it to (\S+) instead/.exec(
      run.stderr,
    );
  assert.ok(match?.[1], run.stderr);
  assert.equal(path.dirname(match[1]), tmp);
  assert.deepEqual(readdirSync(tmp), [path.basename(match[1])]);
  const result = JSON.parse(readFileSync(match[1], 'utf8')) as RunResult;
  assert.equal(result.state, 'timedOut');
  assert.ok((result.measurements[0]?.stats.count ?? 0) > 0, 'the measurements are in the fallback file');
  assert.doesNotMatch(run.stderr, /unexpected error/);
});

test('when no temporary file can be written either, the report is printed on stdout', async () => {
  const { cwd, env } = libsqlConfig();
  const outDir = path.join(cwd, 'reports');
  mkdirSync(outDir);
  const run = await runCli(['run', '-f', 'json', '--out', path.join(outDir, 'r.json')], {
    cwd,
    env: { ...env, TMPDIR: path.join(cwd, 'no-such-tmp') },
    ...QUICK,
    onStderr: (chunk) => {
      if (chunk.includes('probing')) rmSync(outDir, { recursive: true, force: true });
    },
  });
  assert.equal(run.code, 1, run.stderr);
  assert.match(run.stderr, /nor to a temporary file; printing it on stdout instead/);
  const result = JSON.parse(run.stdout) as RunResult;
  assert.equal(result.measurements[0]?.stats.count, 20);
});

test('the missing-token hint for --runner reads whole (the redactor leaves it alone)', async () => {
  const { cwd, env } = libsqlConfig();
  const run = await runCli(['run', '--runner', 'http://127.0.0.1:9'], { cwd, env, ...QUICK });
  assert.equal(run.code, 2, run.stderr);
  assert.equal(
    run.stderr.trim(),
    'dbprobe: --runner needs the runner token: set the environment variable DBPROBE_TOKEN to the token the runner was started with, then run again',
  );
});

test('a 50 MB config is refused by its size, before it is read', async () => {
  const cwd = tempDir('huge');
  const name = 'a'.repeat(50 * 1024 * 1024);
  writeFileSync(
    path.join(cwd, 'dbprobe.json'),
    JSON.stringify({ targets: [{ name, driver: 'libsql', connection: 'env:X' }] }),
  );
  const run = await runCli(['run'], { cwd, ...QUICK });
  assert.equal(run.code, 2, run.stderr.slice(0, 500));
  assert.match(
    run.stderr,
    /config file \S+dbprobe\.json is 50\.0 MB; the limit is 1\.0 MB \(1048576 bytes\)/,
  );
  assert.ok(run.stderr.length < 500, 'the name is not echoed');
});

test('a target name of 900,000 characters is refused by its length, not echoed', async () => {
  const cwd = configDir({ targets: [{ name: 'n'.repeat(900_000), driver: 'nosuch', connection: 'env:X' }] });
  const run = await runCli(['run'], { cwd, ...QUICK });
  assert.equal(run.code, 2, run.stderr.slice(0, 500));
  assert.match(run.stderr, /targets\[0\]\.name: is 900000 characters long; the limit is 64/);
  assert.ok(run.stderr.length < 500, 'the name is not echoed');
});

test('workload, option values, field names and nesting are bounded, each naming its limit', async () => {
  let deep: unknown = 'x';
  for (let i = 0; i < 12; i++) deep = { d: deep };
  const cwd = configDir({
    targets: [
      {
        name: 'a',
        driver: 'libsql',
        connection: 'env:X',
        query: `SELECT '${'q'.repeat(70_000)}'`,
        options: { note: 'o'.repeat(5_000), deep },
      },
    ],
    ['k'.repeat(100)]: 1,
  });
  const run = await runCli(['run'], { cwd, ...QUICK });
  assert.equal(run.code, 2, run.stderr.slice(0, 500));
  assert.match(run.stderr, /targets\[0\]\.query: is 70009 characters long; the limit is 65536/);
  assert.match(run.stderr, /targets\[0\]\.options\.note: is 5000 characters long; the limit is 4096/);
  assert.match(run.stderr, /targets\[0\]\.options\.deep(\.d)+: nests deeper than 8 levels, the limit/);
  assert.match(run.stderr, /\(plan\): has a field name of 100 characters; the limit is 64/);
  assert.ok(run.stderr.length < 1000, 'no value is echoed');
});

test('more than 100 targets are refused by count', async () => {
  const targets = Array.from({ length: 101 }, (_, i) => ({
    name: `t${i}`,
    driver: 'libsql',
    connection: 'env:X',
  }));
  const run = await runCli(['run'], { cwd: configDir({ targets }), ...QUICK });
  assert.equal(run.code, 2, run.stderr);
  assert.match(run.stderr, /targets: has 101 items; the limit is 100/);
});

test('a command-line argument over 4096 characters is refused before parsing', async () => {
  const { cwd, env } = libsqlConfig();
  const run = await runCli(['run', '--targets', 'x'.repeat(100_000)], { cwd, env, ...QUICK });
  assert.equal(run.code, 2, run.stderr.slice(0, 500));
  assert.equal(run.stderr.trim(), 'dbprobe: argument 3 is 100000 characters long; the limit is 4096');
});

test('a connection string over 16 KiB in the environment is refused, not echoed', async () => {
  const { cwd } = libsqlConfig();
  const url = `file:/tmp/${'p'.repeat(100_000)}.db`;
  const run = await runCli(['run'], { cwd, env: { LIBSQL_URL: url }, ...QUICK });
  assert.equal(run.code, 2, run.stderr.slice(0, 500));
  assert.match(
    run.stderr,
    /target "embedded" \(libsql\): config: environment variable LIBSQL_URL holds 100013 characters; a connection string may have at most 16384/,
  );
  assert.ok(run.stderr.length < 500, 'the value is not echoed');
});

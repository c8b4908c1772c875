/**
 * Runs test files for one phase of `npm test` (scripts/test.sh) or one `npm run test:*` script: each
 * file in its own Node process (as `node --test` does), files declared shareable in
 * scripts/test/groups.ts several at a time (unit files in a few batched processes), files that time
 * the real clock beside each other only, every other file alone. Each file's spec output is
 * printed whole when it ends (never interleaved), then a table of per-file durations, slowest first.
 * Exit code 1 if any file failed or timed out; every file runs even after a failure.
 *
 * Usage: runFiles.ts --phase NAME [--jobs N] [--only FILE]... FILE...
 *   --only: run only these of the FILEs (so `npm run test:e2e -- --only test/e2e/X.test.ts` runs one).
 *   --jobs: how many shareable files run at once (default: DBPROBE_TEST_JOBS, else the phase's
 *   default in groups.ts). Which files share, and why: scripts/test/groups.ts (an integration or
 *   end-to-end file not named there runs alone, so a new one is safe until declared shareable).
 * DBPROBE_TEST_FILE_TIMEOUT_S bounds one file (default 900 s): a hung file is killed and fails.
 * DBPROBE_REPEAT=N runs the chosen files N times in a row (every file each time, none left out as
 * unchanged) and stops at the first round with a failure: how a timing-sensitive file is shown to
 * pass five times running (`DBPROBE_REPEAT=5 npm run test:e2e -- --only test/e2e/extension-vs-cli.test.ts`).
 * CLI, integration and end-to-end files unchanged since their last pass in this checkout are not run
 * again (scripts/test/passes.ts says when, and how to run them anyway).
 */
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { recordFailure } from './failureRecap';
import { Fingerprints } from './fingerprint';
import { WAITS_WIDTH, batchedPhase, groupOf, phaseJobs, type Group } from './groups';
import { PassLog, reusablePhase, reusePolicy, type Pass } from './passes';

interface Outcome {
  file: string;
  group: Group;
  seconds: number;
  status: 'pass' | 'fail' | 'timeout';
}

/** A file left out: its inputs are what they were when it last passed. */
interface Unchanged {
  file: string;
  pass: Pass;
}

const ROOT = path.join(__dirname, '..', '..');

function parseArgs(argv: string[]): { phase: string; jobs: number | undefined; files: string[] } {
  let phase = '';
  let jobs: number | undefined;
  const listed: string[] = [];
  const only: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (arg === '--phase') phase = argv[++i] ?? '';
    else if (arg === '--jobs') jobs = Number(argv[++i]);
    else if (arg === '--only') only.push(path.normalize(argv[++i] ?? ''));
    else listed.push(arg);
  }
  if (!phase) throw new Error('runFiles: --phase NAME is required (unit, cli, integration or e2e)');
  // `npm run test:e2e -- --only FILE`: the script's own glob, narrowed to the files named.
  const files = only.length === 0 ? listed : listed.filter((f) => only.includes(path.normalize(f)));
  const unknown = only.filter((f) => !listed.some((l) => path.normalize(l) === f));
  if (unknown.length > 0)
    throw new Error(`runFiles: --only names files that are not in this phase's list: ${unknown.join(', ')}`);
  if (jobs !== undefined && !(Number.isInteger(jobs) && jobs >= 1)) {
    throw new Error('runFiles: --jobs takes a whole number of at least 1');
  }
  const fromEnv = Number(process.env.DBPROBE_TEST_JOBS);
  if (jobs === undefined && Number.isInteger(fromEnv) && fromEnv >= 1) jobs = fromEnv;
  return { phase, jobs, files };
}

/** Durations of the last run, to start the slowest shareable files first (shorter tail). */
const TIMES_FILE = path.join(ROOT, 'test-results', 'file-times.json');
function lastTimes(): Record<string, number> {
  try {
    return JSON.parse(fs.readFileSync(TIMES_FILE, 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}
function saveTimes(outcomes: Outcome[]): void {
  const times = lastTimes();
  for (const o of outcomes) times[o.file] = Math.round(o.seconds * 10) / 10;
  fs.mkdirSync(path.dirname(TIMES_FILE), { recursive: true });
  fs.writeFileSync(TIMES_FILE, `${JSON.stringify(times, null, 2)}\n`);
}

const timeoutMs = (Number(process.env.DBPROBE_TEST_FILE_TIMEOUT_S) || 900) * 1000;
/** The phase being run (set once by main): names a failure in npm test's closing recap. */
let phaseName = '';

interface Run {
  label: string;
  group: Group;
  seconds: number;
  status: Outcome['status'];
  output: string;
}

/** One child process, its output kept and printed whole when it ends. */
function runProcess(label: string, group: Group, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group, so a timeout kills the servers and browsers it started too.
      detached: true,
    });
    const chunks: Buffer[] = [];
    child.stdout.on('data', (c: Buffer) => chunks.push(c));
    child.stderr.on('data', (c: Buffer) => chunks.push(c));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      try {
        process.kill(-(child.pid ?? 0), 'SIGKILL');
      } catch {
        child.kill('SIGKILL');
      }
    }, timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      const seconds = (performance.now() - started) / 1000;
      const status = timedOut ? 'timeout' : code === 0 ? 'pass' : 'fail';
      let output = Buffer.concat(chunks).toString('utf8');
      if (timedOut)
        output += `\n${label}: killed after ${timeoutMs / 1000} s (DBPROBE_TEST_FILE_TIMEOUT_S)\n`;
      process.stdout.write(`\n--- ${label} [${group}] ${status} in ${seconds.toFixed(1)} s\n${output}`);
      if (status !== 'pass') recordFailure(process.env.DBPROBE_TEST_FAILURES, phaseName, label, output);
      resolve({ label, group, seconds, status, output });
    });
  });
}

function runFile(file: string, group: Group): Promise<Outcome> {
  // The file itself, without `--test`: node:test runs it and reports the same way, and no second
  // Node with tsx is started only to start this one (about a second per file on a busy machine).
  const args = ['--import', 'tsx', '--test-reporter=spec', file];
  return runProcess(file, group, args, process.env).then(({ seconds, status }) => ({
    file,
    group,
    seconds,
    status,
  }));
}

/**
 * Several files in one process (scripts/test/batch.ts). The files' own times come from the batch;
 * a file failed when its suite did (a top-level "✖ <file>" line of the spec output).
 */
async function runBatch(files: string[], index: number): Promise<Outcome[]> {
  const timesFile = path.join(os.tmpdir(), `dbprobe-batch-${process.pid}-${index}.json`);
  fs.rmSync(timesFile, { force: true });
  const args = [
    '--import',
    'tsx',
    '--test-reporter=spec',
    path.join('scripts', 'test', 'batch.ts'),
    ...files,
  ];
  const run = await runProcess(`batch ${index + 1} (${files.length} files)`, 'shared', args, {
    ...process.env,
    DBPROBE_BATCH_TIMES: timesFile,
  });
  let seconds: Record<string, number> = {};
  try {
    seconds = JSON.parse(fs.readFileSync(timesFile, 'utf8')) as Record<string, number>;
    fs.rmSync(timesFile, { force: true });
  } catch {
    // The batch died before writing its times: every file is marked with the batch's status.
  }
  const failedFiles = new Set([...run.output.matchAll(/^\u2716 (\S+\.test\.ts)/gm)].map((m) => m[1] ?? ''));
  const outcomes = files.map((file): Outcome => {
    const name = path.relative(ROOT, path.resolve(ROOT, file));
    const own = seconds[name];
    const status = own === undefined ? run.status : failedFiles.has(name) ? 'fail' : 'pass';
    return { file, group: 'shared', seconds: own ?? 0, status };
  });
  // A failure outside any file's suite (a crash, an unhandled error) still fails the phase.
  if (run.status !== 'pass' && outcomes.every((o) => o.status === 'pass')) {
    outcomes.push({ file: run.label, group: 'shared', seconds: run.seconds, status: run.status });
  }
  return outcomes;
}

/** Splits files into `count` batches of about equal time, slowest first (longest processing time). */
function batches(files: string[], count: number, times: Record<string, number>): string[][] {
  const out = Array.from({ length: count }, () => ({ files: [] as string[], seconds: 0 }));
  const weight = (f: string) => times[f] ?? 1;
  for (const file of [...files].sort((a, b) => weight(b) - weight(a))) {
    const lightest = out.reduce((a, b) => (b.seconds < a.seconds ? b : a));
    lightest.files.push(file);
    lightest.seconds += weight(file);
  }
  return out.map((b) => b.files.sort()).filter((b) => b.length > 0);
}

/**
 * Which files to run: all, or (scripts/test/passes.ts) those whose fingerprint differs from their
 * last pass. Each file's fingerprint is taken before anything runs, so an edit made while the
 * tests run is not taken for tested.
 */
function selectFiles(
  phase: string,
  files: string[],
): { run: string[]; unchanged: Unchanged[]; fingerprints: Map<string, string>; why: string } {
  const policy =
    repeatCount() > 1
      ? { reuse: false, why: `DBPROBE_REPEAT=${repeatCount()}: every file runs each time` }
      : reusePolicy(phase, process.env);
  // Taken (and passes recorded) even when every file runs, so a CI-like first run lets the next one
  // leave out what did not change; only in the phases that leave files out.
  const prints = new Fingerprints(ROOT, phase);
  const fingerprints = reusablePhase(phase)
    ? new Map(files.map((file) => [file, prints.of(file)]))
    : new Map<string, string>();
  if (!policy.reuse) return { run: files, unchanged: [], fingerprints, why: policy.why };
  const log = new PassLog(PASSES_FILE);
  const run: string[] = [];
  const unchanged: Unchanged[] = [];
  for (const file of files) {
    const pass = log.unchanged(file, fingerprints.get(file) ?? '');
    if (pass) unchanged.push({ file, pass });
    else run.push(file);
  }
  return { run, unchanged, fingerprints, why: policy.why };
}

const PASSES_FILE = path.join(ROOT, 'test-results', 'passes.json');

/** Records this run's passes (with the fingerprints taken before it) and drops its failures. */
function recordPasses(outcomes: Outcome[], fingerprints: Map<string, string>): void {
  if (fingerprints.size === 0) return;
  const log = new PassLog(PASSES_FILE);
  for (const o of outcomes) {
    const fingerprint = fingerprints.get(o.file);
    if (fingerprint === undefined) continue;
    if (o.status === 'pass') log.record(o.file, fingerprint, o.seconds);
    else log.forget(o.file);
  }
  log.save();
}

/** DBPROBE_REPEAT: how many times to run the chosen files in a row (1 when unset). */
function repeatCount(): number {
  const raw = process.env.DBPROBE_REPEAT;
  if (raw === undefined || raw === '') return 1;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 1 || n > 100)
    throw new Error(`runFiles: DBPROBE_REPEAT takes a whole number from 1 to 100 (got "${raw}")`);
  return n;
}

async function main(): Promise<void> {
  const { phase, jobs, files } = parseArgs(process.argv.slice(2));
  phaseName = phase;
  const rounds = repeatCount();
  const seconds: number[] = [];
  for (let round = 1; round <= rounds; round++) {
    if (rounds > 1) process.stdout.write(`\n== ${phase}: repeat ${round} of ${rounds}\n`);
    const started = performance.now();
    const failed = await runOnce(phase, jobs, files);
    seconds.push((performance.now() - started) / 1000);
    if (rounds === 1) return;
    if (failed.length > 0) {
      process.stdout.write(
        `\n${phase}: repeat ${round} of ${rounds} failed (${failed.join(', ')}); ${round - 1} passed before it\n`,
      );
      return;
    }
  }
  process.stdout.write(
    `\n${phase}: ${rounds} of ${rounds} repeats passed (${seconds.map((s) => `${s.toFixed(1)} s`).join(', ')})\n`,
  );
}

/** One pass over the files; the names of those that failed. */
async function runOnce(phase: string, jobsArg: number | undefined, asked: string[]): Promise<string[]> {
  const jobs = jobsArg ?? phaseJobs(phase);
  const { run: files, unchanged, fingerprints, why } = selectFiles(phase, asked);
  if (unchanged.length > 0) {
    process.stdout.write(
      `${phase}: ${unchanged.length} of ${asked.length} files unchanged since they passed, not run: ${why}\n`,
    );
  }
  // npm test's closing line says how many files each phase left out (scripts/test.sh).
  if (process.env.DBPROBE_TEST_LEFT_OUT && reusablePhase(phase)) {
    fs.appendFileSync(process.env.DBPROBE_TEST_LEFT_OUT, `${phase} ${unchanged.length} ${asked.length}\n`);
  }
  const times = lastTimes();
  const slowestFirst = (a: string, b: string) => (times[b] ?? 1e9) - (times[a] ?? 1e9);
  const shared = files.filter((f) => groupOf(phase, f) === 'shared').sort(slowestFirst);
  const waits = files.filter((f) => groupOf(phase, f) === 'waits').sort(slowestFirst);
  const timed = files.filter((f) => groupOf(phase, f) === 'timed').sort(slowestFirst);
  const alone = files.filter((f) => groupOf(phase, f) === 'alone');
  const started = performance.now();
  const outcomes: Outcome[] = [];

  // Shareable files first, `jobs` at a time (in batches where the phase says so), and beside them
  // the waiting files, WAITS_WIDTH at a time; then the timed files beside each other only; then
  // each lone file with nothing else running.
  const pool = async (list: string[], group: Group, width: number) => {
    let next = 0;
    const worker = async () => {
      while (next < list.length) {
        const file = list[next++] as string;
        outcomes.push(await runFile(file, group));
      }
    };
    await Promise.all(Array.from({ length: Math.min(width, list.length) }, worker));
  };
  const sharedRun = async () => {
    if (!batchedPhase(phase)) return pool(shared, 'shared', jobs);
    const results = await Promise.all(batches(shared, jobs, times).map(runBatch));
    outcomes.push(...results.flat());
  };
  await Promise.all([sharedRun(), pool(waits, 'waits', WAITS_WIDTH)]);
  await pool(timed, 'timed', jobs);
  await pool(alone, 'alone', 1);

  saveTimes(outcomes.filter((o) => files.includes(o.file)));
  recordPasses(outcomes, fingerprints);
  const wall = (performance.now() - started) / 1000;
  const sum = outcomes.reduce((s, o) => s + o.seconds, 0);
  const lines = [...outcomes]
    .sort((a, b) => b.seconds - a.seconds)
    .map(
      (o) => `  ${o.seconds.toFixed(1).padStart(6)} s  ${o.status.padEnd(7)} ${o.group.padEnd(6)} ${o.file}`,
    );
  const left = unchanged.map(
    ({ file, pass }) =>
      `       -    unchanged        ${file} (passed ${pass.passedAt.slice(0, 16).replace('T', ' ')} UTC in ${pass.seconds} s)`,
  );
  const failed = outcomes.filter((o) => o.status !== 'pass');
  const leftOut = unchanged.length > 0 ? `; ${unchanged.length} unchanged since they passed, not run` : '';
  process.stdout.write(
    `\n${phase}: ${files.length} files, ${shared.length} shared (${jobs} at a time${batchedPhase(phase) ? ', in batches' : ''}), ` +
      `${waits.length > 0 ? `${waits.length} waiting beside them, ` : ''}${timed.length} timed, ${alone.length} alone${leftOut}; ${wall.toFixed(1)} s wall, ${sum.toFixed(1)} s of file time\n${[...lines, ...left].join('\n')}\n`,
  );
  if (failed.length > 0) {
    process.stdout.write(
      `${phase}: ${failed.length} failed: ${failed.map((o) => `${o.file} (${o.status})`).join(', ')}\n`,
    );
    process.exitCode = 1;
  }
  return failed.map((o) => o.file);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 2;
});

#!/usr/bin/env node
/**
 * The action's probe step: `dbprobe run` with the action's inputs (INPUT_* as GitHub names them),
 * the JSON result written to a file, the Markdown report and verdicts appended to the job summary
 * (the CLI does that itself when GITHUB_STEP_SUMMARY is set), and the outputs written to
 * $GITHUB_OUTPUT: result, verdicts, passed, changes, regressed, exit-code. Exits with the CLI's
 * code, so a failed threshold (3) or regression fails the step. Plain Node, no dependencies: it runs
 * before anything is installed in the project.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';

/** As @actions/core reads an input: INPUT_ + the name in capitals, spaces as underscores. */
function input(name) {
  return (process.env[`INPUT_${name.replace(/ /g, '_').toUpperCase()}`] ?? '').trim();
}

const outputFile = process.env.GITHUB_OUTPUT;
if (!outputFile) {
  console.error('dbprobe action: GITHUB_OUTPUT is not set; run this as a GitHub Actions step');
  process.exit(2);
}
const bin = process.env.DBPROBE_BIN || 'dbprobe';
const temp = process.env.RUNNER_TEMP || os.tmpdir();
const result = path.resolve(input('out') || path.join(temp, 'dbprobe-result.json'));
const verdictsFile = path.join(temp, `dbprobe-verdicts-${randomUUID()}.json`);

const args = ['run', '--config', input('config') || 'dbprobe.json', '--format', 'json', '--out', result];
args.push('--verdicts', verdictsFile);
for (const [name, flag] of [
  ['targets', '--targets'],
  ['kinds', '--kinds'],
  ['iterations', '--iterations'],
  ['baseline', '--baseline'],
  ['fail-on-regression', '--fail-on-regression'],
  ['noise', '--noise'],
])
  if (input(name)) args.push(flag, input(name));
// One threshold per line (a target name may hold a comma); blank lines and # comments are skipped.
for (const line of input('thresholds').split(/\r?\n/)) {
  const threshold = line.trim();
  if (threshold && !threshold.startsWith('#')) args.push('--threshold', threshold);
}

console.error(`dbprobe action: ${[bin, ...args].map(quote).join(' ')}`);
const run = spawnSync(bin, args, { stdio: ['ignore', 'inherit', 'inherit'] });
if (run.error) {
  console.error(`dbprobe action: could not start ${bin}: ${run.error.message}; did the install step run?`);
  process.exit(1);
}
const code = run.status ?? 1;

const outputs = { 'exit-code': String(code), passed: String(code === 0) };
if (existsSync(result)) outputs.result = result;
const verdicts = readJson(verdictsFile);
if (verdicts) {
  outputs.verdicts = verdicts.verdicts.map((v) => `${v.passed ? 'pass' : 'FAIL'}: ${v.text}`).join('\n');
  outputs['verdicts-json'] = JSON.stringify(verdicts);
}
if (input('baseline') && existsSync(result)) {
  // The run already judged and summarised the change; this asks for it as JSON (no summary twice).
  const { GITHUB_STEP_SUMMARY: _summary, ...env } = process.env;
  // The same noise band as the run's own gate, so `changes` and `regressed` say what the step decided.
  const noise = input('noise') ? ['--noise', input('noise')] : [];
  const compared = spawnSync(bin, ['compare', input('baseline'), result, '--format', 'json', ...noise], {
    env,
    encoding: 'utf8',
  });
  // 2 with a report: the runs were not comparable; the report says why, and so do the outputs.
  const report = compared.status === 0 || compared.status === 2 ? parseJson(compared.stdout) : undefined;
  if (report) {
    outputs.regressed = String(report.regressed);
    outputs.changes = [...(report.lines ?? []), ...report.changes]
      .map((c) =>
        typeof c === 'string'
          ? c
          : `${c.target} ${c.kind}: ${c.verdict}${c.percentiles
              .map(
                (p) =>
                  `; p${p.percentile} ${signedMs(p.diffUs)} ms [${signedMs(p.lowUs)}, ${signedMs(p.highUs)}] ${p.verdict ?? 'not judged'}`,
              )
              .join('')}`,
      )
      .join('\n');
  }
}
for (const [name, value] of Object.entries(outputs)) {
  const delimiter = `dbprobe_${randomUUID()}`;
  appendFileSync(outputFile, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
}
process.exit(code);

function readJson(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}

function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function signedMs(us) {
  return `${us > 0 ? '+' : ''}${(us / 1000).toFixed(3)}`;
}

function quote(arg) {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

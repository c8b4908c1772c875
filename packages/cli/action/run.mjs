#!/usr/bin/env node
/**
 * The action's probe step: `dbprobe run` with the action's inputs (INPUT_* as GitHub names them) and
 * the JSON result written to a file. Then, from what the CLI decided (its --verdicts JSON and
 * `dbprobe compare --format json`): an `::error` annotation per failed threshold and per regression,
 * the job summary opened by the verdicts (the CLI's Markdown report below them), the outputs
 * (result, verdicts, passed, changes, regressed, exit-code) and, with comment-on-pr, the sticky
 * pull-request comment. Exits with the CLI's code, so a failed threshold (3) or regression fails the
 * step. Plain Node, no dependencies: it runs before anything is installed in the project.
 */
import { spawnSync } from 'node:child_process';
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { randomUUID } from 'node:crypto';
import { commentBody, commentMarker, pullRequestNumber, upsertComment } from './prComment.mjs';
import { gateAnnotations, verdictMarkdown } from './verdicts.mjs';
import { workflowCommand } from './workflowCommands.mjs';

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
// Windows has no shebangs: the install step names the .js entry there, started with node.
const command = bin.endsWith('.js') ? [process.execPath, bin] : [bin];
const temp = process.env.RUNNER_TEMP || os.tmpdir();
const workspace = process.env.GITHUB_WORKSPACE || process.cwd();
const config = input('config') || 'dbprobe.json';
const result = path.resolve(input('out') || path.join(temp, 'dbprobe-result.json'));
const verdictsFile = path.join(temp, `dbprobe-verdicts-${randomUUID()}.json`);
// The CLI's Markdown goes to a file of the step's own: the job summary opens with the verdicts.
const cliSummary = path.join(temp, `dbprobe-summary-${randomUUID()}.md`);
const baseline = input('baseline');

const args = ['run', '--config', config, '--format', 'json', '--out', result];
args.push('--verdicts', verdictsFile, '--summary', cliSummary);
for (const [name, flag] of [
  ['targets', '--targets'],
  ['kinds', '--kinds'],
  ['iterations', '--iterations'],
])
  if (input(name)) args.push(flag, input(name));
// The change flags judge against the baseline; a workflow's first run (no baseline artifact yet)
// passes an empty baseline, and the step then gates on its thresholds alone instead of failing.
const changeFlags = [];
for (const [name, flag] of [
  ['fail-on-regression', '--fail-on-regression'],
  ['noise', '--noise'],
  ['min-effect', '--min-effect'],
])
  if (input(name)) changeFlags.push(flag, input(name));
if (input('strict-host') === 'true') changeFlags.push('--strict-host');
if (baseline) args.push('--baseline', baseline, ...changeFlags);
else if (changeFlags.length > 0)
  console.log(
    workflowCommand(
      'notice',
      { title: 'dbprobe no baseline' },
      'fail-on-regression and noise are set but baseline is empty (no saved run yet?): this run is gated on its thresholds only',
    ),
  );
// One threshold per line (a target name may hold a comma); blank lines and # comments are skipped.
for (const line of input('thresholds').split(/\r?\n/)) {
  const threshold = line.trim();
  if (threshold && !threshold.startsWith('#')) args.push('--threshold', threshold);
}

// The summary flag names the file; the job's own summary is written below, verdicts first.
const { GITHUB_STEP_SUMMARY: jobSummary, ...cliEnv } = process.env;
console.error(`dbprobe action: ${[...command, ...args].map(quote).join(' ')}`);
const run = spawnSync(command[0], [...command.slice(1), ...args], {
  stdio: ['ignore', 'inherit', 'inherit'],
  env: cliEnv,
});
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
let report;
if (baseline && existsSync(result)) {
  // The run already judged the change; this asks for it as JSON, with the run's own minimum effect and
  // gate, so the annotations, outputs and comment say what the step decided.
  const compared = spawnSync(
    command[0],
    [...command.slice(1), 'compare', baseline, result, '--format', 'json', ...changeFlags],
    { env: cliEnv, encoding: 'utf8' },
  );
  // 1 is the gate failing, 2 with a report the runs not comparable: the report says which.
  report = [0, 1, 2].includes(compared.status) ? parseJson(compared.stdout) : undefined;
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

const configPath = path.resolve(config);
const configFromRoot = path.relative(workspace, configPath);
const configFile = configFromRoot.startsWith('..') ? undefined : configFromRoot.split(path.sep).join('/');
for (const line of gateAnnotations({
  verdicts,
  report,
  config: { file: configFile, text: readText(configPath) },
}))
  console.log(line);

const verdictBlock = verdictMarkdown({ code, verdicts, report });
const cliReport = readText(cliSummary) ?? '';
if (jobSummary) appendFileSync(jobSummary, `${verdictBlock}\n${cliReport}`);

for (const [name, value] of Object.entries(outputs)) {
  const delimiter = `dbprobe_${randomUUID()}`;
  appendFileSync(outputFile, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
}

if (input('comment-on-pr') === 'true')
  await commentOnPullRequest(verdictBlock, cliReport, configFile ?? config);
process.exit(code);

/** The sticky comment; a comment that cannot be written is a warning, never the step's failure. */
async function commentOnPullRequest(verdictBlock, cliReport, key) {
  const warn = (message) => console.log(workflowCommand('warning', { title: 'dbprobe PR comment' }, message));
  const event = readJson(process.env.GITHUB_EVENT_PATH ?? '');
  const issue = pullRequestNumber(event);
  if (issue === undefined)
    return warn(
      `comment-on-pr: this ${process.env.GITHUB_EVENT_NAME ?? ''} event is not about a pull request`,
    );
  const token = process.env.GITHUB_TOKEN ?? '';
  if (!token) return warn('comment-on-pr: no token (the github-token input is empty)');
  const server = process.env.GITHUB_SERVER_URL;
  const repository = process.env.GITHUB_REPOSITORY ?? '';
  const runId = process.env.GITHUB_RUN_ID;
  const marker = commentMarker(key);
  try {
    const done = await upsertComment({
      apiUrl: process.env.GITHUB_API_URL || 'https://api.github.com',
      token,
      repository,
      issue,
      marker,
      body: commentBody({
        marker,
        verdicts: verdictBlock,
        report: cliReport,
        ...(server && runId ? { runUrl: `${server}/${repository}/actions/runs/${runId}` } : {}),
      }),
    });
    console.error(`dbprobe action: pull request #${issue}: comment ${done.id} ${done.action}`);
  } catch (error) {
    const hint = /answered 403/.test(error.message)
      ? '; the job needs `permissions: pull-requests: write`, and a pull request from a fork gets a read-only token'
      : '';
    warn(`comment-on-pr: ${error.message}${hint}`);
  }
}

function readText(file) {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
}

function readJson(file) {
  const text = file ? readText(file) : undefined;
  return text === undefined ? undefined : parseJson(text);
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

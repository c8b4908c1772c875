/**
 * Runs the steps of the repository's composite action.yml as a GitHub runner does: each step's `run`
 * in bash, in its working-directory, with its `env` (inputs and earlier steps' outputs substituted
 * for `${{ inputs.x }}` / `${{ steps.id.outputs.y }}`), GITHUB_ACTION_PATH, GITHUB_OUTPUT (a file
 * per step, parsed after it), GITHUB_STEP_SUMMARY, GITHUB_WORKSPACE and RUNNER_TEMP. The reader
 * knows only the YAML shapes action.yml uses and fails on anything else, so the file cannot drift
 * from what this runs.
 */
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';

/** npm's settings and the TLS trust and proxy it reaches the registry through (a CI runner's, this machine's). */
const NPM_ENV = /^(npm_config_\w+|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|HTTPS?_PROXY|NO_PROXY)$/i;
const ROOT = path.resolve(__dirname, '../..');

export interface ActionStep {
  name: string;
  id?: string;
  run: string;
  workingDirectory?: string;
  env: Record<string, string>;
}

export interface ActionFile {
  inputs: Record<string, string>;
  outputs: Record<string, string>;
  steps: ActionStep[];
}

export function readAction(file = path.join(ROOT, 'action.yml')): ActionFile {
  const lines = readFileSync(file, 'utf8').split('\n');
  const inputs: Record<string, string> = {};
  const outputs: Record<string, string> = {};
  const steps: ActionStep[] = [];
  let section = '';
  let current: string | undefined;
  let step: ActionStep | undefined;
  let inEnv = false;
  for (const line of lines) {
    if (/^\s*(#|$)/.test(line)) continue;
    const top = /^(\w[\w-]*):/.exec(line);
    if (top) {
      section = top[1]!;
      continue;
    }
    const value = (text: string) => unquote(text.trim());
    if (section === 'inputs' || section === 'outputs') {
      const name = /^ {2}([\w-]+):$/.exec(line);
      if (name) {
        current = name[1]!;
        if (section === 'inputs') inputs[current] = '';
        continue;
      }
      const field = /^ {4}(default|value): (.*)$/.exec(line);
      if (field && current) {
        if (section === 'inputs' && field[1] === 'default') inputs[current] = value(field[2]!);
        if (section === 'outputs' && field[1] === 'value') outputs[current] = value(field[2]!);
      }
      continue;
    }
    if (section !== 'runs') continue;
    const item = /^ {4}- name: (.*)$/.exec(line);
    if (item) {
      step = { name: value(item[1]!), run: '', env: {} };
      steps.push(step);
      inEnv = false;
      continue;
    }
    const key = /^ {6}([\w-]+):(?: (.*))?$/.exec(line);
    if (key && step) {
      inEnv = key[1] === 'env';
      if (key[1] === 'id') step.id = value(key[2] ?? '');
      if (key[1] === 'run') step.run = value(key[2] ?? '');
      if (key[1] === 'working-directory') step.workingDirectory = value(key[2] ?? '');
      continue;
    }
    const envLine = /^ {8}([\w-]+): (.*)$/.exec(line);
    if (envLine && step && inEnv) {
      step.env[envLine[1]!] = value(envLine[2]!);
      continue;
    }
    if (/^ {2}(using|steps):/.test(line)) continue;
    throw new Error(`action.yml: a line this reader does not know: ${JSON.stringify(line)}`);
  }
  for (const s of steps) if (!s.run) throw new Error(`action.yml: step "${s.name}" has no one-line run`);
  return { inputs, outputs, steps };
}

export interface StepRun {
  code: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
}

export interface ActionContext {
  /** The job's environment (e.g. the connection a workflow sets with `env:`). */
  env: NodeJS.ProcessEnv;
  workspace: string;
  runnerTemp: string;
  summary: string;
  /** Inputs as a workflow's `with:` gives them; the rest take action.yml's defaults. */
  with: Record<string, string>;
  /** Outputs of steps run so far, by step id. */
  steps: Record<string, Record<string, string>>;
  /** RUNNER_TOOL_CACHE: the runner's folder that outlives a job (default: under runnerTemp). */
  toolCache?: string;
  /** The `github` context's values an expression may read (`${{ github.token }}`). */
  github?: Record<string, string>;
}

/** Runs one step of the action; its outputs are recorded in `context.steps[id]`. */
export async function runStep(
  action: ActionFile,
  step: ActionStep,
  context: ActionContext,
): Promise<StepRun> {
  const expand = (text: string): string =>
    text.replace(/\$\{\{\s*([\w.-]+)\s*\}\}/g, (_, expression: string) => {
      const [scope, ...rest] = expression.split('.');
      if (scope === 'inputs') return inputs[rest[0]!] ?? '';
      if (scope === 'steps' && rest[1] === 'outputs') return context.steps[rest[0]!]?.[rest[2]!] ?? '';
      if (scope === 'github' && rest.length === 1) return context.github?.[rest[0]!] ?? '';
      throw new Error(`action.yml: expression this runner does not know: ${expression}`);
    });
  // A default may be an expression (`${{ github.token }}`); a workflow's `with:` value is taken as given.
  const inputs: Record<string, string> = {
    ...Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, expand(v)])),
    ...context.with,
  };
  const outputFile = path.join(context.runnerTemp, `output-${step.id ?? step.name}-${Date.now()}`);
  writeFileSync(outputFile, '');
  const env: NodeJS.ProcessEnv = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? '',
    ...Object.fromEntries(Object.entries(process.env).filter(([k]) => NPM_ENV.test(k))),
    ...context.env,
    GITHUB_ACTIONS: 'true',
    GITHUB_ACTION_PATH: ROOT,
    GITHUB_WORKSPACE: context.workspace,
    GITHUB_OUTPUT: outputFile,
    GITHUB_STEP_SUMMARY: context.summary,
    RUNNER_TEMP: context.runnerTemp,
    RUNNER_TOOL_CACHE: context.toolCache ?? path.join(context.runnerTemp, 'tool-cache'),
    ...Object.fromEntries(Object.entries(step.env).map(([k, v]) => [k, expand(v)])),
  };
  const cwd = path.resolve(context.workspace, expand(step.workingDirectory ?? '.'));
  const done = await new Promise<Omit<StepRun, 'outputs'>>((resolve, reject) => {
    const child = spawn('bash', ['-e', '-c', step.run], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`step "${step.name}" did not finish in 300 s\n${stderr}`));
    }, 300_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
  const outputs = parseOutputs(readFileSync(outputFile, 'utf8'));
  if (step.id) context.steps[step.id] = outputs;
  return { ...done, outputs };
}

/** GITHUB_OUTPUT's two forms: `name=value` and `name<<DELIMITER` ... `DELIMITER`. */
export function parseOutputs(text: string): Record<string, string> {
  const outputs: Record<string, string> = {};
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const heredoc = /^([\w-]+)<<(.+)$/.exec(line);
    if (heredoc) {
      const end = lines.indexOf(heredoc[2]!, i + 1);
      if (end === -1) throw new Error(`GITHUB_OUTPUT: ${heredoc[1]} has no closing ${heredoc[2]}`);
      outputs[heredoc[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
      continue;
    }
    const pair = /^([\w-]+)=(.*)$/.exec(line);
    if (pair) outputs[pair[1]!] = pair[2]!;
    else if (line) throw new Error(`GITHUB_OUTPUT: a line GitHub would refuse: ${line}`);
  }
  return outputs;
}

function unquote(text: string): string {
  return /^'.*'$/.test(text) ? text.slice(1, -1).replace(/''/g, "'") : text;
}

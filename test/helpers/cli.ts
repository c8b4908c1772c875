/**
 * Runs the built CLI (dist/cli.js) as a real process, as users and CI do. A run that prints a process
 * warning (processWarnings.ts) rejects, whatever the test expected: no CLI test tolerates one.
 */
import { spawn } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { processWarnings } from './processWarnings';
import { tempDir } from './tempDir';

const ROOT = path.resolve(__dirname, '../..');
export const CLI = path.join(ROOT, 'dist/cli.js');

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runCli(
  args: string[],
  options: {
    env?: NodeJS.ProcessEnv;
    cwd?: string;
    timeoutMs?: number;
    onSpawn?: (pid: number) => void;
    /** Sees stderr as it arrives (progress lines), e.g. to signal the process mid-run. */
    onStderr?: (chunk: string) => void;
  } = {},
): Promise<CliRun> {
  if (!existsSync(CLI)) throw new Error(`${CLI} is missing: run \`npm run build\` first`);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [CLI, ...args], {
      cwd: options.cwd ?? ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      options.onStderr?.(chunk.toString());
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(`dbprobe ${args.join(' ')} did not finish in ${options.timeoutMs ?? 60_000} ms\n${stderr}`),
      );
    }, options.timeoutMs ?? 60_000);
    if (child.pid) options.onSpawn?.(child.pid);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      const warnings = processWarnings(stderr);
      if (warnings.length > 0)
        reject(new Error(`dbprobe ${args.join(' ')} printed a process warning:\n${warnings.join('\n')}`));
      else resolve({ code, stdout, stderr });
    });
  });
}

/** Writes a dbprobe.json into a fresh temp folder and returns that folder. */
export function configDir(config: unknown): string {
  const dir = tempDir('cli');
  writeFileSync(path.join(dir, 'dbprobe.json'), typeof config === 'string' ? config : JSON.stringify(config));
  return dir;
}

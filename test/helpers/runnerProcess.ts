/** Starts the Node runner (dist/runner.js) as a separate process on 127.0.0.1 and a free port. */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import * as path from 'node:path';

const RUNNER = path.resolve(__dirname, '../../dist/runner.js');

export interface RunnerProcess {
  url: string;
  child: ChildProcess;
  stderr(): string;
  /** Stops the runner (SIGTERM, or SIGKILL to simulate a crash) and waits for it to exit. */
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export async function startRunnerProcess(
  env: Record<string, string>,
  args: string[] = [],
): Promise<RunnerProcess> {
  if (!existsSync(RUNNER)) throw new Error(`${RUNNER} is missing: run \`npm run build\` first`);
  const child = spawn(process.execPath, [RUNNER, ...args], {
    env: { PATH: process.env.PATH ?? '', HOST: '127.0.0.1', PORT: '0', ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`runner did not start in 10 s:\n${stderr}`)), 10_000);
    const check = () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(stderr);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stderr?.on('data', check);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`runner exited with ${code}:\n${stderr}`));
    });
  });
  return {
    url,
    child,
    stderr: () => stderr,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      await exited;
    },
  };
}

/**
 * Runs the built CLI with stdin and stdout on a pseudo-terminal whose master side the test closes,
 * as when an ssh session drops: the CLI gets SIGHUP and its terminal hangs up under it. stderr stays
 * a pipe so the test still reads what the CLI says. Node cannot open a pty, so a small Python
 * process (python3 comes with the testbed's websockify) holds the master and closes it on SIGUSR1.
 */
import { spawn } from 'node:child_process';
import type { CliRun } from './cli';
import { CLI } from './cli';

const HOLDER = [
  'import json, os, pty, select, signal, sys',
  'hang = False',
  'def on_usr1(*_):',
  '    global hang',
  '    hang = True',
  'signal.signal(signal.SIGUSR1, on_usr1)',
  'err = os.dup(2)',
  'pid, fd = pty.fork()',
  'if pid == 0:',
  '    os.dup2(err, 2)',
  '    os.execv(sys.argv[1], sys.argv[1:])',
  'while not hang:',
  '    try:',
  '        ready, _, _ = select.select([fd], [], [], 0.05)',
  '        if ready: os.read(fd, 65536)',
  '    except OSError:',
  '        break',
  'os.close(fd)',
  '_, status = os.waitpid(pid, 0)',
  'print(json.dumps({"code": os.waitstatus_to_exitcode(status)}), flush=True)',
].join('\n');

/**
 * `hangUp()` (given to onStderr) closes the terminal. The run's code is the CLI's own exit code, or
 * minus the signal number when a signal (an abort, a crash) ended it.
 */
export function runCliOnClosingTerminal(
  args: string[],
  options: {
    env: NodeJS.ProcessEnv;
    cwd: string;
    timeoutMs?: number;
    onStderr: (seen: string, hangUp: () => void) => void;
  },
): Promise<CliRun> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/python3', ['-c', HOLDER, process.execPath, CLI, ...args], {
      cwd: options.cwd,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let holderOut = '';
    let stderr = '';
    const hangUp = () => child.kill('SIGUSR1');
    child.stdout.on('data', (chunk: Buffer) => (holderOut += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
      options.onStderr(stderr, hangUp);
    });
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`dbprobe ${args.join(' ')} on a closing terminal did not finish\n${stderr}`));
    }, options.timeoutMs ?? 60_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      const status = /\{"code": (-?\d+)\}/.exec(holderOut);
      if (!status) reject(new Error(`the terminal holder said no exit status:\n${holderOut}\n${stderr}`));
      else resolve({ code: Number(status[1]), stdout: '', stderr });
    });
  });
}

/**
 * Runs the user's suspend command (program + arguments, no shell) before a cold sample. The caller
 * decides whether commands are allowed at all (the CLI: yes; the editor: only in a trusted
 * workspace; the remote runner: never).
 */
import { spawn } from 'node:child_process';
import type { ColdWait } from '../core/cold';
import { ProbeError } from '../core/failure';

const KEEP_OUTPUT_CHARS = 2_000;
const KILL_GRACE_MS = 500;
const TICK_MS = 1_000;

export function runSuspendCommand(
  command: readonly string[],
  signal: AbortSignal,
  onWait: (wait: ColdWait) => void,
): Promise<void> {
  const [program, ...args] = command;
  if (!program) return Promise.reject(new ProbeError('config', 'cold.command is empty'));
  const shown = command.join(' ');
  if (signal.aborted) return Promise.reject(new ProbeError('cancelled', 'suspend command cancelled'));
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const waited = () => Math.round(performance.now() - started);
    onWait({ step: 'command', message: `running suspend command: ${shown}`, waitedMs: 0 });
    const child = spawn(program, args, { stdio: ['ignore', 'pipe', 'pipe'], shell: false });
    let output = '';
    const keep = (chunk: Buffer) => {
      output = (output + chunk.toString('utf8')).slice(-KEEP_OUTPUT_CHARS);
    };
    child.stdout.on('data', keep);
    child.stderr.on('data', keep);
    const ticker = setInterval(
      () => onWait({ step: 'command', message: `running suspend command: ${shown}`, waitedMs: waited() }),
      TICK_MS,
    );
    let killTimer: NodeJS.Timeout | undefined;
    const onAbort = () => {
      child.kill('SIGTERM');
      killTimer = setTimeout(() => child.kill('SIGKILL'), KILL_GRACE_MS);
      finish(new ProbeError('cancelled', 'suspend command cancelled'));
    };
    let settled = false;
    function finish(error?: Error) {
      if (settled) return;
      settled = true;
      clearInterval(ticker);
      signal.removeEventListener('abort', onAbort);
      if (error) reject(error);
      else resolve();
    }
    signal.addEventListener('abort', onAbort, { once: true });
    child.on('error', (error) =>
      finish(
        new ProbeError(
          'config',
          `could not start the suspend command "${program}" (${error.message}); check cold.command and the PATH`,
        ),
      ),
    );
    child.on('close', (code, killedBy) => {
      if (killTimer) clearTimeout(killTimer);
      if (code === 0) return finish();
      const tail = output.trim().split('\n').slice(-3).join(' / ');
      finish(
        new ProbeError(
          'config',
          `the suspend command "${shown}" ${killedBy ? `was killed by ${killedBy}` : `exited with code ${code}`}${tail ? ` (${tail})` : ''}; run it by hand to see why`,
        ),
      );
    });
  });
}

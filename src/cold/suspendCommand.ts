/**
 * Runs the user's suspend command (program + arguments, no shell) before a cold sample. The caller
 * decides whether commands are allowed at all (the CLI: yes; the editor: only in a trusted
 * workspace; the remote runner: never).
 */
import { spawn } from 'node:child_process';
import type { ColdWait } from '../core/cold';
import { ProbeError } from '../core/failure';
import { expiredWait } from '../core/timeoutSignal';
import { quoteOutput } from '../shared/redact';

/**
 * The end of the command's output kept while it runs. The error quotes far less of it (QUOTED_CHARS,
 * through quoteOutput): the output inherits this process's environment and may print any secret in
 * it, which the run's Redactor masks before anything shows the message.
 */
const KEEP_OUTPUT_CHARS = 16_384;
const QUOTED_LINES = 3;
const QUOTED_CHARS = 300;
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
    let dropped = false;
    const keep = (chunk: Buffer) => {
      output += chunk.toString('utf8');
      if (output.length > KEEP_OUTPUT_CHARS) {
        output = output.slice(-KEEP_OUTPUT_CHARS);
        dropped = true;
      }
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
      finish(
        expiredWait(signal)
          ? new ProbeError('timeout', `the suspend command "${shown}" was still running after ${waited()} ms`)
          : new ProbeError('cancelled', 'suspend command cancelled'),
      );
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
      // A line cut by the kept window's start is not quoted: it could hold the end of a secret.
      const whole = dropped ? output.slice(output.indexOf('\n') + 1) : output;
      const lines = whole.trim().split('\n').slice(-QUOTED_LINES).join(' / ');
      const tail = quoteOutput(lines, { maxChars: QUOTED_CHARS, keep: 'end' });
      finish(
        new ProbeError(
          'config',
          `the suspend command "${shown}" ${killedBy ? `was killed by ${killedBy}` : `exited with code ${code}`}${tail ? ` (${tail})` : ''}; run it by hand to see why`,
        ),
      );
    });
  });
}

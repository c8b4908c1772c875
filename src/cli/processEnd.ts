/** How the CLI process talks and ends, apart from the commands themselves. */
import { closeSync } from 'node:fs';
import { isatty } from 'node:tty';
import { quoteOutput } from '../shared/redact';
import { EXIT } from './cliError';

/** The signals that cancel a run and keep its partial report. */
export const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const satisfies readonly NodeJS.Signals[];

export const SIGNAL_NOTICES: Partial<Record<NodeJS.Signals, string>> = {
  SIGINT: '\ncancelling (Ctrl-C again to quit at once)...\n',
  SIGTERM: '\nSIGTERM: cancelling (a second SIGTERM quits at once)...\n',
  SIGHUP: '\nSIGHUP (the terminal closed): cancelling; the report keeps what was measured...\n',
};

/** Why the run stopped, as the cancel line says it: the abort's reason. */
export const SIGNAL_REASONS: Partial<Record<NodeJS.Signals, string>> = {
  SIGINT: 'cancelled with Ctrl-C (SIGINT)',
  SIGTERM: 'stopped by SIGTERM (a CI timeout, or a container or service stopping)',
  SIGHUP: 'the terminal closed (SIGHUP)',
};

/** The shell's 128 + signal number for a run a signal stopped. */
export function signalExitCode(signal: NodeJS.Signals): number {
  return signal === 'SIGTERM' ? EXIT.terminated : signal === 'SIGHUP' ? EXIT.hungUp : EXIT.cancelled;
}

/**
 * A write to a terminal that closed (EIO), or to a pipe whose reader left (EPIPE), emits 'error' on
 * the stream: without a listener the process dies with a stack trace and the outputs still to write.
 * The exit code says an output failed.
 */
export function keepWritesQuiet(stream: NodeJS.WriteStream): void {
  stream.on('error', () => {
    streamFailed = true;
  });
}

let streamFailed = false;

/** The exit code once stdout and stderr had their say: a clean run whose output was lost is 1. */
function finalCode(code: number): number {
  return streamFailed && code === EXIT.ok ? EXIT.targetFailed : code;
}

/**
 * Node prints a library's warnings over several lines (pg's sslmode notice is nine): the user gets
 * the first one, marked as ours, credentials stripped.
 */
export function warningsOnOneLine(stderr: NodeJS.WritableStream): void {
  process.removeAllListeners('warning');
  process.on('warning', (warning) => {
    const first = warning.message.slice(0, 500).split('\n')[0]?.trim() ?? '';
    stderr.write(`dbprobe: warning: ${quoteOutput(first)}\n`);
  });
}

/**
 * Ends the process once stdout and stderr are flushed. A finished run must not wait for sockets a
 * driver failed to close (a connect to a host that drops SYNs, a handshake still trickling in):
 * Node would otherwise keep the CLI alive until the kernel gives up on them, minutes later.
 */
export function exitWhenFlushed(code: number): void {
  process.exitCode = code;
  let pending = 2;
  const flushed = () => {
    pending -= 1;
    if (pending === 0) exitNow(finalCode(code));
  };
  process.stdout.write('', flushed);
  process.stderr.write('', flushed);
  // A stream that can no longer take writes (a closed terminal) may never call back: quit anyway.
  setTimeout(() => exitNow(finalCode(code)), FLUSH_WAIT_MS).unref();
}

/** Which of stdin, stdout and stderr were terminals when the process started, as Node saw them. */
const STARTED_ON_TERMINAL = [0, 1, 2].map((fd) => isatty(fd));

/** Every way out of the process: a terminal that hung up is let go of first. */
export function exitNow(code: number): never {
  releaseHungUpTerminals();
  return process.exit(code);
}

/**
 * On its way out Node restores each standard stream that was a terminal at start, and aborts with a
 * native assertion (or crashes) when that terminal has hung up (an ssh session dropped): the restore
 * fails with EIO. A hung-up terminal is no longer a terminal to isatty(), and Node skips a closed
 * descriptor, so closing those lets the process end with its own exit code.
 */
function releaseHungUpTerminals(): void {
  STARTED_ON_TERMINAL.forEach((terminal, fd) => {
    if (!terminal || isatty(fd)) return;
    try {
      closeSync(fd);
    } catch {
      // Already closed: nothing left for Node to restore.
    }
  });
}

const FLUSH_WAIT_MS = 2_000;

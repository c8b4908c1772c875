/** How the CLI process talks and ends, apart from the commands themselves. */
import { quoteOutput } from '../shared/redact';

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
    if (pending === 0) process.exit(code);
  };
  process.stdout.write('', flushed);
  process.stderr.write('', flushed);
}

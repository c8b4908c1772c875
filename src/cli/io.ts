/** What a command may touch, injected so tests can run commands in-process. */
import type { ProgressStream } from './progress';

export interface CliIo {
  env: NodeJS.ProcessEnv;
  cwd: string;
  stdout: { write(text: string): unknown };
  stderr: ProgressStream;
  /** Aborted on the first Ctrl-C. */
  signal: AbortSignal;
  /** True once stdout is a terminal that closed (SIGHUP): the report then goes to a fallback file. */
  stdoutLost?: () => boolean;
}

/** Errors the CLI turns into an exit code and one line on stderr. */

/**
 * 3: every target measured, but a `--threshold` failed (CI gates tell slow from broken).
 * 129, 130 and 143 follow the shell's 128 + signal number (SIGHUP 1, SIGINT 2, SIGTERM 15).
 */
export const EXIT = {
  ok: 0,
  targetFailed: 1,
  usage: 2,
  thresholdFailed: 3,
  hungUp: 129,
  cancelled: 130,
  terminated: 143,
} as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

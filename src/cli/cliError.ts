/** Errors the CLI turns into an exit code and one line on stderr. */

/** 3: every target measured, but a `--threshold` failed (CI gates tell slow from broken). */
export const EXIT = { ok: 0, targetFailed: 1, usage: 2, thresholdFailed: 3, cancelled: 130 } as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

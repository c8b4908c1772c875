/** Errors the CLI turns into an exit code and one line on stderr. */

export const EXIT = { ok: 0, targetFailed: 1, usage: 2, cancelled: 130 } as const;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message);
    this.name = 'CliError';
  }
}

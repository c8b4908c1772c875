/**
 * `dbprobe run --raw FILE`: every request of the `load` and `schedule` kinds as one NDJSON line, so
 * users can compute any figure themselves. Opened before the run (a bad path fails before anything is
 * measured), streamed in chunks (no blocking write between two requests), and capped: past
 * RAW_MAX_REQUESTS a last line says how many were left out, and so does stderr. A write that fails
 * mid-run (a full disk, /dev/full) stops the file, never the run: the report is written as usual and
 * the exit code says the file is incomplete.
 */
import { closeSync, createWriteStream, openSync, type WriteStream } from 'node:fs';
import type { RawRequest } from '../shared/loadResult';
import { CliError } from './cliError';
import type { CliIo } from './io';
import { describeWriteError } from './reportOutput';

/** Requests written at most: about 100 MB of lines (~100 bytes each). */
export const RAW_MAX_REQUESTS = 1_000_000;
/** Lines handed to the stream at once. */
const CHUNK = 2_000;

export class RawOutput {
  private readonly stream: WriteStream;
  private readonly fd: number;
  private pending: string[] = [];
  private written = 0;
  private left = 0;
  /** The first write error; from then on nothing more is handed to the stream. */
  private failure: unknown;

  /** Opens (creates or truncates) `file` now, so an unwritable path is a usage error before the run. */
  constructor(
    private readonly file: string,
    private readonly cap = RAW_MAX_REQUESTS,
  ) {
    let fd: number;
    try {
      fd = openSync(file, 'w');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'an error';
      throw new CliError(
        `--raw ${file} cannot be written (${code}); pass another path; nothing was measured yet`,
      );
    }
    this.fd = fd;
    this.stream = createWriteStream(file, { fd, autoClose: false });
    // Without a listener a failed write is an unhandled 'error' event: the process would die with
    // the run's figures unreported.
    this.stream.on('error', (error) => {
      this.failure ??= error;
    });
  }

  /** For the engine's `onRequest`. */
  readonly add = (request: RawRequest): void => {
    if (this.written >= this.cap) {
      this.left += 1;
      return;
    }
    this.written += 1;
    this.pending.push(JSON.stringify(request));
    if (this.pending.length >= CHUNK) this.flush();
  };

  private flush(): void {
    if (this.pending.length === 0) return;
    if (this.failure !== undefined) {
      this.pending = [];
      return;
    }
    this.stream.write(this.pending.join('\n') + '\n');
    this.pending = [];
  }

  /**
   * Writes what is left (and the cap line, when reached), closes the file, says so on stderr.
   * False when a write failed: the line says the file is incomplete and why.
   */
  async close(io: CliIo): Promise<boolean> {
    this.flush();
    if (this.left > 0 && this.failure === undefined)
      this.stream.write(
        JSON.stringify({ capped: true, cap: this.cap, written: this.written, left: this.left }) + '\n',
      );
    await new Promise<void>((resolve) =>
      this.stream.end((error?: Error | null) => {
        if (error) this.failure ??= error;
        resolve();
      }),
    );
    try {
      closeSync(this.fd);
    } catch (error) {
      this.failure ??= error;
    }
    if (this.failure !== undefined) {
      io.stderr.write(
        `dbprobe: could not write --raw ${this.file} (${describeWriteError(this.failure)}): the file misses requests of the ${this.written} recorded; the report is complete; pass a path with room for the requests\n`,
      );
      return false;
    }
    io.stderr.write(
      this.left > 0
        ? `dbprobe: --raw ${this.file}: the first ${this.written} requests (the cap); ${this.left} more were not written\n`
        : `dbprobe: --raw ${this.file}: ${this.written} requests\n`,
    );
    return true;
  }
}

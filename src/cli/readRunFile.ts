/**
 * Reading a saved run result (`dbprobe compare BASE HEAD`, `dbprobe run --baseline BASE`): a regular
 * file of bounded size, read with that bound (a device such as /dev/zero never ends, and a file that
 * grows while read stops at the bound), parsed, then validated field by field
 * (validateRunResult.ts) before any figure is formed. Each refusal is a usage error (exit 2) naming
 * the file and what is wrong with it.
 */
import { closeSync, fstatSync, openSync, readSync } from 'node:fs';
import { runResultProblem } from '../core/validate/validateRunResult';
import type { RunResult } from '../shared/result';
import { CliError } from './cliError';

/**
 * Larger than any result this tool writes: 1,000,000 kept samples (the highest sampleCap) of one
 * kind come to about 80 MB of JSON. Past it the file is not read at all.
 */
export const MAX_RUN_FILE_BYTES = 256 * 1024 * 1024;

const CHUNK_BYTES = 1024 * 1024;
const SAVE_HINT = 'save a run with `dbprobe run --format json --out FILE` and pass that file';

/** A saved run result: one `dbprobe.run/v1` document, or a JSON array holding exactly one. */
export function readRunFile(file: string, what: string, maxBytes = MAX_RUN_FILE_BYTES): RunResult {
  // A byte-order mark (an editor's "UTF-8 with BOM") is not part of the JSON: JSON.parse refuses it.
  const text = readBounded(file, what, maxBytes).replace(/^\uFEFF/, '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new CliError(
      `${what} ${file} is not JSON; pass a result saved with \`dbprobe run --format json --out FILE\` (Markdown and CSV reports hold no samples to compare)`,
    );
  }
  if (Array.isArray(parsed)) {
    if (parsed.length === 0)
      throw new CliError(`${what} ${file} is an empty list: it holds no run result; ${SAVE_HINT}`);
    if (parsed.length !== 1)
      throw new CliError(
        `${what} ${file} holds ${parsed.length} results (one per place); compare one place's run: save it from a run with one place (no --runner, or one --runner without --here)`,
      );
    parsed = parsed[0];
  }
  const problem = runResultProblem(parsed);
  if (problem !== undefined)
    throw new CliError(
      `${what} ${file} is not a dbprobe run result this tool can compare: ${problem}; ${SAVE_HINT} (a hand-edited result must keep every latency a number of µs from 0 to an hour)`,
    );
  const result = parsed as RunResult;
  // A run holds one measurement per target and kind: a second one (a file joined or edited by hand)
  // would be compared twice, or one side silently over the other.
  const seen = new Set<string>();
  for (const m of result.measurements) {
    const key = `target "${m.target}" ${m.kind}`;
    if (seen.has(key))
      throw new CliError(
        `${what} ${file} holds the measurement of ${key} twice, and a run saves one per target and kind: it was joined or edited by hand; ${SAVE_HINT}`,
      );
    seen.add(key);
  }
  return result;
}

function readBounded(file: string, what: string, maxBytes: number): string {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new CliError(
      `${what} ${file} cannot be read (${code === 'ENOENT' ? 'no such file' : (code ?? String(error))}); ${SAVE_HINT}`,
    );
  }
  try {
    const stat = fstatSync(fd);
    if (!stat.isFile())
      throw new CliError(
        `${what} ${file} is not a regular file (a device, a pipe or a folder); ${SAVE_HINT}`,
      );
    if (stat.size > maxBytes)
      throw new CliError(
        `${what} ${file} is ${megabytes(stat.size)} MB; the limit is ${megabytes(maxBytes)} MB, more than any run result holds; ${SAVE_HINT}`,
      );
    const chunks: Buffer[] = [];
    let length = 0;
    for (;;) {
      const chunk = Buffer.alloc(CHUNK_BYTES);
      const read = readSync(fd, chunk, 0, CHUNK_BYTES, null);
      if (read === 0) break;
      chunks.push(chunk.subarray(0, read));
      length += read;
      if (length > maxBytes)
        throw new CliError(
          `${what} ${file} grew past ${megabytes(maxBytes)} MB while it was read; ${SAVE_HINT}`,
        );
    }
    return Buffer.concat(chunks, length).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

function megabytes(bytes: number): string {
  return (bytes / 1_048_576).toFixed(1);
}

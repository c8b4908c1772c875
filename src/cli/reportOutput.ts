/**
 * Where the report goes. A finished run is never lost to an output problem: every output file is checked before
 * the run (fail fast, nothing measured yet), and if writing still fails after it, the report goes to
 * a temporary file, or to stdout when even that fails, with one line saying where.
 */
import { accessSync, appendFileSync, closeSync, constants, statSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ExportFormat } from '../shared/formats';
import { CliError, EXIT } from './cliError';
import type { CliIo } from './io';
import { NO_READER, pipeWithoutReader, takeHeldPipe } from './namedPipe';

const EXTENSIONS: Record<ExportFormat, string> = { markdown: '.md', json: '.json', csv: '.csv' };

/**
 * Any file the run will write or append to (`--out`, `--summary`, GITHUB_STEP_SUMMARY), checked
 * before anything is probed: `flag` names where the path came from, for the message.
 */
export function checkOutputFile(file: string, flag: string): void {
  const folder = path.dirname(file);
  const fix = `create it or pass another ${flag} path; nothing was measured yet`;
  const existing = statOrUndefined(file);
  if (existing?.isDirectory())
    throw new CliError(
      `${flag} ${file} is a folder; give a file path such as ${path.join(file, flag === '--raw' ? 'requests.ndjson' : flag === '--verdicts' ? 'verdicts.json' : 'report.md')}`,
    );
  if (existing?.isSocket())
    throw new CliError(`${flag} ${file} is a socket, not a file; give a file path; nothing was measured yet`);
  if (existing?.isFIFO() && pipeWithoutReader(file))
    throw new CliError(
      `${flag} ${file}: ${NO_READER}, so the output would wait for a reader forever; start the reader first (e.g. cat ${file} &) or give a file path; nothing was measured yet`,
    );
  const parent = statOrUndefined(folder);
  if (!parent) throw new CliError(`${flag} ${file}: the folder ${folder} does not exist; ${fix}`);
  if (!parent.isDirectory()) throw new CliError(`${flag} ${file}: ${folder} is not a folder; ${fix}`);
  try {
    accessSync(existing ? file : folder, constants.W_OK);
  } catch {
    throw new CliError(
      `${flag} ${file}: ${existing ? 'the file' : `the folder ${folder}`} is not writable for this user; pass another ${flag} path; nothing was measured yet`,
    );
  }
}

/**
 * Writes (or appends) one output other than the report: the verdicts, a job summary. A failure costs
 * one line saying what is missing and why, and returns false: the caller's exit code says so (1),
 * and the other outputs are still written.
 */
export function writeOutputFile(
  file: string,
  text: string,
  what: string,
  io: CliIo,
  mode: 'write' | 'append' = 'write',
): boolean {
  try {
    if (pipeWithoutReader(file)) throw Object.assign(new Error(NO_READER), { code: 'ENXIO' });
    writeTo(file, text, mode);
    return true;
  } catch (error) {
    io.stderr.write(
      `dbprobe: could not ${mode === 'append' ? 'append' : 'write'} ${what} to ${file} (${describeWriteError(error)}); the report and the other outputs stand; pass another path\n`,
    );
    return false;
  }
}

/** Writes the report where asked; returns the exit code the output itself calls for (0 or 1). */
export function writeReport(
  report: string,
  format: ExportFormat,
  out: string | undefined,
  io: CliIo,
): number {
  // The terminal the report would go to is gone (SIGHUP): the fallback file keeps it.
  if (!out && io.stdoutLost?.()) return writeFallback(report, format, 'stdout', 'the terminal closed', io);
  if (!out) {
    io.stdout.write(report);
    return EXIT.ok;
  }
  // The reader of a pipe may have left during the run: the report must not wait for another.
  if (pipeWithoutReader(out)) return writeFallback(report, format, out, NO_READER, io);
  try {
    writeTo(out, report, 'write');
    io.stderr.write(`wrote ${format} report to ${out}\n`);
    return EXIT.ok;
  } catch (error) {
    return writeFallback(report, format, out, describeWriteError(error), io);
  }
}

/** A named pipe held open since the check gets the text through that descriptor. */
function writeTo(file: string, text: string, mode: 'write' | 'append'): void {
  const fd = takeHeldPipe(file);
  if (fd === undefined) {
    if (mode === 'append') appendFileSync(file, text);
    else writeFileSync(file, text);
    return;
  }
  try {
    writeFileSync(fd, text);
  } finally {
    closeSync(fd);
  }
}

/** The report in a temporary file (or on stdout when even that fails), with one line saying where. */
function writeFallback(report: string, format: ExportFormat, out: string, why: string, io: CliIo): number {
  const fallback = path.join(
    os.tmpdir(),
    `dbprobe-report-${new Date().toISOString().replace(/[:.]/g, '-')}-${process.pid}${EXTENSIONS[format]}`,
  );
  try {
    writeFileSync(fallback, report, { flag: 'wx' });
    io.stderr.write(
      `dbprobe: could not write the report to ${out} (${why}); wrote it to ${fallback} instead: move it where you need it\n`,
    );
  } catch {
    io.stderr.write(
      `dbprobe: could not write the report to ${out} (${why}) nor to a temporary file; printing it on stdout instead\n`,
    );
    io.stdout.write(report);
  }
  return EXIT.targetFailed;
}

function statOrUndefined(file: string): ReturnType<typeof statSync> | undefined {
  try {
    return statSync(file);
  } catch {
    return undefined;
  }
}

export function describeWriteError(error: unknown): string {
  const code = (error as NodeJS.ErrnoException).code;
  switch (code) {
    case 'ENOENT':
      return 'its folder no longer exists';
    case 'EACCES':
    case 'EPERM':
      return 'permission denied';
    case 'EISDIR':
      return 'it is a folder';
    case 'ENOSPC':
      return 'no space left on the device';
    case 'EROFS':
      return 'the file system is read-only';
    case 'ENXIO':
      return NO_READER;
    case 'EPIPE':
      return 'the program reading it went away';
    default:
      return code ?? (error instanceof Error ? error.message : String(error));
  }
}

/**
 * Named pipes (FIFOs) as outputs. Opening one for writing waits until a reader opens it, and the
 * CLI writes its outputs synchronously: a pipe nobody reads would hold the process past every
 * signal, with the finished report in memory. So a pipe is first opened without waiting, which fails
 * at once (ENXIO) when nobody reads it. One with a reader is kept open from the check to the write:
 * closing it in between would hand the reader an end of file, and it would leave before the report.
 */
import { closeSync, constants, openSync, statSync } from 'node:fs';

export const NO_READER = 'it is a named pipe (FIFO) that nothing reads';

const held = new Map<string, number>();

/**
 * For a named pipe: opens it for writing when something reads it and keeps it open for the output
 * (true), or says nobody reads it (false). Undefined for anything else.
 */
export function holdPipe(file: string): boolean | undefined {
  if (held.has(file)) return true;
  if (!isPipe(file)) return undefined;
  let probe: number;
  try {
    probe = openSync(file, constants.O_WRONLY | constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    // A reader is there, so a blocking open returns at once; blocking writes wait for it to read.
    held.set(file, openSync(file, constants.O_WRONLY));
    return true;
  } catch {
    return false;
  } finally {
    closeSync(probe);
  }
}

/** The descriptor holdPipe kept for `file`, handed over once: the caller writes and closes it. */
export function takeHeldPipe(file: string): number | undefined {
  const fd = held.get(file);
  held.delete(file);
  return fd;
}

/** True when `file` is a named pipe that no process has open for reading (and none was held). */
export function pipeWithoutReader(file: string): boolean {
  return holdPipe(file) === false;
}

function isPipe(file: string): boolean {
  try {
    return statSync(file).isFIFO();
  } catch {
    return false;
  }
}

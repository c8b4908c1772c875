/** A CliIo that records what a command writes, for running CLI code in-process. */
import type { CliIo } from '../../src/cli/io';

export interface RecordingIo extends CliIo {
  out: () => string;
  err: () => string;
}

export function recordingIo(signal: AbortSignal = new AbortController().signal): RecordingIo {
  let out = '';
  let err = '';
  return {
    env: {},
    cwd: process.cwd(),
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
    signal,
    out: () => out,
    err: () => err,
  };
}

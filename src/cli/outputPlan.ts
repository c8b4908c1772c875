/**
 * Every file a command will write, checked together before anything is probed: each one writable
 * (reportOutput.ts's checkOutputFile), no two naming the same file (one would overwrite the other:
 * `--raw X --out X` left X holding request lines), and none naming a file the command reads (the
 * config, `--baseline`, compare's BASE and HEAD), which the write would destroy.
 */
import { realpathSync, statSync } from 'node:fs';
import * as path from 'node:path';
import { CliError } from './cliError';
import { checkOutputFile } from './reportOutput';

/** A file a command writes or appends to; `flag` names where its path came from, for messages. */
export interface OutputFile {
  flag: string;
  file: string;
}

/** A file a command reads; `what` names it for messages ("the config file", "--baseline"). */
export interface InputFile {
  what: string;
  file: string;
}

/** Writing the same bytes twice to it loses nothing: the one file two outputs may share. */
const SHARED_SINK = '/dev/null';

export function checkOutputPlan(outputs: readonly OutputFile[], inputs: readonly InputFile[] = []): void {
  for (const output of outputs) checkOutputFile(output.file, output.flag);
  const seen: { output: OutputFile; key: string }[] = [];
  for (const output of outputs) {
    const key = fileKey(output.file);
    if (key === fileKey(SHARED_SINK)) continue;
    const earlier = seen.find((s) => s.key === key);
    if (earlier)
      throw new CliError(
        `${earlier.output.flag} ${earlier.output.file} and ${output.flag} ${output.file} name the same file: one would overwrite the other; give each output its own path; nothing was measured yet`,
      );
    seen.push({ output, key });
    const input = inputs.find((i) => fileKey(i.file) === key);
    if (input)
      throw new CliError(
        `${output.flag} ${output.file} is ${input.what} this command reads (${input.file}): writing it would destroy it; pass another ${output.flag} path; nothing was measured yet`,
      );
  }
}

/**
 * One key per file, whatever path names it: an existing file by device and inode (hard links,
 * symlinks, `./x` and `x` alike), a new one by its folder's real path and its name.
 */
function fileKey(file: string): string {
  const resolved = path.resolve(file);
  try {
    const stat = statSync(resolved);
    return `inode:${stat.dev}:${stat.ino}`;
  } catch {
    try {
      return `path:${path.join(realpathSync(path.dirname(resolved)), path.basename(resolved))}`;
    } catch {
      return `path:${resolved}`;
    }
  }
}

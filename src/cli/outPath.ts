/**
 * The path an `--out` value names. `-` is stdout, as in most command-line tools. A value ending in a
 * slash names a folder; one that does not exist would otherwise become a file called like the
 * folder, so it is refused before anything runs.
 */
import { existsSync } from 'node:fs';
import * as path from 'node:path';
import { CliError } from './cliError';

/** Undefined for stdout (no value, or `-`). */
export function outPath(value: string | undefined, cwd: string, flag = '--out'): string | undefined {
  if (value === undefined || value === '' || value === '-') return undefined;
  const file = path.resolve(cwd, value);
  if (/[\\/]$/.test(value) && !existsSync(file))
    throw new CliError(
      `${flag} ${value} ends with a slash, so it names a folder, and there is no folder ${file}; create it and give a file in it (${path.join(value, 'report.md')}), or drop the slash; nothing was measured yet`,
    );
  return file;
}

/** The files of a source tree, for tests that read the code itself (one walker for all of them). */
import { readdirSync } from 'node:fs';
import * as path from 'node:path';

/**
 * Every file under `dir`, at any depth, whose name matches `name` (TypeScript by default); a folder
 * for which `skip` says true is not entered.
 */
export function filesUnder(
  dir: string,
  name: RegExp = /\.ts$/,
  skip: (folder: string) => boolean = () => false,
): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return skip(full) ? [] : filesUnder(full, name, skip);
    return name.test(entry.name) ? [full] : [];
  });
}

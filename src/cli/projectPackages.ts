/**
 * The CLI measures the driver versions the project installed: it looks them up from the config
 * file's folder, then from the working directory (src/drivers/packageSource.ts).
 */
import * as path from 'node:path';
import type { PackageLookup } from '../shared/packageLookup';

export function cliPackageLookup(configPath: string | undefined, cwd: string): PackageLookup {
  const dirs = [...(configPath ? [path.dirname(configPath)] : []), cwd].map((dir) => path.resolve(dir));
  return { projectDirs: [...new Set(dirs)], projectLabel: 'your project' };
}

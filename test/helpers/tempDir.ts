/** Temporary folders for a test file, removed when its process exits: CI machines are reused. */
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const made: string[] = [];
process.once('exit', () => {
  for (const dir of made) rmSync(dir, { recursive: true, force: true });
});

export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `dbprobe-${prefix}-`));
  made.push(dir);
  return dir;
}

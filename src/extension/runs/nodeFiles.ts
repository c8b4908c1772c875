/**
 * Saved runs on a local disk, through Node's fs. Used for `file:` storage: unlike
 * vscode.workspace.fs, it still works while the window closes (the extension host's connection to
 * the workbench is gone by then), when a run stopped by the closing window saves what it measured.
 * A file is written beside its place and renamed over it, so a host ended mid-write (VS Code ends it
 * 5 s after the window goes) leaves the old file or the new one, never half of one.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

export async function createFolder(folder: string): Promise<void> {
  await fs.mkdir(folder, { recursive: true });
}

export function readBytes(file: string): Promise<Uint8Array> {
  return fs.readFile(file);
}

export async function writeBytesWhole(file: string, bytes: Uint8Array): Promise<void> {
  const temporary = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`,
  );
  try {
    await fs.writeFile(temporary, bytes);
    await fs.rename(temporary, file);
  } catch (error) {
    await fs.rm(temporary, { force: true });
    throw error;
  }
}

/** Removes a file; one already gone is no error. */
export async function removeFile(file: string): Promise<void> {
  await fs.rm(file, { force: true });
}

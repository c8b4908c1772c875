/**
 * Where a run looks for the project's own driver packages (src/drivers/packageSource.ts). Plain data:
 * the CLI and the editor name it, and it crosses into a probe thread in its start message.
 */
import { isRecord, isStringArray } from './guards';

export interface PackageLookup {
  /** Folders searched in order, each as the app's `require` would (its node_modules, then up). */
  projectDirs: readonly string[];
  /** How results name the project for the user ("your project", "your workspace"). */
  projectLabel?: string;
  /** Why no project folder is searched, when one could have been (an untrusted workspace). */
  bundledBecause?: string;
  /**
   * The project is exactly these folders (a workspace's): a copy found above them, in a parent
   * folder's node_modules, is named by that folder rather than by `projectLabel`.
   */
  foldersBound?: boolean;
}

export function isPackageLookup(value: unknown): value is PackageLookup {
  return (
    isRecord(value) &&
    isStringArray(value.projectDirs) &&
    (value.projectLabel === undefined || typeof value.projectLabel === 'string') &&
    (value.bundledBecause === undefined || typeof value.bundledBecause === 'string') &&
    (value.foldersBound === undefined || typeof value.foldersBound === 'boolean')
  );
}

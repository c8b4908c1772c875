/**
 * The editor measures the driver versions the workspace installed, in a trusted workspace only:
 * loading a package from the workspace runs its code, which an untrusted workspace must never get
 * to do. Untrusted, or with no folder open, the drivers bundled with the extension are used, and
 * the result says so (src/drivers/packageSource.ts).
 */
import * as vscode from 'vscode';
import { WORKSPACE_WORDS } from '../shared/driverPackages';
import type { PackageLookup } from '../shared/packageLookup';

export function workspacePackageLookup(): PackageLookup | undefined {
  if (!vscode.workspace.isTrusted)
    return {
      projectDirs: [],
      projectLabel: WORKSPACE_WORDS,
      bundledBecause:
        "the workspace is not trusted, so its own driver packages are not loaded (they would run the workspace's code); trust the workspace to measure the version it installed",
    };
  const dirs = (vscode.workspace.workspaceFolders ?? [])
    .filter((folder) => folder.uri.scheme === 'file')
    .map((folder) => folder.uri.fsPath);
  // A copy in a folder above the workspace (found as the app's require would) is named by its folder.
  return dirs.length > 0
    ? { projectDirs: dirs, projectLabel: WORKSPACE_WORDS, foldersBound: true }
    : undefined;
}

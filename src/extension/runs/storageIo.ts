/**
 * File access for the run store: Node's fs for `file:` storage (works while the window closes, see
 * nodeFiles.ts), vscode.workspace.fs for any other scheme (a virtual workspace's storage).
 */
import * as vscode from 'vscode';
import { createFolder, readBytes, removeFile, writeBytesWhole } from './nodeFiles';

export interface StorageIo {
  createDirectory(uri: vscode.Uri): Promise<void>;
  readFile(uri: vscode.Uri): Promise<Uint8Array>;
  writeFile(uri: vscode.Uri, bytes: Uint8Array): Promise<void>;
  /** Deletes a file (the store treats a failure as the file being gone already). */
  delete(uri: vscode.Uri): Promise<void>;
}

const onDisk: StorageIo = {
  createDirectory: (uri) => createFolder(uri.fsPath),
  readFile: (uri) => readBytes(uri.fsPath),
  writeFile: (uri, bytes) => writeBytesWhole(uri.fsPath, bytes),
  delete: (uri) => removeFile(uri.fsPath),
};

const throughWorkbench: StorageIo = {
  createDirectory: async (uri) => vscode.workspace.fs.createDirectory(uri),
  readFile: async (uri) => vscode.workspace.fs.readFile(uri),
  writeFile: async (uri, bytes) => vscode.workspace.fs.writeFile(uri, bytes),
  delete: async (uri) => vscode.workspace.fs.delete(uri),
};

export function storageIoFor(folder: vscode.Uri): StorageIo {
  return folder.scheme === 'file' ? onDisk : throughWorkbench;
}

/** Export a run as Markdown, JSON or CSV to a file, or copy the Markdown to the clipboard. */
import * as vscode from 'vscode';
import type { ExportFormat } from '../../shared/messages';
import { defaultExportName, exportText } from '../export/exportText';
import type { Services } from '../services';
import { pickRun, runIdOf } from './runs';

const FILTERS: Record<ExportFormat, Record<string, string[]>> = {
  markdown: { Markdown: ['md'] },
  json: { JSON: ['json'] },
  csv: { CSV: ['csv'] },
};

export async function exportRunCommand(
  services: Services,
  format: ExportFormat,
  arg?: unknown,
): Promise<void> {
  const result = await loadRun(services, arg, `Export a run as ${format}`);
  if (!result) return;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? services.context.globalStorageUri;
  const target = await vscode.window.showSaveDialog({
    title: `Export DB Probe run as ${format === 'markdown' ? 'Markdown' : format.toUpperCase()}`,
    defaultUri: vscode.Uri.joinPath(folder, defaultExportName(result, format)),
    filters: FILTERS[format],
    saveLabel: 'Export',
  });
  if (!target) return;
  const text = exportText(result, format, await services.secretsKnown());
  try {
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  } catch (error) {
    void vscode.window.showErrorMessage(
      `DB Probe: could not write ${target.fsPath}: ${(error as Error).message}. Pick a folder you can write to.`,
    );
    return;
  }
  services.log.info(`run ${result.id} exported as ${format} to ${target.fsPath}`);
  const OPEN = 'Open';
  const choice = await vscode.window.showInformationMessage(
    `DB Probe: exported to ${vscode.workspace.asRelativePath(target)}.`,
    OPEN,
  );
  if (choice === OPEN) await vscode.window.showTextDocument(target);
}

export async function copyMarkdownCommand(services: Services, arg?: unknown): Promise<void> {
  const result = await loadRun(services, arg, 'Copy a run as Markdown');
  if (!result) return;
  await vscode.env.clipboard.writeText(exportText(result, 'markdown', await services.secretsKnown()));
  void vscode.window.showInformationMessage(
    'DB Probe: the run is on the clipboard as Markdown (tables and mermaid charts).',
  );
}

async function loadRun(services: Services, arg: unknown, title: string) {
  const id = runIdOf(arg) ?? services.panels.activeRunId() ?? (await pickRun(services, title));
  if (!id) return undefined;
  const result = await services.runs.load(id);
  if (!result) {
    void vscode.window.showErrorMessage(
      'DB Probe: that run is no longer in the workspace storage (deleted or aged out). Pick another run.',
    );
  }
  return result;
}

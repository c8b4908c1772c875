/**
 * Export a run (or a run group: its places side by side) as Markdown, JSON or CSV to a file, or copy
 * the Markdown to the clipboard.
 */
import * as vscode from 'vscode';
import type { ExportFormat } from '../../shared/formats';
import type { Redactor } from '../../shared/redact';
import { defaultGroupExportName, groupExportText } from '../export/exportGroup';
import { defaultExportName, exportText } from '../export/exportText';
import { memberRunIds } from '../runs/runGroup';
import { panelProjection } from '../settings/projectionSettings';
import type { Services } from '../services';
import { groupIdOf, pickRun, runIdOf } from './runs';

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
  const subject = await loadSubject(services, arg, `Export a run as ${format}`);
  if (!subject) return;
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri ?? services.context.globalStorageUri;
  const target = await vscode.window.showSaveDialog({
    title: `Export DB Probe run as ${format === 'markdown' ? 'Markdown' : format.toUpperCase()}`,
    defaultUri: vscode.Uri.joinPath(folder, subject.name(format)),
    filters: FILTERS[format],
    saveLabel: 'Export',
  });
  if (!target) return;
  const text = subject.text(format, await services.secretsKnown());
  try {
    await vscode.workspace.fs.writeFile(target, new TextEncoder().encode(text));
  } catch (error) {
    void vscode.window.showErrorMessage(
      `DB Probe: could not write ${target.fsPath}: ${(error as Error).message}. Pick a folder you can write to.`,
    );
    return;
  }
  services.log.info(`${subject.what} exported as ${format} to ${target.fsPath}`);
  const OPEN = 'Open';
  const choice = await vscode.window.showInformationMessage(
    `DB Probe: exported to ${vscode.workspace.asRelativePath(target)}.`,
    OPEN,
  );
  if (choice === OPEN) await vscode.window.showTextDocument(target);
}

export async function copyMarkdownCommand(services: Services, arg?: unknown): Promise<void> {
  const subject = await loadSubject(services, arg, 'Copy a run as Markdown');
  if (!subject) return;
  await vscode.env.clipboard.writeText(subject.text('markdown', await services.secretsKnown()));
  void vscode.window.showInformationMessage(
    'DB Probe: the run is on the clipboard as Markdown (tables and mermaid charts).',
  );
}

interface ExportSubject {
  what: string;
  name(format: ExportFormat): string;
  text(format: ExportFormat, redactor: Redactor): string;
}

/** What to export: the run or group the command names, else the panel in view, else one picked. */
async function loadSubject(
  services: Services,
  arg: unknown,
  title: string,
): Promise<ExportSubject | undefined> {
  const explicit = runIdOf(arg);
  const groupId = groupIdOf(arg) ?? (explicit ? undefined : services.panels.activeGroupId());
  if (groupId) {
    const loaded = await services.runs.loadGroupResults(groupId);
    if (!loaded || loaded.results.size === 0) {
      void vscode.window.showErrorMessage(
        'DB Probe: that run group is no longer in the workspace storage (deleted or aged out). Pick another run.',
      );
      return undefined;
    }
    const results = memberRunIds(loaded.group).flatMap((id) => {
      const result = loaded.results.get(id);
      return result ? [result] : [];
    });
    return {
      what: `run group ${groupId}`,
      name: (format) => defaultGroupExportName(loaded.group, format),
      text: (format, redactor) => groupExportText(loaded.group, results, format, redactor),
    };
  }
  const result = await loadRun(services, explicit, title);
  if (!result) return undefined;
  return {
    what: `run ${result.id}`,
    name: (format) => defaultExportName(result, format),
    text: (format, redactor) => {
      // The panel's app location and projection columns: the export states the panel's verdict.
      const { rttsMs, appRttMs, appHere } = panelProjection();
      return exportText(result, format, redactor, {
        rttsMs,
        ...(appRttMs !== undefined ? { appRttMs } : {}),
        ...(appHere ? { appHere } : {}),
      });
    },
  };
}

async function loadRun(services: Services, explicit: string | undefined, title: string) {
  const id = explicit ?? services.panels.activeRunId() ?? (await pickRun(services, title));
  if (!id) return undefined;
  const result = await services.runs.load(id);
  if (!result) {
    void vscode.window.showErrorMessage(
      'DB Probe: that run is no longer in the workspace storage (deleted or aged out). Pick another run.',
    );
  }
  return result;
}

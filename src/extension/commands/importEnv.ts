/**
 * "Import Connections from .env": finds `*_URL`-style connection strings in a chosen .env file, asks
 * which to import, and puts them in SecretStorage. Values are never shown, logged or copied anywhere
 * else; the .env file itself is left as it is (other tools may read it).
 */
import * as vscode from 'vscode';
import { connectionCandidates, parseDotenv } from '../config/dotenv';
import { checkConnectionName } from '../config/targetSources';
import type { Services } from '../services';
import { save } from './connectionCommands';

export async function importEnvCommand(services: Services, uri?: vscode.Uri): Promise<void> {
  const file = uri instanceof vscode.Uri ? uri : await pickEnvFile();
  if (!file) return;
  let text: string;
  try {
    text = new TextDecoder().decode(await vscode.workspace.fs.readFile(file));
  } catch (error) {
    void vscode.window.showErrorMessage(
      `DB Probe: cannot read ${file.fsPath}: ${(error as Error).message}. Pick a readable .env file.`,
    );
    return;
  }
  const drivers = services.registry.ids().flatMap((id) => {
    const info = services.registry.info(id);
    return info ? [{ id, schemes: info.schemes }] : [];
  });
  const candidates = connectionCandidates(parseDotenv(text), drivers);
  if (candidates.length === 0) {
    void vscode.window.showInformationMessage(
      `DB Probe: ${vscode.workspace.asRelativePath(file)} has no *_URL entry with a connection string a driver can use (${drivers
        .flatMap((d) => d.schemes)
        .map((s) => `${s}:`)
        .join(' ')}).`,
    );
    return;
  }
  const taken = services.connections.list().map((c) => c.name);
  const picked = await vscode.window.showQuickPick(
    candidates.map((c) => ({
      label: c.key,
      description: `${c.scheme}: → ${c.drivers[0]}`,
      detail: `stored as secret:${uniqueName(c.suggestedName, taken)}`,
      picked: true,
      candidate: c,
    })),
    {
      canPickMany: true,
      title: `Import connections from ${vscode.workspace.asRelativePath(file)}`,
      placeHolder: "Values stay hidden; they go to VS Code's secret storage only",
      ignoreFocusOut: true,
    },
  );
  if (!picked || picked.length === 0) return;
  const imported: string[] = [];
  for (const { candidate } of picked) {
    let driver = candidate.drivers[0];
    if (candidate.drivers.length > 1) {
      driver =
        (await vscode.window.showQuickPick(candidate.drivers, {
          title: `${candidate.key}: which driver?`,
        })) ?? undefined;
    }
    if (!driver) continue;
    const name = uniqueName(candidate.suggestedName, [...taken, ...imported]);
    if (checkConnectionName(name, []) !== undefined) continue;
    await save(services, { name, driver, connection: `secret:${name}` }, candidate.value);
    imported.push(name);
  }
  void vscode.window.showInformationMessage(
    `DB Probe: imported ${imported.length} connection${imported.length === 1 ? '' : 's'} (${imported.map((n) => `secret:${n}`).join(', ')}) into VS Code's secret storage. The .env file is unchanged: remove the values from it if nothing else needs them.`,
  );
}

async function pickEnvFile(): Promise<vscode.Uri | undefined> {
  const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
  const picked = await vscode.window.showOpenDialog({
    title: 'Import connections from a .env file',
    openLabel: 'Import',
    canSelectMany: false,
    defaultUri: folder,
  });
  return picked?.[0];
}

function uniqueName(base: string, taken: readonly string[]): string {
  let name = base;
  for (let i = 2; taken.includes(name); i++) name = `${base}-${i}`;
  return name;
}

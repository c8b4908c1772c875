/**
 * Add, edit and remove connections. The connection string is typed into a password box and goes to
 * SecretStorage only; settings get a target that says `secret:NAME`.
 */
import * as vscode from 'vscode';
import { checkConnectionString } from '../../core/slot';
import type { TargetSpec } from '../../shared/plan';
import { connectionChoices, type ConnectionChoice } from '../connections/connectionChoices';
import { asksForTls } from '../connections/tlsChoice';
import { askTlsTrust } from '../connections/tlsStep';
import { checkConnectionName } from '../config/targetSources';
import type { Services } from '../services';

export interface AddConnectionArgs {
  name?: string;
  driver?: string;
}

export async function addConnectionCommand(
  services: Services,
  args?: AddConnectionArgs,
): Promise<string | undefined> {
  const choices = connectionChoices(services.registry);
  const choice =
    choices.find((c) => c.group === 'Drivers' && c.driver === args?.driver) ??
    (await pickChoice(choices, 'Add connection (1/3): provider or driver'));
  if (!choice) return undefined;
  const driver = choice.driver;
  const taken = services.connections.list().map((c) => c.name);
  const name = await vscode.window.showInputBox({
    title: 'Add connection (2/3): name',
    prompt: 'A name for this connection; targets refer to it as secret:NAME',
    value: args?.name ?? suggestName(driver, taken),
    validateInput: (value) => checkConnectionName(value.trim(), args?.name === value.trim() ? [] : taken),
    ignoreFocusOut: true,
  });
  if (name === undefined) return undefined;
  const url = await askConnectionString(
    services,
    driver,
    name.trim(),
    'Add connection (3/3): connection string',
    choice.example,
  );
  if (url === undefined) return undefined;
  // Only where the connection string asks for TLS: a plaintext one has no certificate to trust.
  const tls = asksForTls(url) ? await askTlsTrust(name.trim(), 'Add connection: TLS trust') : {};
  if (tls === undefined) return undefined;
  const target = choice.target(name.trim());
  await save(services, tls.caFile || tls.insecure ? { ...target, tls } : target, url);
  if (tls.insecure)
    services.log.warn(`connection ${name.trim()}: TLS certificate verification is off (tls.insecure)`);
  const PROBE = 'Probe Now';
  void vscode.window
    .showInformationMessage(
      `DB Probe: connection "${name.trim()}" is in VS Code's secret storage; your user settings have a target that uses secret:${name.trim()}.`,
      PROBE,
    )
    .then((choice) => {
      if (choice === PROBE) void vscode.commands.executeCommand('dbprobe.probe');
    });
  return name.trim();
}

export async function editConnectionCommand(services: Services, item?: { name?: string }): Promise<void> {
  const connection = item?.name
    ? services.connections.find(item.name)
    : await pickConnection(services, 'Edit connection');
  if (!connection) return;
  const DRIVER = 'Change the driver';
  const STRING = 'Replace the connection string';
  const what = await vscode.window.showQuickPick([STRING, DRIVER], {
    title: `Edit connection "${connection.name}" (${connection.driver})`,
  });
  if (!what) return;
  if (what === DRIVER) {
    const choice = await pickChoice(
      connectionChoices(services.registry),
      `Edit connection "${connection.name}": provider or driver`,
    );
    if (!choice) return;
    const driver = choice.driver;
    const url = await services.connections.get(connection.name);
    if (!url) {
      void vscode.window.showErrorMessage(
        `DB Probe: connection "${connection.name}" has no connection string in this VS Code's secret storage. Replace the connection string instead.`,
      );
      return;
    }
    const info = services.registry.info(driver);
    const problem = info ? checkConnectionString(url, info) : undefined;
    if (problem) {
      services.log.redactor.addSecret(url);
      void vscode.window.showErrorMessage(
        `DB Probe: the stored connection string does not suit ${driver}: ${services.log.redactor.redact(problem)}. Replace the connection string instead.`,
      );
      return;
    }
    await save(services, choice.target(connection.name), url);
  } else {
    const url = await askConnectionString(
      services,
      connection.driver,
      connection.name,
      `Edit connection "${connection.name}": new connection string`,
    );
    if (url === undefined) return;
    // Only the secret changes: the targets that use it (and their queries) stay as they are.
    services.log.redactor.addSecret(url);
    await services.connections.save(connection, url);
  }
  void vscode.window.showInformationMessage(`DB Probe: connection "${connection.name}" updated.`);
}

export async function removeConnectionCommand(services: Services, item?: { name?: string }): Promise<void> {
  const connection = item?.name
    ? services.connections.find(item.name)
    : await pickConnection(services, 'Remove connection');
  if (!connection) return;
  const REMOVE = 'Remove';
  const choice = await vscode.window.showWarningMessage(
    `Remove connection "${connection.name}"?`,
    {
      modal: true,
      detail:
        "Its connection string is deleted from VS Code's secret storage, and targets in your user settings that use it are removed. Saved runs stay.",
    },
    REMOVE,
  );
  if (choice !== REMOVE) return;
  await services.connections.remove(connection.name);
  const removed = await services.targets.removeUserTargetsUsing(`secret:${connection.name}`);
  services.targets.invalidate();
  services.log.info(`connection ${connection.name} removed with ${removed} user target(s)`);
  void vscode.window.showInformationMessage(
    `DB Probe: connection "${connection.name}" removed${removed > 0 ? ` with ${removed} target${removed === 1 ? '' : 's'}` : ''}. Targets in workspace files that still use secret:${connection.name} will report it missing.`,
  );
}

/** Stores the connection string as secret:NAME and puts a target using it in the user's settings. */
export async function save(services: Services, target: TargetSpec, url: string): Promise<void> {
  services.log.redactor.addSecret(url);
  await services.connections.save({ name: target.name, driver: target.driver }, url);
  await services.targets.saveUserTarget(target);
  services.targets.invalidate();
  services.log.info(`connection ${target.name} (${target.driver}) saved to secret storage`);
}

async function askConnectionString(
  services: Services,
  driver: string,
  name: string,
  title: string,
  example?: string,
): Promise<string | undefined> {
  const info = services.registry.info(driver);
  const shown = example ?? info?.connectionExample;
  const value = await vscode.window.showInputBox({
    title,
    prompt: `Connection string for "${name}" (${driver}). It is stored in VS Code's secret storage only, never in settings or files.`,
    placeHolder: shown,
    password: true,
    ignoreFocusOut: true,
    validateInput: (text) => {
      const url = text.trim();
      if (!url) return 'Paste the connection string, e.g. ' + (shown ?? 'scheme://user:password@host/db');
      // The check's message quotes only the scheme and the example, never the text typed.
      return info ? checkConnectionString(url, info) : undefined;
    },
  });
  return value?.trim() || undefined;
}

async function pickChoice(choices: ConnectionChoice[], title: string): Promise<ConnectionChoice | undefined> {
  type Item = vscode.QuickPickItem & { choice?: ConnectionChoice };
  const items: Item[] = [];
  for (const choice of choices) {
    if (
      items.length === 0 ||
      items.findLast((i) => i.kind === vscode.QuickPickItemKind.Separator)?.label !== choice.group
    ) {
      items.push({ label: choice.group, kind: vscode.QuickPickItemKind.Separator });
    }
    items.push({ label: choice.label, description: choice.description, detail: choice.detail, choice });
  }
  const picked = await vscode.window.showQuickPick(items, {
    title,
    placeHolder: 'Your provider, or the client and protocol that connects to this database',
    matchOnDescription: true,
    matchOnDetail: true,
    ignoreFocusOut: true,
  });
  return picked?.choice;
}

async function pickConnection(services: Services, title: string) {
  const list = services.connections.list();
  if (list.length === 0) {
    void vscode.window.showInformationMessage(
      'DB Probe: there are no stored connections yet. Use "DB Probe: Add Connection" to add one.',
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(
    list.map((c) => ({ label: c.name, description: `${c.driver} · secret:${c.name}`, connection: c })),
    { title },
  );
  return picked?.connection;
}

function suggestName(driver: string, taken: readonly string[]): string {
  let name = driver.replace(/[^A-Za-z0-9_.-]/g, '-');
  for (let i = 2; taken.includes(name); i++) name = `${driver}-${i}`;
  return name;
}

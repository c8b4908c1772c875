/**
 * "DB Probe: Add Runner" and "Remove Runner". The token is typed into a password box and goes to
 * SecretStorage only; the user settings get the name and URL. A runner is saved after its health
 * check passes with that token, or when the user explicitly chooses to save it anyway.
 */
import * as vscode from 'vscode';
import { describeError } from '../log';
import { checkRunnerHealth, describeHealth } from '../runners/health';
import { checkRunnerName, checkRunnerUrl, normaliseUrl, runnerUrlWarning } from '../runners/runnerSettings';
import type { Services } from '../services';

export interface AddRunnerArgs {
  name?: string;
  url?: string;
}

export async function addRunnerCommand(
  services: Services,
  args?: AddRunnerArgs,
): Promise<string | undefined> {
  const existing = services.runners.list();
  const name = (
    await vscode.window.showInputBox({
      title: 'Add runner (1/3): name',
      prompt:
        'A name for this runner, e.g. the region it runs in; results from it are labelled with its region',
      value: args?.name ?? (existing.length === 0 ? 'runner' : ''),
      ignoreFocusOut: true,
      validateInput: (value) => {
        const problem = checkRunnerName(value.trim(), []);
        if (problem) return capitalise(problem);
        return existing.some((r) => r.name === value.trim())
          ? {
              message: `A runner named "${value.trim()}" exists: saving replaces its URL and token.`,
              severity: vscode.InputBoxValidationSeverity.Info,
            }
          : undefined;
      },
    })
  )?.trim();
  if (!name) return undefined;

  const urlText = (
    await vscode.window.showInputBox({
      title: 'Add runner (2/3): URL',
      prompt: 'The runner\'s base URL (what "dbprobe-runner" printed after "listening on")',
      placeHolder: 'https://dbprobe-runner.example.com',
      value: args?.url ?? existing.find((r) => r.name === name)?.url ?? '',
      ignoreFocusOut: true,
      validateInput: (value) => {
        const problem = checkRunnerUrl(value.trim());
        if (problem) return capitalise(problem);
        const warning = runnerUrlWarning(value.trim());
        return warning
          ? { message: capitalise(warning), severity: vscode.InputBoxValidationSeverity.Warning }
          : undefined;
      },
    })
  )?.trim();
  if (!urlText) return undefined;
  const url = normaliseUrl(urlText);

  const token = (
    await vscode.window.showInputBox({
      title: 'Add runner (3/3): token',
      prompt: `The DBPROBE_TOKEN runner "${name}" was started with. It is kept in VS Code's secret storage only, never in settings or files.`,
      password: true,
      ignoreFocusOut: true,
      validateInput: (value) =>
        !value.trim()
          ? "Paste the runner's token (its DBPROBE_TOKEN environment variable)"
          : /\s/.test(value.trim())
            ? 'A token has no spaces: paste just the token'
            : undefined,
    })
  )?.trim();
  if (!token) return undefined;
  // From here on the token may appear in an error text (a proxy echoing a header): mask it everywhere.
  services.log.redactor.addSecret(token);

  const check = await vscode.window.withProgress(
    { location: vscode.ProgressLocation.Notification, title: `DB Probe: checking runner "${name}"…` },
    () => checkRunnerHealth(url, token),
  );
  if (check.ok) {
    await services.runners.save({ name, url }, token);
    services.log.info(`runner ${name} (${url}) saved: ${describeHealth(check.health)}`);
    void vscode.window.showInformationMessage(
      `DB Probe: runner "${name}" answers: ${describeHealth(check.health)}. Its URL is in your user settings (dbprobe.runners), its token in VS Code's secret storage.`,
    );
    return name;
  }

  const problem = describeError(check.problem, services.log.redactor);
  services.log.warn(`runner ${name} (${url}) failed its health check: ${problem}`);
  const SAVE = 'Save Anyway';
  const RETRY = 'Try Again';
  const choice = await vscode.window.showWarningMessage(
    `DB Probe: runner "${name}" did not pass its health check: ${problem}. Nothing was saved. Save it anyway (e.g. it is not deployed yet), or try again.`,
    SAVE,
    RETRY,
  );
  if (choice === RETRY) return addRunnerCommand(services, { name, url });
  if (choice !== SAVE) return undefined;
  await services.runners.save({ name, url }, token);
  services.log.info(`runner ${name} (${url}) saved without a passing health check, at the user's request`);
  void vscode.window.showInformationMessage(
    `DB Probe: runner "${name}" saved without a passing check; a probe from it will say whether it answers.`,
  );
  return name;
}

export async function removeRunnerCommand(services: Services, item?: { name?: string }): Promise<void> {
  const runners = services.runners.list();
  if (runners.length === 0) {
    void vscode.window.showInformationMessage(
      'DB Probe: there are no runners to remove. "DB Probe: Add Runner" adds one.',
    );
    return;
  }
  const name =
    item?.name ??
    (
      await vscode.window.showQuickPick(
        runners.map((r) => ({ label: r.name, description: r.url })),
        { title: 'Remove runner' },
      )
    )?.label;
  if (!name) return;
  const REMOVE = 'Remove';
  const choice = await vscode.window.showWarningMessage(
    `Remove runner "${name}"?`,
    {
      modal: true,
      detail:
        "Its token is deleted from VS Code's secret storage and its entry from your user settings. Saved runs from it stay. The runner itself keeps running.",
    },
    REMOVE,
  );
  if (choice !== REMOVE) return;
  await services.runners.remove(name);
  services.log.info(`runner ${name} removed`);
  void vscode.window.showInformationMessage(`DB Probe: runner "${name}" removed.`);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * The one question per run before any connection string leaves the editor: some targets use a
 * `secret:NAME` a runner cannot read, and the runner accepts connection strings from the editor.
 * The dialog names every runner and target and says what sending means; nothing is remembered.
 */
import * as vscode from 'vscode';

export interface SendRequest {
  runner: string;
  url: string;
  /** Target name and the secret it uses. */
  targets: { target: string; secret: string }[];
}

/** true: send for this run; false: skip those targets on those runners; undefined: cancel the run. */
export async function askToSendConnections(requests: readonly SendRequest[]): Promise<boolean | undefined> {
  const lines = requests.map(
    (r) =>
      `• runner "${r.runner}" (${r.url}): ${r.targets.map((t) => `${t.target} (secret:${t.secret})`).join(', ')}`,
  );
  const SEND = 'Send for This Run';
  const SKIP = 'Skip These Targets There';
  const choice = await vscode.window.showWarningMessage(
    'Send connection strings to runners for this run?',
    {
      modal: true,
      detail: [
        "These targets use connections kept in this VS Code's secret storage, which the runners cannot read themselves; the runners accept connection strings from the editor:",
        ...lines,
        '',
        'Sending hands these credentials to each runner: whoever operates it, or can read its memory, could use them. The runner uses them for this run only and DB Probe keeps them nowhere there; results, logs and exports stay masked.',
        'To probe without sending them, set them as environment variables on the runner and map them in the dbprobe.runners setting ("env").',
      ].join('\n'),
    },
    SEND,
    SKIP,
  );
  if (choice === SEND) return true;
  if (choice === SKIP) return false;
  return undefined;
}

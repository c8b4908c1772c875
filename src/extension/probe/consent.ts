/**
 * Untrusted workspaces: targets a workspace defines (dbprobe.json, workspace settings) run only with
 * the user's consent. A cloned repository could point one at the user's own `secret:prod` with a
 * write query; the dialog shows each target's connection and query so the user sees what would run.
 */
import * as vscode from 'vscode';
import type { ResolvedTarget } from '../config/targetSources';
import { describeSource } from '../config/targetSources';

/** Consent lasts for the session and for exactly the targets shown (a changed query asks again). */
const granted = new Set<string>();

export async function consentToWorkspaceTargets(
  targets: ResolvedTarget[],
  defaultQuery: (driver: string) => string,
): Promise<boolean> {
  if (vscode.workspace.isTrusted) return true;
  const needing = targets.filter((t) => t.fromWorkspace);
  if (needing.length === 0) return true;
  const key = JSON.stringify(needing.map((t) => t.spec));
  if (granted.has(key)) return true;
  const lines = needing.map(
    (t) =>
      `• ${t.spec.name} (${describeSource(t.source)}): ${t.spec.driver} via ${t.spec.connection}, query: ${t.spec.query ?? defaultQuery(t.spec.driver)}`,
  );
  const PROBE = 'Probe Once';
  const TRUST = 'Manage Workspace Trust';
  const choice = await vscode.window.showWarningMessage(
    'This workspace is not trusted, and it defines targets to probe.',
    {
      modal: true,
      detail: `Probing connects with your stored connections and runs each target's query:\n${lines.join('\n')}\n\nProbe only if you recognise these targets.`,
    },
    PROBE,
    TRUST,
  );
  if (choice === TRUST) {
    await vscode.commands.executeCommand('workbench.trust.manage');
    return false;
  }
  if (choice !== PROBE) return false;
  granted.add(key);
  return true;
}

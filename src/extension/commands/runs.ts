/** Open, compare and delete saved runs and run groups, from the Runs view or the palette. */
import * as vscode from 'vscode';
import { isRunId } from '../../shared/messages';
import type { RunSummary } from '../runs/runSummary';
import type { Services } from '../services';

/** A run id from a command argument: a tree item, a summary or an id string. */
export function runIdOf(arg: unknown): string | undefined {
  if (isRunId(arg)) return arg;
  if (typeof arg === 'object' && arg !== null) {
    const record = arg as { runId?: unknown; id?: unknown };
    if (isRunId(record.runId)) return record.runId;
    if (isRunId(record.id)) return record.id;
  }
  return undefined;
}

/** A run group id from a command argument: a group tree item or `{ groupId }` from a panel. */
export function groupIdOf(arg: unknown): string | undefined {
  if (typeof arg !== 'object' || arg === null) return undefined;
  const groupId = (arg as { groupId?: unknown }).groupId;
  return isRunId(groupId) ? groupId : undefined;
}

export async function openRunCommand(services: Services, arg?: unknown): Promise<void> {
  const groupId = groupIdOf(arg);
  if (groupId) return services.panels.showGroup(groupId);
  const id = runIdOf(arg) ?? (await pickRun(services, 'Open a DB Probe run'));
  if (id) await services.panels.showRun(id);
}

export async function compareRunsCommand(
  services: Services,
  arg?: unknown,
  selected?: unknown[],
): Promise<void> {
  let ids = (selected ?? []).map(runIdOf).filter((id): id is string => id !== undefined);
  if (ids.length !== 2) {
    const first = runIdOf(arg);
    const runs = await services.runs.list();
    if (runs.length < 2) {
      void vscode.window.showInformationMessage(
        'DB Probe: comparing needs two saved runs; run a probe again first.',
      );
      return;
    }
    const picked = await vscode.window.showQuickPick(
      runs.map((r) => ({ ...runItem(r), picked: r.id === first })),
      { canPickMany: true, title: 'Compare two runs: pick exactly two (the older is A)' },
    );
    if (!picked) return;
    if (picked.length !== 2) {
      void vscode.window.showWarningMessage(
        `DB Probe: pick exactly two runs to compare (you picked ${picked.length}).`,
      );
      return;
    }
    ids = picked.map((p) => p.id);
  }
  const runs = await services.runs.list();
  // Older run on the left, so the delta reads "what changed since".
  ids.sort((x, y) =>
    (runs.find((r) => r.id === x)?.startedAt ?? '').localeCompare(
      runs.find((r) => r.id === y)?.startedAt ?? '',
    ),
  );
  const [a, b] = ids;
  if (a && b) services.panels.showCompare(a, b);
}

export async function deleteRunCommand(services: Services, arg?: unknown): Promise<void> {
  const groupId = groupIdOf(arg);
  if (groupId) return services.runs.deleteGroup(groupId);
  const id = runIdOf(arg) ?? (await pickRun(services, 'Delete a DB Probe run'));
  if (!id) return;
  await services.runs.delete(id);
}

export async function pickRun(services: Services, title: string): Promise<string | undefined> {
  const runs = await services.runs.list();
  if (runs.length === 0) {
    void vscode.window.showInformationMessage(
      'DB Probe: no saved runs yet. Run "DB Probe: Probe Database Latency" first.',
    );
    return undefined;
  }
  const picked = await vscode.window.showQuickPick(runs.map(runItem), { title });
  return picked?.id;
}

function runItem(r: RunSummary) {
  return {
    label: new Date(r.startedAt).toLocaleString(),
    description: r.headline,
    detail: `${r.kinds.join(' + ')} · ${r.location}${r.state === 'completed' ? '' : ` · ${r.state}`}`,
    id: r.id,
  };
}

/**
 * A status-bar item with the last run's answer (this machine's, for a run group): its verdict in one
 * line, the winner first, for where the app runs (the Runs row's words), the whole line and the
 * figures in the tooltip; it opens that run.
 * A query probed from the editor is not "the last run" here: it ran on targets that may not speak its
 * dialect, and its figures and failures are the query's, shown on its CodeLens.
 */
import * as vscode from 'vscode';
import type { RunStore } from '../runs/runStore';
import type { QueryRuns } from './queryRuns';
import { runLine } from '../runs/runSummary';

export class LastRunStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'dbprobe.lastRun',
    vscode.StatusBarAlignment.Left,
    10,
  );

  constructor(
    private readonly runs: RunStore,
    private readonly queryRuns: QueryRuns,
  ) {
    this.item.name = 'DB Probe: last run';
    runs.onDidChange(() => void this.update());
    queryRuns.onDidChange(() => void this.update());
  }

  async update(): Promise<void> {
    const runs = (await this.runs.list()).filter((r) => !this.queryRuns.isQueryRun(r.id));
    const newest = runs[0];
    // A run group's figure for the status bar is this machine's, when it ran here too.
    const last =
      (newest?.group && runs.find((r) => r.group?.id === newest.group?.id && r.locationKind !== 'runner')) ||
      newest;
    if (!last) {
      this.item.hide();
      return;
    }
    this.item.text = `$(pulse) ${runLine(last)}`;
    this.item.tooltip = `${last.verdict ? `${last.verdict}\n${last.headline}\n` : ''}DB Probe: last run ${new Date(last.startedAt).toLocaleString()} from ${last.location} (p50; warm connection where measured). Click to open.`;
    this.item.command = { command: 'dbprobe.openRun', title: 'Open Last Run', arguments: [last.id] };
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}

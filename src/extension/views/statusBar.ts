/** A status-bar item with the last run's headline; it opens that run. */
import * as vscode from 'vscode';
import type { RunStore } from '../runs/runStore';

export class LastRunStatus implements vscode.Disposable {
  private readonly item = vscode.window.createStatusBarItem(
    'dbprobe.lastRun',
    vscode.StatusBarAlignment.Left,
    10,
  );

  constructor(private readonly runs: RunStore) {
    this.item.name = 'DB Probe: last run';
    runs.onDidChange(() => void this.update());
  }

  async update(): Promise<void> {
    const last = await this.runs.latest();
    if (!last) {
      this.item.hide();
      return;
    }
    this.item.text = `$(pulse) ${last.headline}`;
    this.item.tooltip = `DB Probe: last run ${new Date(last.startedAt).toLocaleString()} from ${last.location} (p50; warm connection where measured). Click to open.`;
    this.item.command = { command: 'dbprobe.openRun', title: 'Open Last Run', arguments: [last.id] };
    this.item.show();
  }

  dispose(): void {
    this.item.dispose();
  }
}

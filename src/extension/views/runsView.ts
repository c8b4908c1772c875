/** The Runs view: saved runs, newest first; open one, or select two and compare. */
import * as vscode from 'vscode';
import type { RunStore } from '../runs/runStore';
import type { RunSummary } from '../runs/runSummary';

const STATE_ICONS: Record<RunSummary['state'], [string, string]> = {
  completed: ['pass', 'testing.iconPassed'],
  cancelled: ['circle-slash', 'problemsWarningIcon.foreground'],
  timedOut: ['watch', 'problemsWarningIcon.foreground'],
};

export class RunItem extends vscode.TreeItem {
  readonly runId: string;

  constructor(summary: RunSummary) {
    super(new Date(summary.startedAt).toLocaleString(), vscode.TreeItemCollapsibleState.None);
    this.runId = summary.id;
    this.id = summary.id;
    this.description = summary.headline;
    const allFailed = summary.targets.length > 0 && summary.targets.every((t) => t.failed);
    const [icon, colour] = allFailed ? ['error', 'problemsErrorIcon.foreground'] : STATE_ICONS[summary.state];
    this.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(colour));
    this.tooltip = `${summary.kinds.join(' + ')} from ${summary.location}${summary.state === 'completed' ? '' : ` (${summary.state})`}\n${summary.headline}`;
    this.contextValue = 'run';
    this.command = { command: 'dbprobe.openRun', title: 'Open Run', arguments: [summary.id] };
  }
}

export class RunsView implements vscode.TreeDataProvider<RunItem> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(private readonly runs: RunStore) {
    runs.onDidChange(() => this.changed.fire());
  }

  getTreeItem(item: RunItem): RunItem {
    return item;
  }

  async getChildren(): Promise<RunItem[]> {
    return (await this.runs.list()).map((s) => new RunItem(s));
  }
}

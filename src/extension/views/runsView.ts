/**
 * The Runs view: saved runs, newest first; open one, or select two and compare. A run group (one plan
 * from several places at once) is one item, opening the places side by side, with each place's run
 * under it. A query probed from the editor is marked as one: where it failed, the query failed there.
 */
import * as vscode from 'vscode';
import type { RunStore } from '../runs/runStore';
import { runLine, type RunSummary } from '../runs/runSummary';
import { queryRunHeadline } from './queryRunHeadline';
import type { QueryRuns } from './queryRuns';

const STATE_ICONS: Record<RunSummary['state'], [string, string]> = {
  completed: ['pass', 'testing.iconPassed'],
  cancelled: ['circle-slash', 'problemsWarningIcon.foreground'],
  timedOut: ['watch', 'problemsWarningIcon.foreground'],
};

export class RunItem extends vscode.TreeItem {
  readonly runId: string;

  constructor(summary: RunSummary, inGroup = false, queryRun = false) {
    const headline = queryRun ? queryRunHeadline(summary) : summary.headline;
    const when = new Date(summary.startedAt).toLocaleString();
    // The answer first, in one line with the winner first (a partial run's state before it): a 270 px
    // sidebar shows about thirty characters of the label, so they must name who is fastest; when it
    // ran follows, muted, and the whole first line is in the tooltip.
    super(
      inGroup && summary.group
        ? `${summary.group.place}: ${queryRun ? headline : runLine(summary)}`
        : queryRun
          ? headline
          : runLine(summary),
      vscode.TreeItemCollapsibleState.None,
    );
    this.runId = summary.id;
    this.id = summary.id;
    this.description = when;
    const allFailed = summary.targets.length > 0 && summary.targets.every((t) => t.failed);
    const [icon, colour] = queryRun
      ? ['code', allFailed ? 'problemsWarningIcon.foreground' : STATE_ICONS[summary.state][1]]
      : allFailed
        ? ['error', 'problemsErrorIcon.foreground']
        : STATE_ICONS[summary.state];
    this.iconPath = new vscode.ThemeIcon(icon, new vscode.ThemeColor(colour));
    this.tooltip = `${queryRun ? 'A query from the editor: ' : ''}${summary.kinds.join(' + ')} from ${summary.location}${summary.state === 'completed' ? '' : ` (${summary.state})`}\n${!queryRun && summary.verdict ? `${summary.verdict}\n` : ''}${headline}`;
    // A screen reader hears the row as it is seen: the verdict first, then when (not the tooltip).
    this.accessibilityInformation = { label: `${String(this.label)}, ${when}` };
    this.contextValue = 'run';
    this.command = { command: 'dbprobe.openRun', title: 'Open Run', arguments: [summary.id] };
  }
}

export class GroupItem extends vscode.TreeItem {
  readonly groupId: string;

  constructor(
    id: string,
    readonly members: RunSummary[],
  ) {
    const started = members.map((m) => m.startedAt).sort()[0];
    super(new Date(started ?? Date.now()).toLocaleString(), vscode.TreeItemCollapsibleState.Collapsed);
    this.groupId = id;
    this.id = `group:${id}`;
    const places = members.map((m) => m.group?.place ?? m.location);
    this.description = places.join(' vs ');
    const incomplete = members.some((m) => m.state !== 'completed');
    this.iconPath = new vscode.ThemeIcon(
      'globe',
      incomplete ? new vscode.ThemeColor('problemsWarningIcon.foreground') : undefined,
    );
    this.tooltip = members.map((m) => `${m.group?.place ?? m.location}: ${m.headline}`).join('\n');
    this.contextValue = 'runGroup';
    this.command = { command: 'dbprobe.openRun', title: 'Open Run Group', arguments: [{ groupId: id }] };
  }
}

export class RunsView implements vscode.TreeDataProvider<RunItem | GroupItem> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly runs: RunStore,
    private readonly queryRuns: QueryRuns,
  ) {
    runs.onDidChange(() => this.changed.fire());
    queryRuns.onDidChange(() => this.changed.fire());
  }

  getTreeItem(item: RunItem | GroupItem): RunItem | GroupItem {
    return item;
  }

  async getChildren(element?: RunItem | GroupItem): Promise<(RunItem | GroupItem)[]> {
    if (element instanceof GroupItem) return element.members.map((s) => new RunItem(s, true));
    if (element) return [];
    const summaries = await this.runs.list();
    const items: (RunItem | GroupItem)[] = [];
    const seen = new Set<string>();
    for (const summary of summaries) {
      const id = summary.group?.id;
      if (!id) {
        items.push(new RunItem(summary, false, this.queryRuns.isQueryRun(summary.id)));
        continue;
      }
      if (seen.has(id)) continue;
      seen.add(id);
      // This machine first, then the runners by label: the order of the panel's columns.
      const members = summaries
        .filter((s) => s.group?.id === id)
        .sort(
          (a, b) =>
            Number(a.locationKind === 'runner') - Number(b.locationKind === 'runner') ||
            (a.group?.place ?? '').localeCompare(b.group?.place ?? ''),
        );
      items.push(new GroupItem(id, members));
    }
    return items;
  }
}

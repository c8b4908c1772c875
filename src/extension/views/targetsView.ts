/**
 * The Targets view: every target with its driver's icon, last p50 and an inline Probe action. The
 * figure is from the last run of the target's own workload: a query probed from the editor ran
 * something else there, and its failure is the query's (its CodeLens says it), not the target's.
 */
import * as vscode from 'vscode';
import type { DriverRegistry } from '../../core/driver';
import type { TargetProvider } from '../config/targetProvider';
import { describeSource, secretNameOf, type ResolvedTarget } from '../config/targetSources';
import type { RunStore } from '../runs/runStore';
import { bestP50, formatMs, type RunSummary } from '../runs/runSummary';
import type { QueryRuns } from './queryRuns';

const FAMILY_ICONS: Record<string, string> = { sql: 'database', redis: 'zap', mongo: 'json', http: 'globe' };

export class TargetItem extends vscode.TreeItem {
  constructor(
    readonly target: ResolvedTarget,
    registry: DriverRegistry,
    last: RunSummary | undefined,
  ) {
    super(target.spec.name, vscode.TreeItemCollapsibleState.None);
    const info = registry.info(target.spec.driver);
    const mine = last?.targets.find((t) => t.name === target.spec.name);
    const p50 = mine ? bestP50(mine.p50Us, last?.kinds ?? []) : undefined;
    const untrusted = target.fromWorkspace && !vscode.workspace.isTrusted;
    this.description = [
      target.spec.driver,
      target.issues.length > 0
        ? 'needs fixing'
        : p50 !== undefined
          ? `p50 ${formatMs(p50)}`
          : mine?.failed
            ? 'failed'
            : undefined,
      untrusted ? 'untrusted workspace' : undefined,
    ]
      .filter(Boolean)
      .join(' · ');
    this.iconPath =
      target.issues.length > 0
        ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'))
        : new vscode.ThemeIcon(FAMILY_ICONS[info?.family ?? ''] ?? 'database');
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**${escape(target.spec.name)}**\n\n`);
    tooltip.appendMarkdown(`- driver: ${escape(target.spec.driver)} (${info?.transport ?? '?'})\n`);
    tooltip.appendMarkdown(`- connection: \`${target.spec.connection}\`\n`);
    tooltip.appendMarkdown(`- query: \`${escape(target.spec.query ?? info?.defaultQuery ?? '')}\`\n`);
    tooltip.appendMarkdown(`- defined in: ${describeSource(target.source)}\n`);
    if (p50 !== undefined && last)
      tooltip.appendMarkdown(`- last p50: ${formatMs(p50)} (${new Date(last.startedAt).toLocaleString()})\n`);
    for (const issue of target.issues) tooltip.appendMarkdown(`\n$(warning) ${escape(issue)}\n`);
    if (untrusted)
      tooltip.appendMarkdown('\n$(shield) Defined by this untrusted workspace: probing asks first.\n');
    this.tooltip = tooltip;
    const secret = secretNameOf(target.spec);
    this.contextValue = [
      'target',
      target.issues.length === 0 ? 'probeable' : 'broken',
      secret ? 'secret' : 'env',
    ].join('.');
  }

  /** For the Edit/Remove connection commands run from this item. */
  get name(): string | undefined {
    return secretNameOf(this.target.spec);
  }
}

export class TargetsView implements vscode.TreeDataProvider<TargetItem> {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeTreeData = this.changed.event;

  constructor(
    private readonly targets: TargetProvider,
    private readonly runs: RunStore,
    private readonly registry: DriverRegistry,
    private readonly queryRuns: QueryRuns,
  ) {
    targets.onDidChange(() => this.changed.fire());
    runs.onDidChange(() => this.changed.fire());
    queryRuns.onDidChange(() => this.changed.fire());
  }

  getTreeItem(item: TargetItem): TargetItem {
    return item;
  }

  async getChildren(): Promise<TargetItem[]> {
    const [snapshot, all] = await Promise.all([this.targets.get(), this.runs.list()]);
    const runs = all.filter((r) => !this.queryRuns.isQueryRun(r.id));
    return snapshot.targets.map((t) => {
      // "From here" is what this view shows: a runner's figure would read as this machine's.
      const has = (r: RunSummary) => r.targets.some((x) => x.name === t.spec.name);
      const last = runs.find((r) => has(r) && r.locationKind !== 'runner') ?? runs.find(has);
      return new TargetItem(t, this.registry, last);
    });
  }
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

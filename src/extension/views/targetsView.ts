/**
 * The Targets view: every target with its driver's icon, last p50 and an inline Probe action. The
 * figure is from the last run of the target's own workload: a query probed from the editor ran
 * something else there, and its failure is the query's (its CodeLens says it), not the target's.
 * The figure names its kind and comes first at where the app runs (targetFigure.ts); a target the
 * heartbeat found down says so, in the heartbeat's own health sentence.
 */
import * as vscode from 'vscode';
import type { DriverRegistry } from '../../core/driver';
import type { TargetProvider } from '../config/targetProvider';
import { describeSource, secretNameOf, type ResolvedTarget } from '../config/targetSources';
import type { RunStore } from '../runs/runStore';
import type { RunSummary } from '../runs/runSummary';
import type { QueryRuns } from './queryRuns';
import type { AppLocation } from '../queries/appLocation';
import { appLocation, affectsAppLocation } from '../settings/projectionSettings';
import { projectTarget } from '../../shared/projection';
import type { ProbeKind } from '../../shared/plan';
import type { RunResult } from '../../shared/result';
import { targetFigure, type TargetFigureInput } from './targetFigure';

/** What the view reads of the heartbeat: whether it found a target down, and when that changes. */
export interface TargetHealthSource {
  readonly onDidChangeHealth: vscode.Event<void>;
  /** The heartbeat's health sentence when it found `target` down; undefined otherwise. */
  downSentence(target: string): string | undefined;
}

const FAMILY_ICONS: Record<string, string> = { sql: 'database', redis: 'zap', mongo: 'json', http: 'globe' };

export class TargetItem extends vscode.TreeItem {
  constructor(
    readonly target: ResolvedTarget,
    registry: DriverRegistry,
    last: RunSummary | undefined,
    figureOf: TargetFigureInput | undefined,
    location: AppLocation | undefined,
    down: string | undefined,
  ) {
    super(target.spec.name, vscode.TreeItemCollapsibleState.None);
    const info = registry.info(target.spec.driver);
    const mine = last?.targets.find((t) => t.name === target.spec.name);
    const figure = figureOf ? targetFigure(figureOf, location) : undefined;
    const untrusted = target.fromWorkspace && !vscode.workspace.isTrusted;
    // What matters first at 270 px: down, then the figure (its kind, at the app first), then the driver.
    this.description = [
      down !== undefined ? 'down (heartbeat)' : undefined,
      target.issues.length > 0 ? 'needs fixing' : figure ? figure.short : mine?.failed ? 'failed' : undefined,
      target.spec.driver,
      untrusted ? 'untrusted workspace' : undefined,
    ]
      .filter(Boolean)
      .join(' · ');
    this.iconPath =
      target.issues.length > 0
        ? new vscode.ThemeIcon('warning', new vscode.ThemeColor('problemsWarningIcon.foreground'))
        : down !== undefined
          ? new vscode.ThemeIcon('error', new vscode.ThemeColor('problemsErrorIcon.foreground'))
          : new vscode.ThemeIcon(FAMILY_ICONS[info?.family ?? ''] ?? 'database');
    const tooltip = new vscode.MarkdownString(undefined, true);
    tooltip.appendMarkdown(`**${escape(target.spec.name)}**\n\n`);
    if (down !== undefined) tooltip.appendMarkdown(`$(error) ${escape(down)}\n\n`);
    tooltip.appendMarkdown(`- driver: ${escape(target.spec.driver)} (${info?.transport ?? '?'})\n`);
    tooltip.appendMarkdown(`- connection: \`${target.spec.connection}\`\n`);
    tooltip.appendMarkdown(`- query: \`${escape(target.spec.query ?? info?.defaultQuery ?? '')}\`\n`);
    tooltip.appendMarkdown(`- defined in: ${describeSource(target.source)}\n`);
    if (figure && last)
      tooltip.appendMarkdown(
        `- last run: ${escape(figure.long)} (${new Date(last.startedAt).toLocaleString()})\n`,
      );
    for (const issue of target.issues) tooltip.appendMarkdown(`\n$(warning) ${escape(issue)}\n`);
    if (untrusted)
      tooltip.appendMarkdown('\n$(shield) Defined by this untrusted workspace: probing asks first.\n');
    this.tooltip = tooltip;
    // Heard as seen: the name, then down, the figure and the driver (the tooltip's words follow on hover).
    this.accessibilityInformation = { label: `${target.spec.name}, ${this.description}` };
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
    private readonly health?: TargetHealthSource,
  ) {
    targets.onDidChange(() => this.changed.fire());
    runs.onDidChange(() => this.changed.fire());
    queryRuns.onDidChange(() => this.changed.fire());
    health?.onDidChangeHealth(() => this.changed.fire());
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (affectsAppLocation(e)) this.changed.fire();
    });
  }

  /** Per run id: each target's figure (the kind shown, its p50 and projection parts), read once. */
  private readonly figures = new Map<string, Map<string, TargetFigureInput>>();

  private async figuresOf(run: RunSummary): Promise<Map<string, TargetFigureInput>> {
    const known = this.figures.get(run.id);
    if (known) return known;
    const result = await this.runs.load(run.id).catch(() => undefined);
    const found = new Map<string, TargetFigureInput>();
    for (const t of run.targets) {
      const kind = shownKind(t.p50Us, run.kinds);
      if (kind === undefined) continue;
      found.set(t.name, { kind, p50Us: t.p50Us[kind]!, ...projectionOf(result, t.name, kind) });
    }
    if (this.figures.size > 50) this.figures.clear();
    this.figures.set(run.id, found);
    return found;
  }

  getTreeItem(item: TargetItem): TargetItem {
    return item;
  }

  async getChildren(): Promise<TargetItem[]> {
    const [snapshot, all] = await Promise.all([this.targets.get(), this.runs.list()]);
    const runs = all.filter((r) => !this.queryRuns.isQueryRun(r.id));
    const lasts = snapshot.targets.map((t) => {
      // "From here" is what this view shows: a runner's figure would read as this machine's.
      const has = (r: RunSummary) => r.targets.some((x) => x.name === t.spec.name);
      const last = runs.find((r) => has(r) && r.locationKind !== 'runner') ?? runs.find(has);
      return { t, last };
    });
    const location = appLocation();
    return Promise.all(
      lasts.map(async ({ t, last }) => {
        const figure = last ? (await this.figuresOf(last)).get(t.spec.name) : undefined;
        return new TargetItem(
          t,
          this.registry,
          last,
          figure,
          location,
          this.health?.downSentence(t.spec.name),
        );
      }),
    );
  }
}

function escape(text: string): string {
  return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}

/** The kind the row shows: the warm query when measured, else the first kind with a figure. */
function shownKind(
  p50Us: Partial<Record<ProbeKind, number>>,
  kinds: readonly ProbeKind[],
): ProbeKind | undefined {
  if (p50Us.subsequent !== undefined) return 'subsequent';
  return kinds.find((k) => p50Us[k] !== undefined);
}

/** The kind's local part and counted turns, when the run counted them (src/shared/projection.ts). */
function projectionOf(
  result: RunResult | undefined,
  target: string,
  kind: ProbeKind,
): Pick<TargetFigureInput, 'projection'> {
  if (!result || (kind !== 'initial' && kind !== 'subsequent')) return {};
  const parts = projectTarget(result.measurements, target);
  if ('reason' in parts) return {};
  const k = parts[kind];
  return k ? { projection: { localUs: k.localUs, turns: k.turns } } : {};
}

/**
 * The CodeLens over each statement of a .sql file or of SQL/Redis/Mongo code in TS/JS: "Probe this
 * query", then, once probed, the query's time from the app for the target the file's own driver
 * reaches (queryLensLine.ts: "≈ 31.2 ms from your app (30 ms RTT, 1 round trip) · 0.4 ms here on
 * pg"), the rest in its hover; the other targets on request ("other targets…" lists the run's
 * judgement across them, the shared judgeRun's warm-query ranking, and each target where it failed,
 * with why). The answer lens opens that run.
 * Only the first MAX_SCAN_CHARS of a document are scanned, once per version; past them a lens at the
 * top says so.
 */
import * as vscode from 'vscode';
import type { LensMemory } from './lensMemory';
import { lensTitles, lensVerdict, statementKey } from './lensText';
import { queryLensLine, type LensApp } from './queryLensLine';
import { RunJudgements, type Judge } from './runJudgements';
import { AppDistances, type PlaceRuns } from './appDistances';
import { affectsAppLocation, appLocation } from '../settings/projectionSettings';
import type { RunResult } from '../../shared/result';
import {
  JS_LANGUAGES,
  MAX_SCAN_CHARS,
  SQL_LANGUAGES,
  findStatements,
  type FoundStatement,
  type StatementScan,
} from './statements';

export const PROBE_QUERY_COMMAND = 'dbprobe.probeQuery';
/** Lists the other targets a statement was probed on: its argument is the statement's key. */
export const OTHER_TARGETS_COMMAND = 'dbprobe.lensOtherTargets';

/** What a lens hands the command: the statement, where it was (document offsets), its file's drivers. */
/** Lines of the other targets' list at most: the verdict lines, then targets said apart. */
const MAX_FIGURE_LENSES = 6;

export interface ProbeQueryArgs {
  uri: string;
  statement: FoundStatement;
}

interface ScannedDocument {
  version: number;
  scan: StatementScan;
  /**
   * The drivers the file imports (fileDrivers.ts, read in the body bundle): its lenses answer for
   * their targets first. Undefined until read (a moment); then the lenses redraw.
   */
  drivers?: readonly string[];
}

export const QUERY_LANGUAGES: readonly string[] = [...SQL_LANGUAGES, ...JS_LANGUAGES];

export class QueryLensProvider implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.changed.event;
  private readonly cache = new Map<string, ScannedDocument>();
  /** Documents VS Code asked about while no editor showed them: not scanned yet. */
  private readonly unseen = new Set<string>();
  private readonly subscriptions: vscode.Disposable[];
  /** The app's distance per target (dbprobe.appLocation / appRttMs), a runner place's looked up in runs. */
  private readonly distances: AppDistances;
  /** Each probed statement's run, judged by the shared judgement (loaded once per app RTT). */
  private readonly judgements: RunJudgements;
  /** Scans whose file drivers are being read. */
  private readonly reading = new WeakSet<ScannedDocument>();

  constructor(
    private readonly memory: LensMemory,
    runs: Pick<PlaceRuns, 'list'> & {
      onDidChange: vscode.Event<unknown>;
      load(id: string): Promise<RunResult | undefined>;
    },
    warn: (line: string) => void,
    /** The shared judgeRun, from the body bundle (loaded the first time a probed statement shows). */
    judge: Judge,
    /** The drivers a file imports, from the body bundle (the driver catalog stays out of this one). */
    private readonly driversOf: (text: string, languageId: string) => Promise<readonly string[]>,
  ) {
    this.distances = new AppDistances(runs, () => this.changed.fire(), warn);
    this.judgements = new RunJudgements(
      (id) => runs.load(id),
      judge,
      () => this.changed.fire(),
      warn,
    );
    // "12 min ago" ages: redraw once a minute; scans are cached per document version.
    const timer = setInterval(() => this.changed.fire(), 60_000);
    this.subscriptions = [
      memory.onDidChange(() => this.changed.fire()),
      // A new run may be the place's newest: look its floors up again. Only a runner place reads
      // runs: redrawing every lens on every run change otherwise made them flicker (and vanish for a
      // moment under the e2e's count) for nothing.
      runs.onDidChange(() => {
        this.distances.clear();
        if (appLocation()?.kind === 'place') this.changed.fire();
      }),
      vscode.workspace.onDidCloseTextDocument((d) => {
        this.cache.delete(d.uri.toString());
        this.unseen.delete(d.uri.toString());
      }),
      // A document asked for while hidden is scanned once an editor shows it.
      vscode.window.onDidChangeVisibleTextEditors((editors) => {
        if (editors.some((e) => this.unseen.delete(e.document.uri.toString()))) this.changed.fire();
      }),
      vscode.workspace.onDidChangeConfiguration((e) => {
        if (affectsAppLocation(e)) this.distances.clear();
        if (e.affectsConfiguration('dbprobe.codeLens') || affectsAppLocation(e)) this.changed.fire();
      }),
      { dispose: () => clearInterval(timer) },
    ];
  }

  provideCodeLenses(document: vscode.TextDocument): vscode.CodeLens[] {
    // No work for a language without a recogniser, nor for a document no editor shows yet.
    if (!QUERY_LANGUAGES.includes(document.languageId)) return [];
    if (!vscode.window.visibleTextEditors.some((e) => e.document === document)) {
      this.unseen.add(document.uri.toString());
      return [];
    }
    if (!vscode.workspace.getConfiguration('dbprobe').get<boolean>('codeLens.enabled', true)) return [];
    const scanned = this.scan(document);
    const { scan } = scanned;
    const lenses: vscode.CodeLens[] = [];
    const now = Date.now();
    const location = appLocation();
    const distance = (target: string) => this.distances.distanceFor(location, target);
    for (const statement of scan.statements) {
      const range = new vscode.Range(
        document.positionAt(statement.start),
        document.positionAt(statement.end),
      );
      const args: ProbeQueryArgs = { uri: document.uri.toString(), statement };
      lenses.push(
        new vscode.CodeLens(range, {
          title: `$(play) Probe this ${noun(statement)}`,
          tooltip: `DB Probe: run this ${noun(statement)} (found as ${statement.origin}) on targets you pick: initial + subsequent`,
          command: PROBE_QUERY_COMMAND,
          arguments: [args],
        }),
      );
      const key = statementKey(statement.family, statement.text);
      const record = this.memory.record(key);
      if (!record) continue;
      // Until the file's drivers are read (a moment), no answer: it must be the file's own target's.
      const drivers = this.driversFor(scanned, document);
      if (!drivers) continue;
      const judgement = this.judgements.judgementOf(
        record.runId,
        location?.kind === 'rtt' ? location.rttMs : undefined,
      );
      const verdict = judgement ? lensVerdict(judgement.rankings) : [];
      const app: LensApp | undefined =
        location?.kind === 'here'
          ? { kind: 'here' }
          : location
            ? { kind: 'distance', of: distance }
            : undefined;
      const line = queryLensLine(record, now, drivers, app, verdict);
      if (!line) continue;
      lenses.push(
        new vscode.CodeLens(range, {
          title: line.title,
          tooltip: line.hover,
          command: 'dbprobe.openRun',
          arguments: [record.runId],
        }),
      );
      if (line.others === 0) continue;
      lenses.push(
        new vscode.CodeLens(range, {
          title: `other targets (${line.others})…`,
          tooltip: 'The other targets this query was probed on, and the run judgement across them',
          command: OTHER_TARGETS_COMMAND,
          arguments: [key],
        }),
      );
    }
    if (scan.truncated) {
      lenses.push(
        new vscode.CodeLens(new vscode.Range(0, 0, 0, 0), {
          title: `DB Probe: only the first ${MAX_SCAN_CHARS / 1024} KB of this file were scanned for queries`,
          tooltip:
            'Select a statement further down and use "DB Probe: Probe This Query" from the context menu.',
          command: '',
        }),
      );
    }
    return lenses;
  }

  private scan(document: vscode.TextDocument): ScannedDocument {
    const key = document.uri.toString();
    const cached = this.cache.get(key);
    if (cached && cached.version === document.version) return cached;
    // Read one character past the bound, so the scan knows the document goes on.
    const end = document.positionAt(MAX_SCAN_CHARS + 1);
    const text = document.getText(new vscode.Range(new vscode.Position(0, 0), end));
    const scanned: ScannedDocument = {
      version: document.version,
      scan: findStatements(text, document.languageId),
    };
    this.cache.set(key, scanned);
    return scanned;
  }

  /** The file's drivers once read; the first call starts the reading, which redraws when done. */
  private driversFor(scanned: ScannedDocument, document: vscode.TextDocument): readonly string[] | undefined {
    if (scanned.drivers || this.reading.has(scanned)) return scanned.drivers;
    this.reading.add(scanned);
    const text = document.getText(
      new vscode.Range(new vscode.Position(0, 0), document.positionAt(MAX_SCAN_CHARS)),
    );
    this.driversOf(text, document.languageId).then(
      (drivers) => {
        scanned.drivers = drivers;
        this.changed.fire();
      },
      () => {
        // The body failed to load (its own error is shown elsewhere): answer for the first target.
        scanned.drivers = [];
        this.changed.fire();
      },
    );
    return undefined;
  }

  /**
   * The "other targets…" lens: the run's judgement across the targets (the shared judgeRun's
   * warm-query ranking, its why as each line's detail) and each target said apart (where the query
   * failed, with why), in a list of their own rather than on the editor's line; a pick opens the run.
   */
  async showOthers(key: unknown): Promise<void> {
    if (typeof key !== 'string') return;
    const record = this.memory.record(key);
    if (!record) return;
    const location = appLocation();
    const judgement = this.judgements.judgementOf(
      record.runId,
      location?.kind === 'rtt' ? location.rttMs : undefined,
    );
    const verdict = judgement ? lensVerdict(judgement.rankings) : [];
    const distance = (target: string) => this.distances.distanceFor(location, target);
    const items: (vscode.QuickPickItem & { runId: string })[] = lensTitles(
      record,
      Date.now(),
      distance,
      verdict,
    )
      .slice(0, MAX_FIGURE_LENSES)
      .map((label, i) => ({
        label,
        ...(verdict[i] && verdict[i].why.length > 0 ? { detail: verdict[i].why.join(' ') } : {}),
        runId: record.runId,
      }));
    const picked = await vscode.window.showQuickPick(items, {
      title: 'DB Probe: this query on every target it was probed on',
      placeHolder: `Run of ${new Date(record.at).toLocaleString()}: pick a line to open the run`,
      matchOnDetail: true,
    });
    if (picked) await vscode.commands.executeCommand('dbprobe.openRun', picked.runId);
  }

  dispose(): void {
    for (const s of this.subscriptions) s.dispose();
    this.changed.dispose();
  }
}

function noun(statement: FoundStatement): string {
  return statement.family === 'redis' ? 'command' : 'query';
}

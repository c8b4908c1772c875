/**
 * Run, run-group and compare panels: one per run (or group, or pair of runs), restored after a reload
 * by serializers.
 * The webview says `ready`, then the host posts the view model it computed; every message from the
 * webview is checked by the protocol's guard before it is acted on.
 */
import { performance } from 'node:perf_hooks';
import * as vscode from 'vscode';
import { assertNever } from '../../shared/assertNever';
import { isPanelState, type HostMessage, type PanelState, type WebviewMessage } from '../../shared/messages';
import { redactDeep, type Redactor } from '../../shared/redact';
import type { Log } from '../log';
import { affectsPanelProjection, panelProjection } from '../settings/projectionSettings';
import { buildCompareViewModel } from '../model/compareViewModel';
import { buildGroupViewModel } from '../model/groupViewModel';
import { deliver, passedThrough, runDelivery, type PanelDelivery } from '../model/panelDelivery';
import { runTitle } from '../model/runViewModel';
import type { RunStore } from '../runs/runStore';
import { LivePanel } from './livePanel';
import { panelHtml } from './panelHtml';
import { COMPARE_VIEW_TYPE, RUN_VIEW_TYPE } from './viewTypes';
import { WebviewChannel, type PanelIntent, type WebviewHandlers } from './webviewChannel';

/**
 * A panel restored while its run was going: the closing window's extension host stops the run and
 * saves what it measured while the new window starts (the two hosts overlap for up to 5 s), so the
 * restored panel looks for that result this long before saying it is not there.
 */
export const SAVED_ON_CLOSE_WAIT_MS = 8_000;
const SAVED_ON_CLOSE_POLL_MS = 250;

export { COMPARE_VIEW_TYPE, RUN_VIEW_TYPE };

/** What a panel's export and copy buttons act on: its run, or its whole run group. */
export type PanelSubject = { runId: string } | { groupId: string };

export type { PanelIntent };

export type PanelAction = (message: PanelIntent, subject: PanelSubject) => void;

export class PanelManager implements vscode.Disposable {
  private readonly open = new Map<string, vscode.WebviewPanel>();
  /** Posts an open run panel's view again (the app's RTT or the projection's RTTs changed). */
  private readonly reposts = new Map<string, () => void>();
  private active?: string;
  private onAction?: PanelAction;
  private readonly settingsWatch = vscode.workspace.onDidChangeConfiguration((e) => {
    if (affectsPanelProjection(e)) for (const repost of this.reposts.values()) repost();
  });

  constructor(
    private readonly extensionUri: vscode.Uri,
    private readonly runs: RunStore,
    private readonly log: Log,
    /** The log's Redactor, taught every stored secret (the panel is a boundary). */
    private readonly redactor: () => Promise<Redactor>,
  ) {}

  /** Where export and copy requests from a panel go (set once the commands exist). */
  setActionHandler(handler: PanelAction): void {
    this.onAction = handler;
  }

  /** The run of the panel the user looked at last, for commands run from the palette. */
  activeRunId(): string | undefined {
    return this.active?.startsWith('run:') ? this.active.slice(4) : undefined;
  }

  /** The run group of the panel the user looked at last, when that panel shows one. */
  activeGroupId(): string | undefined {
    return this.active?.startsWith('group:') ? this.active.slice(6) : undefined;
  }

  /** Shows a run group: its places side by side. Uses the run panel's type, so it restores alike. */
  async showGroup(groupId: string, column = vscode.ViewColumn.Active): Promise<void> {
    const askedAt = performance.now();
    const key = `group:${groupId}`;
    const existing = this.open.get(key);
    if (existing) return existing.reveal(column);
    const panel = vscode.window.createWebviewPanel(RUN_VIEW_TYPE, 'DB Probe: places', column, this.options());
    this.attach(panel, { view: 'group', groupId }, askedAt);
  }

  async showRun(runId: string, column = vscode.ViewColumn.Active): Promise<void> {
    // The result is saved when this is called: the panel's first paint is timed from here.
    const askedAt = performance.now();
    const key = `run:${runId}`;
    const existing = this.open.get(key);
    if (existing) return existing.reveal(column);
    const summary = (await this.runs.list()).find((s) => s.id === runId);
    const title = summary ? `DB Probe: ${summary.targets.map((t) => t.name).join(', ')}` : 'DB Probe run';
    const panel = vscode.window.createWebviewPanel(RUN_VIEW_TYPE, title, column, this.options());
    this.attach(panel, { view: 'run', runId }, askedAt);
  }

  /**
   * Opens a run's panel as the run starts, showing its progress; its result is later posted to the
   * same, already loaded webview (LivePanel.showRun/showGroup). Beside the editor the user works in,
   * without taking the focus from it (someone typing keeps typing).
   */
  openLive(title: string, onCancel: () => void): LivePanel {
    const column = vscode.window.activeTextEditor ? vscode.ViewColumn.Beside : vscode.ViewColumn.Active;
    const panel = vscode.window.createWebviewPanel(
      RUN_VIEW_TYPE,
      `DB Probe: ${title}`,
      { viewColumn: column, preserveFocus: true },
      this.options(),
    );
    panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'dbprobe.svg');
    panel.webview.html = panelHtml(panel.webview, this.extensionUri, panel.title);
    return new LivePanel(panel, this.redactor(), this.log, onCancel, (state, askedAt, ready, channel) =>
      this.attach(panel, state, askedAt, { ready, channel }),
    );
  }

  showCompare(a: string, b: string): void {
    const askedAt = performance.now();
    const key = `compare:${a}:${b}`;
    const existing = this.open.get(key);
    if (existing) return existing.reveal();
    const panel = vscode.window.createWebviewPanel(
      COMPARE_VIEW_TYPE,
      'DB Probe: compare runs',
      vscode.ViewColumn.Active,
      this.options(),
    );
    this.attach(panel, { view: 'compare', runIds: [a, b] }, askedAt);
  }

  /** Brings back a panel VS Code restored after a reload, from the state its webview saved. */
  restore(panel: vscode.WebviewPanel, state: unknown): void {
    panel.webview.options = this.options();
    this.attach(panel, isPanelState(state) ? state : undefined, performance.now());
  }

  serializer(): vscode.WebviewPanelSerializer {
    return { deserializeWebviewPanel: async (panel, state: unknown) => this.restore(panel, state) };
  }

  private options(): vscode.WebviewPanelOptions & vscode.WebviewOptions {
    return {
      enableScripts: true,
      enableFindWidget: true,
      localResourceRoots: [
        vscode.Uri.joinPath(this.extensionUri, 'dist'),
        vscode.Uri.joinPath(this.extensionUri, 'media'),
      ],
    };
  }

  /**
   * `askedAt`: performance.now() when the panel was asked for (or its result was ready), for its
   * first-paint figure. `live`: the panel was opened when its run started and its webview is already
   * there (loaded when `ready`), so its HTML is kept and the view is posted as soon as it is built.
   */
  private attach(
    panel: vscode.WebviewPanel,
    state: PanelState | undefined,
    askedAt: number,
    live?: { ready: boolean; channel: WebviewChannel },
  ): void {
    const key = !state
      ? `orphan:${Math.random()}`
      : state.view === 'run'
        ? `run:${state.runId}`
        : state.view === 'group'
          ? `group:${state.groupId}`
          : `compare:${state.runIds[0]}:${state.runIds[1]}`;
    this.open.set(key, panel);
    this.active = key;
    if (!live) {
      panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'dbprobe.svg');
      panel.webview.html = panelHtml(panel.webview, this.extensionUri, panel.title);
    }
    // The view model is read and built while the webview starts (another process), not after its
    // `ready`: the two waits overlap instead of adding up before the first paint.
    const timing: PaintTiming = { askedAt, readyAt: undefined, builtAt: undefined, live: live !== undefined };
    let prepared: Promise<PanelDelivery> | undefined = this.message(panel, state, timing).then((delivery) => {
      timing.builtAt = performance.now();
      return delivery;
    });
    prepared.catch(() => undefined);
    // The webview's first-paint report: the rest of the view (a run's evidence) is built after it.
    let reportPaint: () => void = () => undefined;
    const painted = new Promise<void>((resolve) => (reportPaint = resolve));
    const post = (delivery: Promise<PanelDelivery>) =>
      delivery
        .then((d) => deliver(d, (m) => panel.webview.postMessage(m), painted))
        .catch((error: unknown) => this.log.error('the panel could not be filled', error));
    if (live?.ready) {
      // The webview said `ready` while it showed the run's progress: it takes the result at once.
      void post(prepared);
      prepared = undefined;
    }
    const handlers: WebviewHandlers = {
      ready: () => {
        timing.readyAt ??= performance.now();
        // A webview reloaded later (hidden, then shown) gets a fresh read of the run.
        const next = prepared ?? this.message(panel, state);
        prepared = undefined;
        void post(next);
      },
      painted: (message) => {
        reportPaint();
        this.log.info(paintedLine(message, timing, performance.now()));
      },
      // A Cancel clicked just as the run ended: there is nothing left to cancel.
      cancel: () => undefined,
      // A progress frame painted just as the result came: the live panel timed the first one.
      progressPainted: () => undefined,
      intent: (message) => {
        const subject = subjectOf(message, state);
        if (subject) this.onAction?.(message, subject);
      },
    };
    let channel: WebviewChannel;
    if (live) {
      channel = live.channel;
      channel.handTo(handlers);
    } else channel = new WebviewChannel(panel.webview, handlers, this.log);
    if (state?.view === 'run') this.reposts.set(key, () => void post(this.message(panel, state)));
    const subscriptions = [
      channel,
      panel.onDidChangeViewState((e) => {
        if (e.webviewPanel.active) this.active = key;
      }),
    ];
    panel.onDidDispose(() => {
      this.open.delete(key);
      this.reposts.delete(key);
      if (this.active === key) this.active = undefined;
      for (const s of subscriptions) s.dispose();
    });
  }

  /**
   * What the panel shows, redacted: a run (its Differences in a message of their own, after the rest),
   * a group, a comparison, or why there is nothing.
   */
  private async message(
    panel: vscode.WebviewPanel,
    state: PanelState | undefined,
    timing?: PaintTiming,
  ): Promise<PanelDelivery> {
    let message: HostMessage | PanelDelivery;
    if (!state) {
      message = {
        type: 'missing',
        message: 'This panel has no run to show. Open a run from the DB Probe Runs view.',
      };
    } else if (state.view === 'run') {
      const result = await this.loadSaved(() => this.runs.load(state.runId), state.running);
      if (timing) timing.readAt ??= performance.now();
      if (result) panel.title = runTitle(result);
      message = result
        ? runDelivery(
            result,
            panelProjection((line) => this.log.warn(line)),
          )
        : {
            type: 'missing',
            message: state.running
              ? UNSAVED_ON_CLOSE
              : 'This run is no longer in the workspace storage (it was deleted or aged out). Run the probe again.',
          };
    } else if (state.view === 'group') {
      const loaded = await this.loadSaved(() => this.runs.loadGroupResults(state.groupId), state.running);
      if (loaded) {
        const model = buildGroupViewModel(loaded.group, loaded.results);
        panel.title = model.title;
        message = { type: 'showGroup', model };
      } else {
        message = {
          type: 'missing',
          message: state.running
            ? UNSAVED_ON_CLOSE
            : 'This run group is no longer in the workspace storage (it was deleted or aged out). Run the probe again.',
        };
      }
    } else {
      const [a, b] = await Promise.all(state.runIds.map((id) => this.runs.load(id)));
      message =
        a && b
          ? { type: 'showCompare', model: buildCompareViewModel(a, b) }
          : {
              type: 'missing',
              message: 'One of the compared runs is no longer in the workspace storage. Pick two runs again.',
            };
    }
    if (timing) timing.modelAt ??= performance.now();
    // Webview messages are a boundary: one more pass with every secret this session has seen.
    const redactor = await this.redactor();
    return passedThrough('first' in message ? message : { first: message }, (m) => redactDeep(m, redactor));
  }

  /**
   * Reads a saved run or group. For a panel that was showing its run under way (`running`), the
   * previous window may still be saving it: look again every SAVED_ON_CLOSE_POLL_MS until
   * SAVED_ON_CLOSE_WAIT_MS, and have the run list read again once it is there (it was written by
   * the other extension host).
   */
  private async loadSaved<T>(load: () => Promise<T | undefined>, running?: true): Promise<T | undefined> {
    const deadline = performance.now() + (running ? SAVED_ON_CLOSE_WAIT_MS : 0);
    for (;;) {
      const found = await load();
      if (found !== undefined || performance.now() >= deadline) {
        if (found !== undefined && running) this.runs.reread();
        return found;
      }
      await new Promise((resolve) => setTimeout(resolve, SAVED_ON_CLOSE_POLL_MS));
    }
  }

  dispose(): void {
    this.settingsWatch.dispose();
    for (const panel of this.open.values()) panel.dispose();
  }
}

const UNSAVED_ON_CLOSE =
  'This panel showed a run under way when the window closed or reloaded. That stopped the run, and what it had measured was not saved in time (the closing window gets a few seconds). Run the probe again.';

/**
 * The first-paint log line. For a panel opened as its run started (`live`), the host's figure runs
 * from the result being saved to the webview's report: reading the run, building the view model,
 * posting, drawing and painting in a webview already loaded. Otherwise: two clocks, never compared with each other: the host's figure runs from
 * the panel being asked for (the result is saved by then) to the webview's report, so it holds the
 * webview's start, reading the run, building the view model, posting, drawing and painting; the
 * webview's own figure is the part from the message's arrival to the painted frame.
 */
export function paintedLine(
  message: Extract<WebviewMessage, { type: 'painted' }>,
  timing: PaintTiming,
  now: number,
): string {
  const since = (at: number | undefined) => (at === undefined ? '?' : (at - timing.askedAt).toFixed(1));
  if (timing.live) {
    return `panel first paint (${message.view}, ${message.targets} targets, ${message.sections} sections): ${since(now)} ms after the result was ready (extension host clock: result saved -> painted frame reported, in the webview already loaded with the run's progress; view model built and posted at ${since(timing.builtAt)} ms: run read at ${since(timing.readAt)} ms, view model built at ${since(timing.modelAt)} ms), ${message.ms.toFixed(1)} ms of it in the webview (webview clock: result message received -> first frame with every section painted; DOM and charts drawn at ${message.drawMs.toFixed(1)} ms)`;
  }
  return `panel first paint (${message.view}, ${message.targets} targets, ${message.sections} sections): ${since(now)} ms after the result was ready (extension host clock: panel opened -> painted frame reported; webview ready at ${since(timing.readyAt)} ms, its document loaded and its script run in ${message.loadMs.toFixed(1)} ms of that, view model built at ${since(timing.builtAt)} ms), ${message.ms.toFixed(1)} ms of it in the webview (webview clock: result message received -> first frame with every section painted; DOM and charts drawn at ${message.drawMs.toFixed(1)} ms)`;
}

/** performance.now() stamps of one panel's start, on the extension host's clock. */
export interface PaintTiming {
  askedAt: number;
  readyAt: number | undefined;
  builtAt: number | undefined;
  /** The saved run was read (a run panel), and its view model built: where the host's part goes. */
  readAt?: number;
  modelAt?: number;
  /** The webview was opened with the run's progress, before the result was ready. */
  live?: boolean;
}

function subjectOf(message: PanelIntent, state: PanelState | undefined): PanelSubject | undefined {
  switch (message.type) {
    case 'openRun':
      return { runId: message.runId };
    case 'export':
    case 'copyMarkdown':
      if (!state) return undefined;
      if (state.view === 'run') return { runId: state.runId };
      if (state.view === 'group') return { groupId: state.groupId };
      return { runId: state.runIds[1] };
    default:
      return assertNever(message, 'panel action');
  }
}

/**
 * A run's panel while the run goes on: opened as the run starts (PanelManager.openLive), it shows the
 * run's progress and a Cancel button, then takes the result in the same webview. The webview is
 * created while the run goes on, so the result is painted in a webview already loaded.
 * Progress is posted at most every PROGRESS_EVERY_MS (the last one always arrives), redacted like
 * every webview message. If the user closes the panel, the run goes on and its result opens a new one.
 */
import { performance } from 'node:perf_hooks';
import type * as vscode from 'vscode';
import {
  PROGRESS_EVERY_MS,
  type HostMessage,
  type PanelState,
  type RunPanelState,
} from '../../shared/messages';
import { redactDeep, type Redactor } from '../../shared/redact';
import type { ProgressViewModel } from '../../shared/viewModel';
import type { Log } from '../log';
import { WebviewChannel } from './webviewChannel';

/**
 * Hands the panel to the PanelManager for its result (`ready`: the webview already said ready), with
 * the channel its webview's messages arrive on (now answering nothing until the manager takes it).
 */
export type Adopt = (state: PanelState, askedAt: number, ready: boolean, channel: WebviewChannel) => void;

export class LivePanel {
  private ready = false;
  private closed = false;
  private handedOver = false;
  /** The run ended without a result; the panel shows why, and no more progress. */
  private failed = false;
  /** What the webview shows now: posted again if it reloads (hidden, then shown). */
  private current?: HostMessage;
  /** Builds the latest progress; called only when a post is due, not at every sample. */
  private latest?: () => ProgressViewModel;
  /** The run or group this panel will show, once its id is known (kept by the webview for a reload). */
  private restoreAs?: RunPanelState;
  private lastSentAt = Number.NEGATIVE_INFINITY;
  private timer?: ReturnType<typeof setTimeout>;
  /** performance.now() at the run's first sample event, for the first-figure line. */
  private firstSampleAt?: number;
  private firstFigureLogged = false;
  private readonly readyWaiters: (() => void)[] = [];
  private readonly subscriptions: vscode.Disposable[];
  private readonly channel: WebviewChannel;

  constructor(
    private readonly panel: vscode.WebviewPanel,
    private readonly redactor: Promise<Redactor>,
    private readonly log: Log,
    onCancel: () => void,
    private readonly adopt: Adopt,
  ) {
    redactor.catch(() => undefined);
    this.channel = new WebviewChannel(
      panel.webview,
      {
        ready: () => {
          this.ready = true;
          this.wake();
          this.send();
        },
        cancel: onCancel,
        painted: () => undefined,
        progressPainted: () => this.firstFigurePainted(),
        // Export, copy and open need a saved run: the progress view offers none of them.
        intent: () => undefined,
      },
      log,
    );
    this.subscriptions = [
      panel.onDidDispose(() => {
        this.closed = true;
        this.wake();
        this.stop();
        this.channel.dispose();
      }),
    ];
  }

  /**
   * Something changed: the progress `view` builds is posted now, or once PROGRESS_EVERY_MS has
   * passed since the last post (the latest then).
   */
  progress(view: () => ProgressViewModel): void {
    if (this.closed || this.handedOver || this.failed) return;
    this.latest = view;
    if (!this.ready || this.timer) return;
    const wait = this.lastSentAt + PROGRESS_EVERY_MS - performance.now();
    if (wait <= 0) this.send();
    else
      this.timer = setTimeout(() => {
        this.timer = undefined;
        this.send();
      }, wait);
  }

  /**
   * Resolves once the webview can show progress (it said ready), or the panel was closed, or after
   * `timeoutMs`: the run starts then, so its rows show from the first sample instead of after the
   * webview's load (seen: 2.6 s blank while the notification already counted).
   */
  whenReady(timeoutMs: number): Promise<void> {
    if (this.ready || this.closed) return Promise.resolve();
    return new Promise((resolve) => {
      const timer = setTimeout(resolve, timeoutMs);
      this.readyWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
    });
  }

  /** The run's first sample event: the first figure's time is counted from here. */
  sampled(): void {
    this.firstSampleAt ??= performance.now();
  }

  /**
   * The id of the run (or group) under way, once known: progress posts carry it from now on, and the
   * webview keeps it, so a reload during the run restores the panel to what the run saved.
   */
  identify(state: RunPanelState): void {
    this.restoreAs = state;
  }

  /** The run is saved: the panel shows it. False when the user closed the panel (open a new one). */
  showRun(runId: string): boolean {
    return this.handOver({ view: 'run', runId });
  }

  showGroup(groupId: string): boolean {
    return this.handOver({ view: 'group', groupId });
  }

  /** The run ended without a result: the panel says so (the error notification says it too). */
  fail(message: string): void {
    if (this.closed || this.handedOver) return;
    this.clearTimer();
    this.failed = true;
    this.latest = undefined;
    this.current = { type: 'missing', message };
    this.send();
  }

  private handOver(state: PanelState): boolean {
    // The result was saved just before: the first-paint figure runs from here.
    const askedAt = performance.now();
    if (this.closed) return false;
    this.handedOver = true;
    this.stop();
    this.channel.handTo(undefined);
    this.adopt(state, askedAt, this.ready, this.channel);
    return true;
  }

  private send(): void {
    if (this.latest && !this.closed && !this.handedOver && this.ready) {
      const model = this.latest();
      this.current = this.restoreAs
        ? { type: 'progress', model, restoreAs: this.restoreAs }
        : { type: 'progress', model };
      this.latest = undefined;
    }
    const message = this.current;
    if (!this.ready || !message || this.closed) return;
    this.clearTimer();
    this.lastSentAt = performance.now();
    // One resolved promise: posts keep their order, and go before the result's (built later).
    this.redactor
      .then((redactor) => this.panel.webview.postMessage(redactDeep(message, redactor)))
      .catch((error: unknown) => this.log.error('the panel could not show the progress', error));
  }

  private wake(): void {
    for (const resolve of this.readyWaiters.splice(0)) resolve();
  }

  /** Logged once: the bench (scripts/bench/panelFirstFigure.ts) reads this line. */
  private firstFigurePainted(): void {
    if (this.firstFigureLogged || this.firstSampleAt === undefined) return;
    this.firstFigureLogged = true;
    this.log.info(firstFigureLine(performance.now() - this.firstSampleAt));
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private stop(): void {
    this.clearTimer();
    for (const s of this.subscriptions) s.dispose();
    this.subscriptions.length = 0;
  }
}

/** "panel: first figure painted 180 ms after the first sample" (the host's clock, the post back included). */
export function firstFigureLine(ms: number): string {
  return `panel: first figure painted ${Math.round(ms)} ms after the first sample`;
}

/** The figure back from a log line (the bench's reading of firstFigureLine). */
export const FIRST_FIGURE_PATTERN = /panel: first figure painted (\d+) ms after the first sample/;

/**
 * The run panel's script. It draws what the host sends and sends back only user intents (export,
 * copy, open); it never measures a latency (browsers coarsen timers) and never sees a secret. The
 * one thing it times is its own first paint (firstPaint.ts), reported to the host.
 */
import type { Chart } from 'chart.js';
import { assertNever } from '../src/shared/assertNever';
import type { HostMessage, PanelState, PanelView, WebviewMessage } from '../src/shared/messages';
import type { GroupViewModel, RunViewModel } from '../src/shared/viewModel';
import { drawChart, drawGroupChart, type ChartKind } from './chartDefinitions';
import { afterNextFrame, cancelQueuedCharts, drawAfterFirstFrame, type ChartJob } from './chartQueue';
import { renderCompare } from './compareView';
import { withRunEvidence } from './evidenceMerge';
import { replaceEvidence } from './evidenceView';
import { h } from './dom';
import { firstPlaceWithDetails, renderGroup } from './groupView';
import { acceptHostMessages } from './hostMessages';
import { markReady, reportFirstPaint } from './firstPaint';
import { leaveProgress, renderProgress } from './progressView';
import { renderRun } from './runView';
import { onThemeChange } from './theme';

interface VsCodeApi {
  postMessage(message: WebviewMessage): void;
  setState(state: PanelState): void;
}
declare function acquireVsCodeApi(): VsCodeApi;

const vscode = acquireVsCodeApi();
const root = document.getElementById('app') ?? document.body;
let charts: Chart[] = [];
/** Charts of the place shown in full in a group panel; replaced when another place is picked. */
let detailCharts: Chart[] = [];
let current: RunViewModel | undefined;
let currentGroup: { model: GroupViewModel; place: number } | undefined;
/** performance.now() when the message being shown arrived (the start of the first-paint figure). */
let receivedAt = 0;
/** A result (or an error) is shown: a late progress message must not replace it. */
let settled = false;
/** The run's id is kept in the webview's state (once: it does not change during the run). */
let keptWhileRunning = false;
/** The first progress frame with a running p50 was reported (once per load). */
let figureReported = false;

function show(message: HostMessage): void {
  // Only messages that passed the protocol's guard get here (see hostMessages.ts).
  if (message.type === 'progress') {
    // A run under way: drawn, but not the first paint (that is the result's, in this loaded webview).
    if (settled) return;
    // Once the run's id is known: a reload during the run comes back to what the run saved.
    if (message.restoreAs && !keptWhileRunning) {
      keptWhileRunning = true;
      vscode.setState({ ...message.restoreAs, running: true });
    }
    renderProgress(root, message.model, () => vscode.postMessage({ type: 'cancel' }));
    document.getElementById('app')?.removeAttribute('aria-busy');
    // The first running p50 on screen: the host times it from the run's first sample.
    if (!figureReported && message.model.places.some((p) => p.rows.some((r) => r.p50Us !== undefined))) {
      figureReported = true;
      afterNextFrame(() => vscode.postMessage({ type: 'progressPainted' }));
    }
    return;
  }
  if (message.type === 'evidence') {
    // The rest of the run's view, computed after it: drawn after the frame that shows the view.
    const next = withRunEvidence(current, message);
    if (next) {
      current = next;
      afterNextFrame(() => {
        if (current === next) replaceEvidence(root, next);
      });
    }
    return;
  }
  settled = true;
  leaveProgress();
  switch (message.type) {
    case 'showRun':
      currentGroup = undefined;
      current = message.model;
      vscode.setState({ view: 'run', runId: message.model.runId });
      drawRun(message.model);
      break;
    case 'showGroup':
      current = undefined;
      currentGroup = { model: message.model, place: firstPlaceWithDetails(message.model) };
      vscode.setState({ view: 'group', groupId: message.model.groupId });
      drawGroup();
      break;
    case 'showCompare':
      current = undefined;
      currentGroup = undefined;
      vscode.setState({ view: 'compare', runIds: [message.model.a.runId, message.model.b.runId] });
      destroyCharts();
      renderCompare(root, message.model, (runId) => vscode.postMessage({ type: 'openRun', runId }));
      break;
    case 'missing':
      current = undefined;
      currentGroup = undefined;
      destroyCharts();
      root.replaceChildren(h('p', { class: 'banner warning' }, message.message));
      break;
    default:
      assertNever(message, 'host message');
  }
  document.body.dataset.ready = 'true';
  document.getElementById('app')?.removeAttribute('aria-busy');
  reportFirstPaint(receivedAt, viewOf(message), targetsOf(message), (report) =>
    vscode.postMessage({ type: 'painted', ...report }),
  );
}

function viewOf(message: HostMessage): PanelView {
  if (message.type === 'showRun') return 'run';
  if (message.type === 'showGroup') return 'group';
  if (message.type === 'showCompare') return 'compare';
  return 'missing';
}

function targetsOf(message: HostMessage): number {
  if (message.type === 'showRun') return message.model.cards.length;
  if (message.type === 'showGroup') return message.model.details[currentGroup?.place ?? 0]?.cards.length ?? 0;
  return 0;
}

function drawRun(model: RunViewModel): void {
  destroyCharts();
  const jobs: ChartJob[] = [];
  renderRun(root, model, {
    onExport: (format) => vscode.postMessage({ type: 'export', format }),
    onCopy: () => vscode.postMessage({ type: 'copyMarkdown' }),
    // Drawn after the first frame (chartQueue.ts): the DOM the user reads first comes first.
    chart: (canvas: HTMLCanvasElement, kind: ChartKind) =>
      jobs.push({ canvas, draw: () => drawChart(canvas, kind, model) }),
  });
  drawAfterFirstFrame(
    jobs,
    (chart) => charts.push(chart),
    () => (document.body.dataset.chartsDrawn = String(jobs.length)),
  );
}

function drawGroup(): void {
  if (!currentGroup) return;
  destroyCharts();
  const { model, place } = currentGroup;
  renderGroup(
    root,
    model,
    {
      onExport: (format) => vscode.postMessage({ type: 'export', format }),
      onCopy: () => vscode.postMessage({ type: 'copyMarkdown' }),
      onOpen: (runId) => vscode.postMessage({ type: 'openRun', runId }),
      placesChart: (canvas) => charts.push(drawGroupChart(canvas, 'places', model)),
      detailChart: (canvas, kind, index) => {
        const details = model.details[index];
        if (details) detailCharts.push(drawChart(canvas, kind, details));
      },
      clearDetails: () => {
        for (const chart of detailCharts) chart.destroy();
        detailCharts = [];
      },
    },
    place,
    (index) => {
      if (currentGroup) currentGroup.place = index;
    },
  );
}

function destroyCharts(): void {
  cancelQueuedCharts();
  delete document.body.dataset.chartsDrawn;
  for (const chart of [...charts, ...detailCharts]) chart.destroy();
  charts = [];
  detailCharts = [];
}

const receive = acceptHostMessages(show);
window.addEventListener('message', (event: MessageEvent<unknown>) => {
  receivedAt = performance.now();
  receive(event.data);
});
// Colours are read from the theme when drawing: redraw when the user switches theme.
onThemeChange(() => {
  if (current) drawRun(current);
  if (currentGroup) drawGroup();
});
markReady();
vscode.postMessage({ type: 'ready' });
// The first toLocaleString of a page loads the locale's data (tens of ms): done while the webview
// waits (a live panel waits for the whole run), not in the frame that shows the result.
requestIdleCallback(() => new Date(0).toLocaleString(), { timeout: 2_000 });

/**
 * The run panel's script. It draws what the host sends and sends back only user intents (export,
 * copy, open); it never measures anything (browsers coarsen timers) and never sees a secret.
 */
import type { Chart } from 'chart.js';
import type { HostMessage, PanelState, WebviewMessage } from '../src/shared/messages';
import type { RunViewModel } from '../src/shared/viewModel';
import { drawChart, type ChartKind } from './charts';
import { renderCompare } from './compareView';
import { h } from './dom';
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
let current: RunViewModel | undefined;

function show(message: HostMessage): void {
  // Messages come only from our own host; an unknown type (a newer host) is ignored, not guessed at.
  switch (message.type) {
    case 'showRun':
      current = message.model;
      vscode.setState({ view: 'run', runId: message.model.runId });
      drawRun(message.model);
      break;
    case 'showCompare':
      current = undefined;
      vscode.setState({ view: 'compare', runIds: [message.model.a.runId, message.model.b.runId] });
      destroyCharts();
      renderCompare(root, message.model, (runId) => vscode.postMessage({ type: 'openRun', runId }));
      break;
    case 'missing':
      destroyCharts();
      root.replaceChildren(h('p', { class: 'banner warning' }, message.message));
      break;
  }
  document.body.dataset.ready = 'true';
}

function drawRun(model: RunViewModel): void {
  destroyCharts();
  renderRun(root, model, {
    onExport: (format) => vscode.postMessage({ type: 'export', format }),
    onCopy: () => vscode.postMessage({ type: 'copyMarkdown' }),
    chart: (canvas: HTMLCanvasElement, kind: ChartKind) => charts.push(drawChart(canvas, kind, model)),
  });
}

function destroyCharts(): void {
  for (const chart of charts) chart.destroy();
  charts = [];
}

window.addEventListener('message', (event: MessageEvent<unknown>) => {
  const data = event.data;
  if (typeof data === 'object' && data !== null && typeof (data as { type?: unknown }).type === 'string') {
    show(data as HostMessage);
  }
});
// Colours are read from the theme when drawing: redraw when the user switches theme.
onThemeChange(() => {
  if (current) drawRun(current);
});
vscode.postMessage({ type: 'ready' });

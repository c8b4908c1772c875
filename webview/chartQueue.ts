/**
 * Charts are drawn after the first frame, not in it: the first frame holds the DOM (header, cards,
 * tables) that the user sees first, and chart.js's work comes after, one chart per idle callback so
 * input and painting go on between them, in document order (the nearest below the fold first). Until its chart
 * is drawn, a chart's table of figures stands in for it (its <details> shown open).
 */
import type { Chart } from 'chart.js';

export interface ChartJob {
  canvas: HTMLCanvasElement;
  draw(): Chart;
}

/** Whose jobs are still wanted: a newer render (another run, a theme change) drops older ones. */
let generation = 0;

/** Queues `jobs` for after the next painted frame; `done` receives each chart as it is drawn. */
export function drawAfterFirstFrame(
  jobs: ChartJob[],
  done: (chart: Chart) => void,
  finished?: () => void,
): void {
  const mine = ++generation;
  let next = 0;
  const step = (): void => {
    if (mine !== generation) return;
    const job = jobs[next++];
    if (!job) {
      finished?.();
      return;
    }
    // A canvas no longer in the document (the panel was redrawn) needs no chart.
    if (job.canvas.isConnected) {
      done(job.draw());
      standIn(job.canvas, false);
    }
    whenIdle(step);
  };
  requestAnimationFrame(() => {
    if (mine !== generation) return;
    // Just before the first frame (its layout is being made anyway): a chart the user sees at once
    // shows its table until it is drawn; the ones below the fold cost that frame nothing.
    for (const job of jobs) if (onScreen(job.canvas)) standIn(job.canvas, true);
    // After the frame is painted and once the page is idle: the first-paint report (firstPaint.ts,
    // queued in this same frame) and its way out through the webview's host frame, which shares
    // this thread, go first, so no chart is counted in (or delays the report of) the first paint.
    whenIdle(step);
  });
}

/**
 * Runs `run` after the next painted frame, once the page is idle: for parts of a view that arrive
 * after it (a run's Differences), so they are drawn after the first frame as the charts are.
 */
export function afterNextFrame(run: () => void): void {
  requestAnimationFrame(() => whenIdle(run));
}

function onScreen(element: Element): boolean {
  // A section off screen is not laid out (content-visibility in panel.css): its own box says so
  // without laying out what is inside it.
  const section = element.closest('section');
  return (!section || inView(section)) && inView(element);
}

function inView(element: Element): boolean {
  const box = element.getBoundingClientRect();
  return box.bottom > 0 && box.top < window.innerHeight;
}

/** Forgets queued charts (the view is being replaced). */
export function cancelQueuedCharts(): void {
  generation++;
}

/** Runs `run` when nothing else waits (at the latest after IDLE_TIMEOUT_MS): one chart per call. */
function whenIdle(run: () => void): void {
  requestIdleCallback(run, { timeout: IDLE_TIMEOUT_MS });
}

/** A page kept busy still gets its charts within this. */
const IDLE_TIMEOUT_MS = 200;

/** The chart's figures table, under its box, open while the chart is not drawn yet. */
function standIn(canvas: HTMLCanvasElement, pending: boolean): void {
  const details = canvas.parentElement?.parentElement?.querySelector(':scope > details.chart-figures');
  if (!(details instanceof HTMLDetailsElement)) return;
  if (pending) {
    details.dataset.standIn = '';
    details.open = true;
  } else if (details.dataset.standIn !== undefined) {
    delete details.dataset.standIn;
    details.open = false;
  }
}

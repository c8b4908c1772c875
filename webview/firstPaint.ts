/**
 * Times the panel's first paint on the webview's own clock, from the arrival of the host's message to
 * the first frame holding every section (those on screen laid out and painted; one off screen is laid
 * out when it comes near: content-visibility in media/panel.css). This is the panel's own drawing,
 * never a database latency (the webview times nothing else). requestAnimationFrame runs just before
 * the frame that holds the new DOM is painted; a message posted from it is delivered once that frame
 * is done, so the figure covers layout and the paint itself. Charts and a run's evidence come after.
 */
import type { PanelView, WebviewMessage } from '../src/shared/messages';

/** The `painted` message's figures: the message type is the one definition. */
export type PaintReport = Omit<Extract<WebviewMessage, { type: 'painted' }>, 'type'>;

let reported = false;
/** performance.now() (from the document's navigation start) when the script said `ready`. */
let loadMs = 0;

export function markReady(): void {
  loadMs = round(performance.now());
}

/** Call right after the view is rendered (the message arrived at `receivedAt`); reports only once. */
export function reportFirstPaint(
  receivedAt: number,
  view: PanelView,
  targets: number,
  send: (report: PaintReport) => void,
): void {
  if (reported) return;
  reported = true;
  // DOM built and charts drawn (synchronously, without animation); the rest is layout and paint.
  const drawMs = round(performance.now() - receivedAt);
  requestAnimationFrame(() => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      const ms = round(performance.now() - receivedAt);
      const sections = document.querySelectorAll('section').length;
      // Also on the page, so a test reads the webview's own figure without the host's log.
      document.body.dataset.firstPaintMs = String(ms);
      send({ view, ms, drawMs, loadMs, targets, sections });
    };
    channel.port2.postMessage(undefined);
  });
}

function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}

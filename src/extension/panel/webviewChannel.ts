/**
 * The one place a panel's webview messages are received and dispatched. Each webview has one
 * channel: one subscription, the protocol's guard, then a `switch` on the message type that ends in
 * assertNever, so a new message type is a compile error until every panel decides what it does.
 * A live run's panel (LivePanel) hands its channel to the PanelManager with the result: the same
 * subscription, new handlers, so two classes never listen to one webview.
 */
import type * as vscode from 'vscode';
import { assertNever } from '../../shared/assertNever';
import { isWebviewMessage, type WebviewMessage } from '../../shared/messages';
import type { Log } from '../log';

/** Messages a panel sends for the user (ready, painted and a live run's cancel are the panel's own business). */
export type PanelIntent = Exclude<
  WebviewMessage,
  { type: 'ready' } | { type: 'painted' } | { type: 'cancel' } | { type: 'progressPainted' }
>;

/** What a panel does with each message its webview sends. */
export interface WebviewHandlers {
  ready(): void;
  cancel(): void;
  painted(message: Extract<WebviewMessage, { type: 'painted' }>): void;
  /** A live run's first running p50 is on screen. */
  progressPainted(): void;
  /** Export, copy, open: acts on a saved run. */
  intent(message: PanelIntent): void;
}

/** Checks a message from a webview and calls its handler; an unknown message is logged and dropped. */
export function dispatchWebviewMessage(
  message: unknown,
  handlers: WebviewHandlers | undefined,
  log: Log,
): void {
  if (!isWebviewMessage(message)) {
    log.warn('panel sent an unknown message; ignored');
    return;
  }
  if (!handlers) return;
  switch (message.type) {
    case 'ready':
      return handlers.ready();
    case 'cancel':
      return handlers.cancel();
    case 'painted':
      return handlers.painted(message);
    case 'progressPainted':
      return handlers.progressPainted();
    case 'export':
    case 'copyMarkdown':
    case 'openRun':
      return handlers.intent(message);
    default:
      return assertNever(message, 'webview message');
  }
}

export class WebviewChannel implements vscode.Disposable {
  private readonly subscription: vscode.Disposable;

  constructor(
    webview: vscode.Webview,
    private handlers: WebviewHandlers | undefined,
    log: Log,
  ) {
    this.subscription = webview.onDidReceiveMessage((message: unknown) =>
      dispatchWebviewMessage(message, this.handlers, log),
    );
  }

  /** The panel changes hands: from now on these handlers answer (none: messages are dropped). */
  handTo(handlers: WebviewHandlers | undefined): void {
    this.handlers = handlers;
  }

  dispose(): void {
    this.subscription.dispose();
  }
}

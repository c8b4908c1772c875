/**
 * What a panel is sent, in order: the message its first frame draws, then what is computed after it
 * (a run's evidence: its Differences and crossovers). The first paint waits only for the first; the
 * rest is computed while the webview draws it, and drawn there after that frame.
 */
import type { HostMessage } from '../../shared/messages';
import type { RunResult } from '../../shared/result';
import { runViewParts, type RunViewOptions } from './runViewModel';

export interface PanelDelivery {
  first: HostMessage;
  /** Built once the first message is posted; absent when the view is whole in the first. */
  later?: () => HostMessage | Promise<HostMessage>;
}

/** A run's view: every figure at once but the evidence, which follows in its own message. */
export function runDelivery(result: RunResult, options: RunViewOptions = {}): PanelDelivery {
  const parts = runViewParts(result, options);
  return {
    first: { type: 'showRun', model: parts.first },
    later: () => ({ type: 'evidence', runId: result.id, evidence: parts.evidence() }),
  };
}

/** Each message of `delivery` passed through `pass` (the boundary's redaction), `later` when it is built. */
export function passedThrough(
  delivery: PanelDelivery,
  pass: (message: HostMessage) => HostMessage,
): PanelDelivery {
  const { later } = delivery;
  return { first: pass(delivery.first), ...(later ? { later: async () => pass(await later()) } : {}) };
}

/**
 * Posts `first`, then builds and posts `later`. `post` resolves once the webview has the message
 * (VS Code's postMessage does), so the rest is computed while the webview draws, not before its
 * message has left.
 */
export async function deliver(
  delivery: PanelDelivery,
  post: (message: HostMessage) => PromiseLike<unknown>,
): Promise<void> {
  const { later } = delivery;
  await post(delivery.first);
  if (!later) return;
  // A turn of the event loop first: what else waits on this thread goes before.
  await new Promise((resolve) => setImmediate(resolve));
  await post(await later());
}

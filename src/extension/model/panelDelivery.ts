/**
 * What a panel is sent, in order: the message its first frame draws, then what is computed after it
 * (a run's evidence: its Differences and crossovers). The first paint waits only for the first; the
 * rest is computed once the webview has painted it (the host's CPU is then not taken from the
 * webview's first frame on a small machine), and drawn there after that frame.
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
 * A webview that never reports its paint (hidden while its result arrived: it draws nothing until it
 * is shown) gets the rest of its view this long after the first message anyway.
 */
export const LATER_AT_THE_LATEST_MS = 1_000;

/**
 * Posts `first`, then, once `painted` settles (the webview's first-paint report) or
 * LATER_AT_THE_LATEST_MS have passed, builds and posts `later`. `post` resolves once the webview has
 * the message (VS Code's postMessage does).
 */
export async function deliver(
  delivery: PanelDelivery,
  post: (message: HostMessage) => PromiseLike<unknown>,
  painted: PromiseLike<unknown> = Promise.resolve(),
): Promise<void> {
  const { later } = delivery;
  await post(delivery.first);
  if (!later) return;
  let timer: ReturnType<typeof setTimeout> | undefined;
  await Promise.race([
    painted,
    new Promise((resolve) => (timer = setTimeout(resolve, LATER_AT_THE_LATEST_MS))),
  ]).finally(() => clearTimeout(timer));
  await post(await later());
}

/**
 * A run's Differences arrive after the rest of its view (src/extension/model/panelDelivery.ts): they
 * join the view shown only when they are that run's (a newer run may be shown by then). No DOM here,
 * so the rule is tested without a browser.
 */
import type { HostMessage } from '../src/shared/messages';
import type { RunViewModel } from '../src/shared/viewModel';

/** `current` with the Differences of `message`; undefined when they belong to another run (or none is shown). */
export function withDifferences(
  current: RunViewModel | undefined,
  message: Extract<HostMessage, { type: 'differences' }>,
): RunViewModel | undefined {
  return current && current.runId === message.runId
    ? { ...current, differences: message.differences }
    : undefined;
}

/**
 * A run's evidence (Differences, crossovers) arrives after the rest of its view
 * (src/extension/model/panelDelivery.ts): it joins the view shown only when it is that run's (a newer
 * run may be shown by then). No DOM here, so the rule is tested without a browser.
 */
import type { HostMessage } from '../src/shared/messages';
import { withEvidence, type RunViewModel } from '../src/shared/viewModel';

/** `current` with the evidence of `message`; undefined when it belongs to another run (or none is shown). */
export function withRunEvidence(
  current: RunViewModel | undefined,
  message: Extract<HostMessage, { type: 'evidence' }>,
): RunViewModel | undefined {
  return current && current.runId === message.runId ? withEvidence(current, message.evidence) : undefined;
}

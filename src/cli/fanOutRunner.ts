/**
 * A runner as a fan-out place. On Cancel it first asks the runner to cancel the run
 * (POST /v1/runs/{id}/cancel), so the runner ends its stream with the partial result (a load level's
 * figures so far, which no sample event carries), and hangs up only if that has not arrived within
 * CANCEL_GRACE_MS; then the partial result is what the samples that arrived amount to.
 */
import type { FanOutPart } from '../core/fanOut/mergeFanOut';
import type { FanOutPlace } from '../places/fanOut';
import { failureOf, resultOf } from '../places/outcome';
import { runRemote } from '../places/runnerClient';
import type { ProbeEvent } from '../shared/events';
import type { Redactor } from '../shared/redact';

/** From Ctrl-C to hanging up on a runner that has not sent its partial result. */
export const CANCEL_GRACE_MS = 1_500;
/** Progress comes every 500 ms during a level: this much silence beyond the timeouts means trouble. */
const SILENCE_GRACE_MS = 15_000;

/** `redactor`: the caller's secrets, masked in everything the runner sends (see runRemote). */
export function runnerFanOutPlace(
  url: string,
  token: string,
  cancelGraceMs = CANCEL_GRACE_MS,
  redactor?: Redactor,
): FanOutPlace {
  const base = url.replace(/\/+$/, '');
  return {
    label: url,
    async run(plan, signal, onEvent): Promise<FanOutPart> {
      const hangUp = new AbortController();
      let runId: string | undefined;
      let timer: NodeJS.Timeout | undefined;
      const onCancel = () => {
        timer = setTimeout(() => hangUp.abort(), cancelGraceMs);
        if (!runId) return hangUp.abort();
        fetch(`${base}/v1/runs/${encodeURIComponent(runId)}/cancel`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}` },
          signal: AbortSignal.timeout(cancelGraceMs),
        }).then(
          (response) => {
            // This instance does not run it (a platform with several instances): hang up at once.
            if (!response.ok) hangUp.abort();
          },
          () => hangUp.abort(),
        );
      };
      if (signal.aborted) onCancel();
      else signal.addEventListener('abort', onCancel, { once: true });
      try {
        // runRemote never rejects: a failure comes back as data beside what arrived.
        const outcome = await runRemote({
          url,
          token,
          request: { plan },
          signal: hangUp.signal,
          silenceMs: plan.timeouts.connectMs + plan.timeouts.queryMs + SILENCE_GRACE_MS,
          ...(redactor ? { redactor } : {}),
          onEvent: (event: ProbeEvent) => {
            if (event.type === 'start') runId = event.runId;
            onEvent?.(event);
          },
        });
        const result = resultOf(outcome);
        const failure = failureOf(outcome);
        return {
          label: url,
          ...(result ? { result } : {}),
          ...(failure && !signal.aborted ? { failure: failure.message } : {}),
        };
      } finally {
        clearTimeout(timer);
        signal.removeEventListener('abort', onCancel);
      }
    },
  };
}

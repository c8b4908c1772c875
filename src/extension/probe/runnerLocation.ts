/**
 * A remote runner as a place to probe from: sends the plan (and, only with the user's consent, the
 * connection strings of some targets), relays the streamed events, and returns the result. A runner
 * killed or cut off mid-run leaves the partial result rebuilt from the samples that arrived, with an
 * error naming the runner. A runner that goes silent is given up on after a bound, not waited for.
 */
import type { ProbeLocation } from './locations';

/** Beyond one connect and one query timeout, how long a healthy runner may stay silent. */
const SILENCE_GRACE_MS = 15_000;

export interface RunnerPlace {
  name: string;
  url: string;
  token: string;
  /** The runner's region from its health report: what its results are labelled with. */
  region: string;
  label: string;
  /** Connection strings by target name, sent only after the user agreed for this run. */
  connections?: Record<string, string>;
}

export function runnerLocation(place: RunnerPlace, silenceGraceMs = SILENCE_GRACE_MS): ProbeLocation {
  // The client adds "; showing what arrived" for its own callers; here the panel says that itself.
  const named = (message: string) =>
    `runner "${place.name}" (${place.region}): ${message.replace(/; showing what arrived$/, '')}`;
  return {
    id: `runner:${place.name}`,
    label: place.label,
    description: place.url,
    kind: 'runner',
    runner: place.name,
    async run(request) {
      // The client (and the result builder under it) loads with the first remote probe.
      const { runRemote } = await import('../../runner/client');
      const { connectMs, queryMs } = request.plan.timeouts;
      const silenceMs = connectMs + queryMs + silenceGraceMs;
      const own = new AbortController();
      const stop = () => own.abort();
      if (request.signal.aborted) own.abort();
      request.signal.addEventListener('abort', stop, { once: true });
      let silent = false;
      let timer: NodeJS.Timeout | undefined;
      const watch = () => {
        clearTimeout(timer);
        timer = setTimeout(() => {
          silent = true;
          own.abort();
        }, silenceMs);
      };
      const silence = named(
        `sent nothing for ${(silenceMs / 1000).toFixed(silenceMs < 10_000 ? 1 : 0)} s, so the run was given up on; the figures hold what arrived before. Check that the runner is up and reachable`,
      );
      watch();
      try {
        const outcome = await runRemote({
          url: place.url,
          token: place.token,
          request: { plan: request.plan, ...(place.connections ? { connections: place.connections } : {}) },
          signal: own.signal,
          onEvent: (event) => {
            watch();
            request.onEvent(event);
          },
        });
        if (silent) {
          // A run that completed before the silence has nothing to explain; a stopped one says why.
          const result = outcome.result;
          return {
            result: result.state === 'completed' ? result : { ...result, stopReason: silence },
            error: silence,
          };
        }
        // Cancelled by the user: the result says so itself; that is no failure of the runner.
        if (!outcome.error || request.signal.aborted) return { result: outcome.result };
        return { result: outcome.result, error: named(outcome.error.message) };
      } catch (error) {
        if (silent) return { error: silence };
        if (request.signal.aborted) return { error: named('cancelled before the runner answered') };
        return { error: named(error instanceof Error ? error.message : String(error)) };
      } finally {
        clearTimeout(timer);
        request.signal.removeEventListener('abort', stop);
      }
    },
  };
}

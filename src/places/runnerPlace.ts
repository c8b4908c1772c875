/**
 * A remote runner as a place: sends the plan (and, only when the caller passes them, the connection
 * strings of some targets), relays the streamed events and answers with the result. Every failure
 * comes back as data with the partial result of what arrived; a runner that goes silent is given up
 * on by the one rule in silence.ts. A run cancelled by the caller is no failure of the runner: its
 * partial result says "cancelled" itself, as a local run's does.
 */
import type { Place } from './place';
import { silenceLimitMs } from './silence';

export interface RunnerPlaceOptions {
  url: string;
  token: string;
  /** How results from here are labelled: the runner's region, or its URL. */
  label: string;
  /** The runner's configured name, when it has one (the extension's runners do). */
  name?: string;
  /** Put before every failure message when the URL alone does not say which runner it was. */
  title?: string;
  /** Connection strings by target name, sent only after the user agreed for this run. */
  connections?: Record<string, string>;
  /** The silence rule's grace period; tests shorten it. */
  silenceGraceMs?: number;
}

export function runnerPlace(options: RunnerPlaceOptions): Place {
  const { url, token, label, name, title, connections, silenceGraceMs } = options;
  return {
    id: `runner:${name ?? url}`,
    label,
    description: url,
    kind: 'runner',
    ...(name ? { runner: name } : {}),
    async run(run) {
      // The client (and the result builder under it) loads with the first remote run.
      const { runRemote } = await import('./runnerClient');
      const outcome = await runRemote({
        url,
        token,
        request: { plan: run.plan, ...(connections ? { connections } : {}) },
        signal: run.signal,
        silenceMs: silenceLimitMs(run.plan.timeouts, silenceGraceMs),
        redactor: run.redactor,
        ...(run.onEvent ? { onEvent: run.onEvent } : {}),
      });
      if (outcome.ok) return outcome;
      if (outcome.failure.class === 'cancelled' && outcome.partial)
        return { ok: true, result: outcome.partial };
      if (!title) return outcome;
      return { ...outcome, failure: { ...outcome.failure, message: `${title}: ${outcome.failure.message}` } };
    },
  };
}

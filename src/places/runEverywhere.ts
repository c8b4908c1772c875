/**
 * Runs plans in several places at once under one signal (one Cancel stops all), and answers with one
 * outcome per place, in order. Never rejects: a place that throws becomes an `internal` failure, so
 * one broken place never hides what the others measured.
 */
import type { ConnectionResolver } from '../core/slot';
import type { ProbeEvent } from '../shared/events';
import type { PlanSpec } from '../shared/plan';
import type { Redactor } from '../shared/redact';
import type { PlaceOutcome } from './outcome';
import type { Place } from './place';

export interface PlannedRun {
  place: Place;
  /** This place's plan: a runner may get only its share of the targets. */
  plan: PlanSpec;
}

export interface EverywhereOptions {
  resolveConnection: ConnectionResolver;
  redactor: Redactor;
  signal: AbortSignal;
  /** Events from place number `index`; without it no place builds per-sample events. */
  onEvent?: (index: number, event: ProbeEvent) => void;
  /** Called as each place finishes, before the others may have. */
  onSettled?: (index: number, outcome: PlaceOutcome) => void;
}

export async function runEverywhere(
  runs: readonly PlannedRun[],
  options: EverywhereOptions,
): Promise<PlaceOutcome[]> {
  const { resolveConnection, redactor, signal, onEvent, onSettled } = options;
  return Promise.all(
    runs.map(async ({ place, plan }, index): Promise<PlaceOutcome> => {
      let outcome: PlaceOutcome;
      try {
        outcome = await place.run({
          plan,
          resolveConnection,
          redactor,
          signal,
          ...(onEvent ? { onEvent: (event: ProbeEvent) => onEvent(index, event) } : {}),
        });
      } catch (error) {
        outcome = {
          ok: false,
          failure: {
            class: 'internal',
            message: error instanceof Error ? error.message : String(error),
            cause: error,
          },
        };
      }
      onSettled?.(index, outcome);
      return outcome;
    }),
  );
}

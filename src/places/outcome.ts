/**
 * What a place answers after a run, as data: a result, or a failure with its class, its message and
 * the partial result rebuilt from what arrived. Callers branch on `class` and show `message`; nothing
 * is ever parsed back out of a message.
 */
import type { RunResult } from '../shared/result';

export type PlaceFailureClass =
  /** The place could not be reached at all: DNS, connection refused, TLS. */
  | 'unreachable'
  /** It answered with an error before running: a wrong token, a limit, a plan it refuses. */
  | 'refused'
  /** It started the run and then reported that the run failed. */
  | 'failed'
  /** The stream broke or ended before the run finished: the runner was killed, the network cut. */
  | 'cut'
  /** Nothing arrived for longer than the silence rule allows (see silence.ts). */
  | 'silent'
  /** The caller cancelled before the place answered with anything. */
  | 'cancelled'
  /** Anything else that was thrown while running: a bug, or an engine error. */
  | 'internal';

export interface PlaceFailure {
  class: PlaceFailureClass;
  /** Says what happened and what to do; names the place; not yet redacted for display. */
  message: string;
  /** The HTTP status the runner answered with, for `refused`. */
  status?: number;
  /** The runner's error code (RunnerErrorCode), for `refused` and `failed`. */
  code?: string;
  /** What was thrown, for `internal`: for the log, never for the user's eyes. */
  cause?: unknown;
}

export type PlaceOutcome =
  /** Completed, cancelled by the user or stopped at its time limit: the result's state says which. */
  | { ok: true; result: RunResult }
  /** The place itself failed; `partial` holds what arrived before, when anything did. */
  | { ok: false; failure: PlaceFailure; partial?: RunResult };

/** The result to show and save: the full one, or the partial one of a failed place. */
export function resultOf(outcome: PlaceOutcome): RunResult | undefined {
  return outcome.ok ? outcome.result : outcome.partial;
}

export function failureOf(outcome: PlaceOutcome): PlaceFailure | undefined {
  return outcome.ok ? undefined : outcome.failure;
}

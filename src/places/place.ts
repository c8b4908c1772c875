/**
 * A place to run a plan: this machine (the engine in-process: localPlace.ts) or a remote runner (the
 * same engine, its events streamed over HTTP: runnerPlace.ts). The CLI and the extension both run
 * places through runEverywhere.ts; neither knows how a place does its work.
 */
import type { ConnectionResolver } from '../core/slot';
import type { ProbeEventListener } from '../shared/events';
import type { PlanSpec } from '../shared/plan';
import type { Redactor } from '../shared/redact';
import type { PlaceOutcome } from './outcome';

/** One run of one plan in one place. */
export interface PlaceRun {
  plan: PlanSpec;
  /** Turns a target's connection reference into a connection string (only this machine uses it). */
  resolveConnection: ConnectionResolver;
  /** Learns the run's secrets, for the results at the storage boundary. */
  redactor: Redactor;
  signal: AbortSignal;
  /** Without a listener the engine skips building per-sample events. */
  onEvent?: ProbeEventListener;
}

export interface Place {
  /** Stable across runs: "local", or "runner:" and the runner's name (or URL). */
  id: string;
  /** How results from here are labelled: "this machine", or the runner's region. */
  label: string;
  description: string;
  kind: 'local' | 'runner';
  /** The runner's configured name, for runner places that have one. */
  runner?: string;
  /** Never rejects for a failure of the place itself: that is a failed outcome, as data. */
  run(run: PlaceRun): Promise<PlaceOutcome>;
}

/**
 * A remote runner as a place: sends the plan (and, only when the caller passes them, the connection
 * strings of some targets), relays the streamed events and answers with the result. Every failure
 * comes back as data with the partial result of what arrived; a runner that goes silent is given up
 * on by the one rule in silence.ts. A run cancelled by the caller is no failure of the runner: its
 * partial result says "cancelled" itself, as a local run's does.
 *
 * Every remote run (the CLI's --runner and --fan-out, the editor's runners) is cancelled here, one
 * way: the runner is asked to stop the run (its cancel route), so it ends its stream with the
 * partial result, which holds a load level's figures that no event carries; only if that has not
 * arrived within the cancel grace (cancelGrace.ts), or the runner did not take the cancel, is it hung
 * up on, and the partial result is then what the events that arrived amount to.
 */
import { TimeoutSignal } from '../core/timeoutSignal';
import { CANCEL_GRACE_MS } from './cancelGrace';
import type { RawRequest } from '../shared/loadResult';
import type { PlaceOutcome } from './outcome';
import type { Place } from './place';
import type { cancelRemoteRun } from './runnerClient';
import { silenceLimitMs } from './silence';

export interface RunnerPlaceOptions {
  url: string;
  token: string;
  /** How results from here are labelled: the runner's region, or its URL. */
  label: string;
  /**
   * How messages name the runner's URL: the URL itself unless it holds a secret of the run
   * (Redactor.nameOf); default the URL.
   */
  urlName?: string;
  /** The runner's configured name, when it has one (the extension's runners do). */
  name?: string;
  /** Put before every failure message when the URL alone does not say which runner it was. */
  title?: string;
  /** Connection strings by target name, sent only after the user agreed for this run. */
  connections?: Record<string, string>;
  /** The silence rule's grace period; tests shorten it. */
  silenceGraceMs?: number;
  /** From a cancel to hanging up on a runner that has not sent its partial result; tests change it. */
  cancelGraceMs?: number;
  /** Every load and schedule request the runner measured, as it streams them (the CLI's `--raw`). */
  onRequest?: (request: RawRequest) => void;
}

export function runnerPlace(options: RunnerPlaceOptions): Place {
  const { url, token, label, name, title, connections, silenceGraceMs } = options;
  return {
    id: `runner:${name ?? url}`,
    label,
    description: url,
    kind: 'runner',
    runner: name,
    async run(run) {
      // The client (and the result builder under it) loads with the first remote run.
      const client = await import('./runnerClient');
      const cancel = new RemoteCancel(
        url,
        token,
        options.cancelGraceMs ?? CANCEL_GRACE_MS,
        client.cancelRemoteRun,
      );
      if (run.signal.aborted) cancel.start();
      else run.signal.addEventListener('abort', cancel.start, { once: true });
      let outcome: PlaceOutcome;
      try {
        outcome = await client.runRemote({
          url,
          label: options.urlName ?? url,
          token,
          request: {
            plan: run.plan,
            connections,
            ...(options.onRequest ? { requests: true } : {}),
          },
          onRequest: options.onRequest,
          signal: cancel.hangUp,
          silenceMs: silenceLimitMs(run.plan.timeouts, silenceGraceMs),
          redactor: run.redactor,
          onEvent: (event) => {
            if (event.type === 'start') cancel.runId = event.runId;
            run.onEvent?.(event);
          },
        });
      } finally {
        cancel.stop();
        run.signal.removeEventListener('abort', cancel.start);
      }
      if (outcome.ok) return outcome;
      if (outcome.failure.class === 'cancelled' && outcome.partial)
        return { ok: true, result: outcome.partial };
      if (!title) return outcome;
      return { ...outcome, failure: { ...outcome.failure, message: `${title}: ${outcome.failure.message}` } };
    },
  };
}

/** One remote run's cancel: ask the runner, wait its grace, then hang up. */
class RemoteCancel {
  /** The run's id on the runner, from its `start` event; before that a cancel can only hang up. */
  runId: string | undefined;
  private readonly hangUpController = new AbortController();
  /** Ends the cancel request itself once the run is over. */
  private readonly request = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;

  constructor(
    private readonly url: string,
    private readonly token: string,
    private readonly graceMs: number,
    private readonly send: typeof cancelRemoteRun,
  ) {}

  /** Aborted to hang up: the client then keeps what arrived. */
  get hangUp(): AbortSignal {
    return this.hangUpController.signal;
  }

  readonly start = (): void => {
    const runId = this.runId;
    if (runId === undefined) return this.hangUpController.abort();
    this.timer = setTimeout(() => this.hangUpController.abort(), this.graceMs);
    // Its own timer (core/timeoutSignal.ts): a timeout signal under AbortSignal.any is lost to GC.
    const bounded = new TimeoutSignal(this.graceMs, this.request.signal);
    void this.send(this.url, this.token, runId, bounded.signal).then((taken) => {
      bounded.dispose();
      if (!taken) this.hangUpController.abort();
    });
  };

  stop(): void {
    clearTimeout(this.timer);
    this.request.abort();
  }
}

/**
 * The one rule for a place that goes silent (a hung runner, a dead network path): give up once
 * nothing has arrived for one connect timeout plus one query timeout plus a grace period, keeping
 * what arrived. A healthy runner sends a sample at least that often, since every sample is bounded
 * by those two timeouts. The CLI and the extension both get it through runnerPlace.ts.
 */
import type { PlanSpec } from '../shared/plan';

/** Beyond one connect and one query timeout, how long a healthy runner may stay silent. */
export const SILENCE_GRACE_MS = 15_000;

export function silenceLimitMs(
  timeouts: Pick<PlanSpec['timeouts'], 'connectMs' | 'queryMs'>,
  graceMs = SILENCE_GRACE_MS,
): number {
  return timeouts.connectMs + timeouts.queryMs + graceMs;
}

/** "15.1 s", "25 s": to a tenth below ten seconds, whole seconds above. */
export function formatSilence(ms: number): string {
  return `${(ms / 1000).toFixed(ms < 10_000 ? 1 : 0)} s`;
}

/** A timer that aborts its signal after `ms` without news; each `heard()` starts the wait again. */
export class SilenceWatch {
  private readonly controller = new AbortController();
  private readonly timer: ReturnType<typeof setTimeout>;

  constructor(readonly ms: number) {
    this.timer = setTimeout(() => this.controller.abort(), ms);
  }

  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get fired(): boolean {
    return this.controller.signal.aborted;
  }

  heard(): void {
    if (!this.fired) this.timer.refresh();
  }

  stop(): void {
    clearTimeout(this.timer);
  }
}

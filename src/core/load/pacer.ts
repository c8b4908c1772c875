/**
 * Fixed-rate start times: start i is due at t0 + i / rate, whether or not earlier work finished (an
 * open schedule). Timer-driven, so the event loop runs between starts; it wakes about a millisecond
 * early and finishes the wait with setImmediate, which keeps start lateness well under a millisecond
 * without a busy loop.
 */
import type { Clock } from '../clock';
import type { CancelScope } from '../deadline';

export interface PacerOptions {
  clock: Clock;
  /** Starts per second. */
  rate: number;
  durationS: number;
  scope: CancelScope;
  /** Called at (or just after) each start's intended time; must not block. */
  onStart(index: number, intendedNs: bigint): void;
}

/** Hard cap on starts in one schedule, whatever rate x duration asks. */
export const MAX_STARTS = 10_000_000;
const EARLY_WAKE_NS = 1_000_000;

/** The number of starts a schedule asks for. */
export function askedStarts(rate: number, durationS: number): number {
  return Math.min(MAX_STARTS, Math.max(0, Math.floor(rate * durationS + 1e-9)));
}

/** Runs the schedule; resolves with the number of starts made (fewer than asked when cancelled). */
export function runPacer(options: PacerOptions): Promise<number> {
  const { clock, rate, scope, onStart } = options;
  const total = askedStarts(rate, options.durationS);
  const periodNs = 1e9 / rate;
  const t0 = clock.nowNs();
  const due = (index: number) => t0 + BigInt(Math.round(index * periodNs));
  let next = 0;
  return new Promise((resolve) => {
    let timer: NodeJS.Timeout | undefined;
    let immediate: NodeJS.Immediate | undefined;
    let finished = false;
    const finish = () => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      if (immediate) clearImmediate(immediate);
      scope.unsubscribe(slot, finish);
      resolve(next);
    };
    const tick = () => {
      timer = undefined;
      immediate = undefined;
      if (scope.cancelled) return finish();
      const now = clock.nowNs();
      while (next < total && due(next) <= now) {
        onStart(next, due(next));
        next += 1;
      }
      if (next >= total) return finish();
      const waitNs = Number(due(next) - clock.nowNs());
      if (waitNs > EARLY_WAKE_NS + 500_000)
        timer = setTimeout(tick, Math.floor((waitNs - EARLY_WAKE_NS) / 1e6));
      else immediate = setImmediate(tick);
    };
    const slot = scope.subscribe(finish);
    tick();
  });
}

/** A pause that ends early when the run is cancelled. */
export function pause(ms: number, scope: CancelScope): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      scope.unsubscribe(slot, done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    const slot = scope.subscribe(done);
    if (scope.cancelled) done();
  });
}

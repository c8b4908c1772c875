/**
 * Fixed-rate start times: start i is due at t0 + i / rate, whether or not earlier work finished (an
 * open schedule). Timer-driven, so the event loop runs between starts; it wakes about a millisecond
 * early and finishes the wait with setImmediate, which keeps start lateness well under a millisecond
 * without a busy loop.
 * A schedule spread over several places runs one timetable dealt out (shares.ts).
 */
import type { Clock } from '../clock';
import type { CancelScope } from '../deadline';
import { dealtStarts, type PlaceShare } from './shares';

export interface PacerOptions {
  clock: Clock;
  /** Starts per second of the whole schedule. */
  rate: number;
  durationS: number;
  scope: CancelScope;
  /** This place's part of the schedule, when it is spread over several; all of it otherwise. */
  share?: PlaceShare;
  /** When the timetable starts: the level's clock start (now by default). */
  startNs?: bigint;
  /** Called at (or just after) each of this place's starts' intended time; must not block. */
  onStart(index: number, intendedNs: bigint): void;
}

/** How a schedule ended: the starts it made, and whether a cancel cut it before its last one. */
export interface PacerEnd {
  /** This place's starts issued to `onStart` (its share of those due before a cut). */
  made: number;
  /** Set when the run was cancelled before the schedule's last start: when that was noticed. */
  cutAtNs?: bigint;
}

/** Hard cap on starts in one schedule, whatever rate x duration asks. */
export const MAX_STARTS = 10_000_000;
const EARLY_WAKE_NS = 1_000_000;

/** The number of starts a schedule asks for: the whole schedule's, or one share's of it. */
export function askedStarts(rate: number, durationS: number, share?: PlaceShare): number {
  const total = Math.min(MAX_STARTS, Math.max(0, Math.floor(rate * durationS + 1e-9)));
  return share ? dealtStarts(total, share) : total;
}

/**
 * A share's rate, for its figures: the whole rate times the share's part of the asked starts (so the
 * shares' rates add up to the whole one), or an even part when the schedule asks for none.
 */
export function shareRate(rate: number, durationS: number, share: PlaceShare | undefined): number {
  if (!share) return rate;
  const total = askedStarts(rate, durationS);
  const part = total > 0 ? dealtStarts(total, share) / total : 1 / share.of;
  return Math.round(rate * part * 1000) / 1000;
}

/** Runs the schedule; resolves with the starts made (fewer than asked when cancelled). */
export function runPacer(options: PacerOptions): Promise<PacerEnd> {
  const { clock, rate, scope, onStart } = options;
  const share = options.share ?? { index: 0, of: 1 };
  const total = askedStarts(rate, options.durationS, share);
  const periodNs = 1e9 / rate;
  const t0 = options.startNs ?? clock.nowNs();
  // The k-th start of this share is start index + k x of of the whole timetable.
  const due = (k: number) => t0 + BigInt(Math.round((share.index + k * share.of) * periodNs));
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
      resolve(next < total ? { made: next, cutAtNs: clock.nowNs() } : { made: next });
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

/**
 * When each level of a fanned-out run starts (see FanOutSpec): every place computes the same wall-clock
 * times from the same plan, so levels start together without the places talking to each other. A
 * place whose clock is off by some milliseconds starts off by as much: the fan-out's note says so.
 */
import { LOAD_DEFAULTS, SCHEDULE_DEFAULTS, type FanOutSpec } from '../../shared/loadPlan';
import type { PlanSpec, ProbeKind } from '../../shared/plan';
import type { CancelScope } from '../deadline';

/** Level `levelIndex` of target `targetIndex` in `kind`: ms since 1970 when it starts everywhere. */
export function commonStartMs(
  plan: PlanSpec,
  fanOut: FanOutSpec,
  kind: ProbeKind,
  targetIndex: number,
  levelIndex: number,
): number {
  let at = fanOut.startAtMs;
  for (const k of plan.kinds) {
    const { levels, durationS } = levelsOf(plan, k);
    for (let t = 0; t < plan.targets.length; t++) {
      for (let l = 0; l < levels; l++) {
        if (k === kind && t === targetIndex && l === levelIndex) return at;
        at += durationS * 1000 + fanOut.levelGapMs;
      }
    }
  }
  return at;
}

/** Every level's duration plus its gap, from the first common start to the last level's end. */
export function fanOutSpanMs(plan: PlanSpec, levelGapMs: number): number {
  let span = 0;
  for (const k of plan.kinds) {
    const { levels, durationS } = levelsOf(plan, k);
    span += plan.targets.length * levels * (durationS * 1000 + levelGapMs);
  }
  return span;
}

function levelsOf(plan: PlanSpec, kind: ProbeKind): { levels: number; durationS: number } {
  if (kind === 'load') {
    const load = plan.load ?? LOAD_DEFAULTS;
    return { levels: load.levels.length, durationS: load.durationS };
  }
  if (kind === 'schedule') return { levels: 1, durationS: (plan.schedule ?? SCHEDULE_DEFAULTS).durationS };
  return { levels: 0, durationS: 0 };
}

/** Longest single wait: a start time further off than this is a mistake, not a plan. */
const MAX_WAIT_MS = 3_600_000;

/**
 * Waits until the wall clock reads `atMs` (a schedule time, not a latency: Date.now is right here),
 * ending early on cancel. Answers how late the wait ended, in ms (0 when on time).
 */
export function waitForWallClock(
  atMs: number,
  scope: CancelScope,
  wallNowMs: () => number = Date.now,
): Promise<number> {
  return new Promise((resolve) => {
    const finish = () => {
      clearTimeout(timer);
      scope.unsubscribe(slot, finish);
      resolve(Math.max(0, wallNowMs() - atMs));
    };
    const waitMs = Math.min(MAX_WAIT_MS, atMs - wallNowMs());
    const timer = setTimeout(finish, Math.max(0, waitMs));
    const slot = scope.subscribe(finish);
    if (scope.cancelled || waitMs <= 0) finish();
  });
}

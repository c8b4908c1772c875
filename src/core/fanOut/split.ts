/**
 * How a load run is shared among places: every place gets the whole run's plan with its position
 * (`fanOut.dealt`), and takes its part itself (core/load/shares.ts): the closed model's connections
 * and the open model's driver connections as whole numbers, the remainder to the first places (a
 * place whose share of a small level is 0 sits that level out), and every fixed-rate timetable
 * (open-model arrivals, the request schedule's requests) dealt round-robin, so the places' starts add
 * up to exactly the asked schedule. Every place gets the same timetable.
 */
import { LOAD_DEFAULTS, SCHEDULE_DEFAULTS, type FanOutSpec } from '../../shared/loadPlan';
import type { FanOutFigures } from '../../shared/loadResult';
import type { PlanSpec } from '../../shared/plan';
import { shareRate } from '../load/pacer';
import { wholeShare, type PlaceShare } from '../load/shares';
import { fanOutSpanMs } from '../load/timetable';

export { splitWhole } from '../load/shares';

/** What every place waits for before the first level: time to receive the plan, load drivers, set up. */
export const DEFAULT_LEAD_MS = 3_000;
/** Between levels: the line drains and the next level's connections open before its common start. */
export const DEFAULT_LEVEL_GAP_MS = 2_000;

export interface FanOutTiming {
  /** Wall-clock ms of the first level's common start. */
  startAtMs: number;
  levelGapMs: number;
  /** How far ahead of now `startAtMs` is. */
  leadMs: number;
}

export interface FanOutShares {
  /** One plan per place, in order. */
  plans: PlanSpec[];
  split: FanOutFigures['split'];
  note: string;
  /** shares[place][level]: connections or arrivals/s (load), requests/s (schedule, one entry). */
  shares: number[][];
}

/** The duration kinds only: anything else in the plan cannot be split (say so before running). */
export function unsplittableKinds(plan: PlanSpec): string[] {
  return plan.kinds.filter((k) => k !== 'load' && k !== 'schedule');
}

export function shareLoad(plan: PlanSpec, places: number, timing: FanOutTiming): FanOutShares {
  const load = plan.kinds.includes('load') ? (plan.load ?? LOAD_DEFAULTS) : undefined;
  const schedule = plan.kinds.includes('schedule') ? (plan.schedule ?? SCHEDULE_DEFAULTS) : undefined;
  const closed = load?.model === 'closed';
  // The run lasts as long as its timetable: a limit shorter than that would cut the last levels.
  const neededMs = timing.leadMs + fanOutSpanMs(plan, timing.levelGapMs) + 60_000;
  const plans = Array.from({ length: places }, (_, place): PlanSpec => {
    const fanOut: FanOutSpec = {
      startAtMs: timing.startAtMs,
      levelGapMs: timing.levelGapMs,
      place,
      places,
      dealt: true,
    };
    return {
      ...plan,
      timeouts: { ...plan.timeouts, runMs: Math.max(plan.timeouts.runMs, Math.ceil(neededMs)) },
      fanOut,
    };
  });
  // What each place's part comes to, as its figures will say it (core/kinds/loadKind.ts, scheduleKind.ts).
  const shares = Array.from({ length: places }, (_, index) => {
    const share: PlaceShare = { index, of: places };
    return [
      ...(load?.levels ?? []).map((l) =>
        closed ? wholeShare(l, share) : shareRate(l, load?.durationS ?? 0, share),
      ),
      ...(schedule ? [shareRate(schedule.rate, schedule.durationS, share)] : []),
    ];
  });
  const split = closed ? 'connections' : 'rate';
  const dealt = 'dealt in turn from one timetable (each place issues every';
  const what = closed
    ? 'connections split as whole numbers (the remainder to the first places; a place with 0 sits the level out)'
    : `${load ? 'arrivals' : 'requests'} ${dealt} ${ordinal(places)} start at its own time, so together they issue exactly the asked schedule)${load ? `, and the open model's ${load.connections} driver connections as whole numbers (at least 1 each)` : ''}`;
  const both =
    load && schedule && closed ? `; the request schedule's requests ${dealt} ${ordinal(places)} start)` : '';
  return {
    plans,
    split,
    note: `${what} over ${places} places${both}; every level starts at a common wall-clock time (places whose clocks disagree start apart by as much), ${timing.levelGapMs} ms between levels`,
    shares,
  };
}

function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

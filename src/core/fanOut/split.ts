/**
 * How a load run is shared among places: the open model's arrivals per second and the request
 * schedule's requests per second are split evenly (fractions are fine: a pacer runs any rate); the
 * closed model's connections are split as whole numbers, the remainder going to the first places (a
 * place whose share of a small level is 0 sits that level out). Every place gets the same timetable.
 */
import { LOAD_DEFAULTS, SCHEDULE_DEFAULTS, type FanOutSpec } from '../../shared/loadPlan';
import type { FanOutFigures } from '../../shared/loadResult';
import type { PlanSpec } from '../../shared/plan';
import { fanOutSpanMs } from '../load/timetable';

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

/** Whole-number shares of `total` over `places`, the remainder to the first places. */
export function splitWhole(total: number, places: number): number[] {
  const base = Math.floor(total / places);
  return Array.from({ length: places }, (_, i) => base + (i < total % places ? 1 : 0));
}

export function splitEven(total: number, places: number): number[] {
  return Array.from({ length: places }, () => total / places);
}

/** The duration kinds only: anything else in the plan cannot be split (say so before running). */
export function unsplittableKinds(plan: PlanSpec): string[] {
  return plan.kinds.filter((k) => k !== 'load' && k !== 'schedule');
}

export function shareLoad(plan: PlanSpec, places: number, timing: FanOutTiming): FanOutShares {
  const load = plan.kinds.includes('load') ? (plan.load ?? LOAD_DEFAULTS) : undefined;
  const schedule = plan.kinds.includes('schedule') ? (plan.schedule ?? SCHEDULE_DEFAULTS) : undefined;
  const closed = load?.model === 'closed';
  const levelShares = load?.levels.map((l) => (closed ? splitWhole(l, places) : splitEven(l, places)));
  const openConnections = load ? splitWhole(load.connections, places).map((c) => Math.max(1, c)) : [];
  const scheduleRates = schedule ? splitEven(schedule.rate, places) : [];
  // The run lasts as long as its timetable: a limit shorter than that would cut the last levels.
  const neededMs = timing.leadMs + fanOutSpanMs(plan, timing.levelGapMs) + 60_000;
  const plans = Array.from({ length: places }, (_, place): PlanSpec => {
    const fanOut: FanOutSpec = {
      startAtMs: timing.startAtMs,
      levelGapMs: timing.levelGapMs,
      place,
      places,
    };
    return {
      ...plan,
      timeouts: { ...plan.timeouts, runMs: Math.max(plan.timeouts.runMs, Math.ceil(neededMs)) },
      ...(load && levelShares
        ? {
            load: {
              ...load,
              levels: levelShares.map((s) => s[place] ?? 0),
              connections: openConnections[place] ?? 1,
            },
          }
        : {}),
      ...(schedule ? { schedule: { ...schedule, rate: scheduleRates[place] ?? 0 } } : {}),
      fanOut,
    };
  });
  const shares = Array.from({ length: places }, (_, place) => [
    ...(levelShares ?? []).map((s) => s[place] ?? 0),
    ...(schedule ? [scheduleRates[place] ?? 0] : []),
  ]);
  const split = closed ? 'connections' : 'rate';
  const what = closed
    ? 'connections split as whole numbers (the remainder to the first places; a place with 0 sits the level out)'
    : `${load ? 'arrivals' : 'requests'} per second split evenly${load ? `, and the open model's ${load.connections} driver connections as whole numbers (at least 1 each)` : ''}`;
  const both = load && schedule && closed ? "; the request schedule's requests per second split evenly" : '';
  return {
    plans,
    split,
    note: `${what} over ${places} places${both}; every level starts at a common wall-clock time (places whose clocks disagree start apart by as much), ${timing.levelGapMs} ms between levels`,
    shares,
  };
}

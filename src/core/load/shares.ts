/**
 * One place's part of a run spread over several places (probing threads, runners): a whole number of
 * the closed model's connections, and a deal of every fixed-rate timetable. Place p of n issues
 * starts p, p + n, p + 2n... of the whole schedule at their own times, so the places' starts add up
 * to exactly the schedule asked for. Splitting the rate instead (each place running rate / n from its
 * own start) floored each place's count (3/s over 2 places for 1 s asked 1 + 1, 1/s asked none) and
 * started every place's first request at once.
 */
import type { PlanSpec } from '../../shared/plan';

export interface PlaceShare {
  /** This place's position (0-based) among `of`. */
  index: number;
  of: number;
}

/**
 * This place's share when the plan is one part of a run whose load and schedule figures are the whole
 * run's (`fanOut.dealt`); undefined when the plan's figures are this place's own.
 */
export function placeShare(plan: PlanSpec): PlaceShare | undefined {
  const fanOut = plan.fanOut;
  return fanOut?.dealt ? { index: fanOut.place, of: fanOut.places } : undefined;
}

/** Whole-number shares of `total` over `places`, the remainder to the first places. */
export function splitWhole(total: number, places: number): number[] {
  return Array.from({ length: places }, (_, index) => wholeShare(total, { index, of: places }));
}

/** `share`'s whole-number part of `total`: the remainder goes to the first places. */
export function wholeShare(total: number, share: PlaceShare): number {
  return Math.floor(total / share.of) + (share.index < total % share.of ? 1 : 0);
}

/** How many of `total` starts dealt round-robin fall to `share`. */
export function dealtStarts(total: number, share: PlaceShare): number {
  return total > share.index ? Math.floor((total - 1 - share.index) / share.of) + 1 : 0;
}

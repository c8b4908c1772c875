/**
 * A load run fanned out over several places (runners and this machine): each place gets its share
 * (core/fanOut/split.ts), all start each level at a common wall-clock time, and the results merge into
 * one (core/fanOut/mergeFanOut.ts) with each place's figures beside the merged ones. One Cancel stops
 * every place; each answers with what it measured so far, and those partial results merge too.
 */
import { mergeFanOut, type FanOutPart } from '../core/fanOut/mergeFanOut';
import {
  DEFAULT_LEAD_MS,
  DEFAULT_LEVEL_GAP_MS,
  shareLoad,
  unsplittableKinds,
  type FanOutShares,
} from '../core/fanOut/split';
import type { ConnectionResolver } from '../core/slot';
import type { ProbeEvent } from '../shared/events';
import type { PlanSpec } from '../shared/plan';
import type { Redactor } from '../shared/redact';
import type { RunResult } from '../shared/result';
import { failureOf, resultOf } from './outcome';
import type { Place } from './place';

/** One place as the fan-out sees it: runs a plan, and never rejects (a failure is a part's `failure`). */
export interface FanOutPlace {
  label: string;
  run(plan: PlanSpec, signal: AbortSignal, onEvent?: (event: ProbeEvent) => void): Promise<FanOutPart>;
}

/**
 * A place (a runner: runnerPlace.ts, with its cancel route, grace and silence rule) as one part of a
 * fan-out. A cancelled place's partial result is its share, not a failure.
 */
export function fanOutPlaceOf(
  place: Place,
  context: { redactor: Redactor; resolveConnection: ConnectionResolver },
): FanOutPlace {
  return {
    label: place.label,
    async run(plan, signal, onEvent): Promise<FanOutPart> {
      const outcome = await place.run({ plan, signal, ...context, onEvent });
      const result = resultOf(outcome);
      const failure = failureOf(outcome);
      return {
        label: place.label,
        result,
        ...(failure && !signal.aborted ? { failure: failure.message } : {}),
      };
    },
  };
}

export interface FanOutOptions {
  signal: AbortSignal;
  /** From now to the first level's common start: long enough for every place to receive its plan. */
  leadMs?: number;
  levelGapMs?: number;
  onEvent?: (index: number, event: ProbeEvent) => void;
}

export interface FanOutOutcome {
  /** Undefined when no place answered with anything. */
  merged?: RunResult;
  parts: FanOutPart[];
  shares: FanOutShares;
}

/** Why a plan cannot fan out, in words a user can act on; undefined when it can. */
export function fanOutRefusal(plan: PlanSpec, places: number): string | undefined {
  const other = unsplittableKinds(plan);
  if (other.length > 0)
    return `--fan-out splits only the load and schedule kinds, and this run has ${other.join(', ')}; run those without --fan-out, or pass --kinds load (or schedule)`;
  if (places < 2)
    return '--fan-out needs at least two places: add --runner URL (several allowed) and --here for this machine';
  return undefined;
}

export async function runFanOut(
  plan: PlanSpec,
  places: readonly FanOutPlace[],
  options: FanOutOptions,
): Promise<FanOutOutcome> {
  const leadMs = options.leadMs ?? DEFAULT_LEAD_MS;
  const levelGapMs = options.levelGapMs ?? DEFAULT_LEVEL_GAP_MS;
  // A schedule time shared with other machines: wall clock, not a latency.
  const startAtMs = Date.now() + leadMs;
  const shares = shareLoad(plan, places.length, { startAtMs, levelGapMs, leadMs });
  const parts = await Promise.all(
    places.map(async (place, index): Promise<FanOutPart> => {
      const own = shares.plans[index] ?? plan;
      const onEvent = options.onEvent;
      // A signal of its own per place: 32 places (threads) listening on one would pass Node's
      // listener limit and print its "possible EventTarget memory leak" warning.
      const signal = AbortSignal.any([options.signal]);
      try {
        return await place.run(own, signal, onEvent ? (event) => onEvent(index, event) : undefined);
      } catch (error) {
        return { label: place.label, failure: error instanceof Error ? error.message : String(error) };
      }
    }),
  );
  const merged = mergeFanOut({ plan, split: shares.split, note: shares.note, startAtMs }, parts);
  return { merged, parts, shares };
}

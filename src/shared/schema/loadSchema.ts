/**
 * The settings of the two duration-based kinds and of a fan-out, defined once: their types
 * (loadPlan.ts re-exports them), the config's JSON Schema and the check of what arrives. `schedule`
 * is the serverless-latency blog's method: R simulated requests per second for D seconds, each
 * running K consecutive queries, started on time whether or not the previous one finished. `load` is
 * a closed model (C connections back to back) or an open model (a fixed arrival rate, timed from each
 * query's intended start), over one level or a sweep of levels.
 */
import * as z from 'zod/mini';
import { LOAD_LIMITS, PLAN_LIMITS } from '../limits';
import {
  described,
  numberAbove,
  numberFrom,
  objectLike,
  oneOf,
  short,
  trueOrFalse,
  wholeIn,
} from './fieldRules';

import {
  CLOSED_DEFAULT_LEVELS,
  LATENCY_STATS,
  LOAD_DEFAULT_VALUES as LOAD,
  LOAD_MODELS,
  OPEN_DEFAULT_LEVELS,
  SCHEDULE_CONNECTIONS,
  SCHEDULE_DEFAULT_VALUES as SCHEDULE,
} from './planValues';

/** The levels' shape; their range depends on the model (see loadLevelsProblem). */
const loadLevelsSchema = z
  .array(z.number().check(z.gte(0)))
  .check(z.minLength(1), z.maxLength(LOAD_LIMITS.levels));

const loadObject = z.strictObject(
  {
    model: described(
      z._default(oneOf(LOAD_MODELS), LOAD.model),
      'closed: levels are connections issuing queries back to back; open: levels are arrivals per second, each query timed from its intended start (coordinated omission corrected).',
    ),
    /**
     * Connections (closed model) or arrivals per second (open model), one level after another; the
     * model's default sweep when left out. Their range depends on the model (see loadLevelsProblem).
     */
    levels: described(
      z.optional(loadLevelsSchema),
      'One level after another (a sweep), e.g. [1, 2, 4, 8, 16]. Default: [1, 2, 4, 8, 16] (closed) or [10, 100, 1000] (open).',
    ),
    /** Seconds per level. */
    durationS: described(
      z._default(numberAbove(0, LOAD_LIMITS.durationS), LOAD.durationS),
      'Seconds per level.',
    ),
    /** Open model: driver connections the arrivals share (a start waits when all are busy). */
    connections: described(
      z._default(wholeIn(1, LOAD_LIMITS.connections), LOAD.connections),
      'Open model: driver connections the arrivals share.',
    ),
    /** A level whose error rate is above this (0..1) did not keep up. */
    maxErrorRate: described(
      z._default(numberFrom(0, 1), LOAD.maxErrorRate),
      'A level with a higher error rate did not keep up.',
    ),
    /** A level whose latency (`latencyStat`, corrected in the open model) is above this did not keep up. */
    maxLatencyMs: described(
      z.optional(numberAbove(0, LOAD_LIMITS.maxLatencyMs)),
      'A level whose latencyStat (corrected, in the open model) is higher did not keep up.',
    ),
    latencyStat: z._default(oneOf(LATENCY_STATS), LOAD.latencyStat),
  },
  { error: objectLike('{"model": "closed", "levels": [1, 2, 4, 8]}') },
);

/** The load settings as a plan holds them once checked: the levels filled in. */
export const loadPlanOutputSchema = z.strictObject({ ...loadObject.shape, levels: loadLevelsSchema });

export const loadPlanSchema = z.pipe(
  loadObject,
  z.transform(({ levels, ...rest }) => ({
    ...rest,
    levels: levels ?? (rest.model === 'closed' ? [...CLOSED_DEFAULT_LEVELS] : [...OPEN_DEFAULT_LEVELS]),
  })),
);

/**
 * What is wrong with a load's levels, if anything: their range depends on the model, and a fan-out
 * place's share of a closed level may be 0 connections (`idleLevels`: it sits that level out).
 */
export function loadLevelsProblem(load: unknown, idleLevels: boolean): string | undefined {
  if (typeof load !== 'object' || load === null) return undefined;
  const { model, levels } = load as { model?: unknown; levels?: unknown };
  if (levels === undefined) return undefined;
  const closed = model !== 'open';
  const max = closed ? LOAD_LIMITS.connections : LOAD_LIMITS.rate;
  const fits = (v: unknown) =>
    typeof v === 'number' &&
    Number.isFinite(v) &&
    (v > 0 || (idleLevels && v === 0)) &&
    v <= max &&
    (!closed || Number.isInteger(v));
  if (Array.isArray(levels) && levels.length > 0 && levels.length <= LOAD_LIMITS.levels && levels.every(fits))
    return undefined;
  const what = closed
    ? `connection counts from 1 to ${max}`
    : `arrival rates per second above 0, up to ${max}`;
  return `must be a list of 1 to ${LOAD_LIMITS.levels} ${what} (e.g. [1, 2, 4, 8]); got ${short(levels)}`;
}

export const schedulePlanSchema = z.strictObject(
  {
    /** Simulated requests started per second. */
    rate: described(
      z._default(numberAbove(0, LOAD_LIMITS.rate), SCHEDULE.rate),
      'Requests started per second, on time whether or not earlier ones finished.',
    ),
    /** Consecutive queries per request: query 1 is the initial one, 2..K subsequent. */
    queries: described(
      z._default(wholeIn(1, LOAD_LIMITS.queries), SCHEDULE.queries),
      'Consecutive queries per request: 1 = initial, 2.. = subsequent.',
    ),
    durationS: z._default(numberAbove(0, LOAD_LIMITS.durationS), SCHEDULE.durationS),
    /** `new`: every request opens (and closes) its own connection; `pooled`: requests reuse idle ones. */
    connection: described(
      z._default(oneOf(SCHEDULE_CONNECTIONS), SCHEDULE.connection),
      'new: each request opens its own connection; pooled: requests reuse idle connections.',
    ),
  },
  { error: objectLike('{"rate": 10, "queries": 3, "durationS": 60}') },
);

/**
 * One place's part in a load run fanned out over several places (runners and this machine): every
 * place runs its share of each level, and all start each level together at a common wall-clock time.
 * Level k of the run (counting every target's levels, load then schedule, in run order) starts at
 * `startAtMs + k x (durationS x 1000 + levelGapMs)`; connections open before that time, in the gap.
 * Set by a fan-out, never by a user: not part of dbprobe.json.
 */
export const fanOutSchema = z
  .strictObject({
    /** Wall-clock time (ms since 1970) of the first level's common start: any time a Date can hold. */
    startAtMs: z._default(numberFrom(0, 8.64e15), 0),
    /** Between one level's end and the next level's common start: the line drains, connections open. */
    levelGapMs: z._default(wholeIn(0, PLAN_LIMITS.fanOutLevelGapMs), 0),
    /** This place's position (0-based) among `places`. */
    place: z._default(wholeIn(0, PLAN_LIMITS.fanOutPlaces - 1), 0),
    places: z._default(wholeIn(1, PLAN_LIMITS.fanOutPlaces), 1),
    /**
     * True: the plan's load levels, open-model connections and schedule rate are the whole run's, and
     * this place takes its part (core/load/shares.ts): a whole number of the closed model's connections
     * and of the open model's, and every `places`-th start of each fixed-rate timetable from the
     * `place`-th on, so the places' starts add up to exactly the asked schedule. Absent (a plan from an
     * earlier version): the figures are this place's own share.
     */
    dealt: z.optional(trueOrFalse()),
  })
  .check(
    z.superRefine((fanOut, ctx) => {
      if (fanOut.place < fanOut.places) return;
      ctx.issues.push({
        code: 'custom',
        path: ['place'],
        input: fanOut.place,
        message: `must be a whole number from 0 to ${fanOut.places - 1} (got ${fanOut.place})`,
      });
    }),
  );

/**
 * A fixed rate asks for floor(rate x duration) starts (src/core/load/pacer.ts): under one, the level
 * would run nothing and could only be judged on nothing, so it is refused before anything runs.
 */
export function tooFewArrivals(rate: number, durationS: number, durationPath: string): string | undefined {
  if (rate <= 0 || durationS <= 0 || Math.floor(rate * durationS + 1e-9) >= 1) return undefined;
  const seconds = Math.ceil(1 / rate - 1e-9);
  return `${rate}/s for ${durationS} s asks for ${Number((rate * durationS).toPrecision(3))} starts, fewer than one, so nothing would run; raise the duration (${durationPath}) to at least ${seconds} s or the rate to at least ${Number((1 / durationS).toPrecision(3))}/s`;
}

export type LoadPlanSpec = z.output<typeof loadPlanSchema>;
export type SchedulePlanSpec = z.output<typeof schedulePlanSchema>;
export type FanOutSpec = z.output<typeof fanOutSchema>;

/**
 * Validation of the `load` and `schedule` settings (see src/shared/loadPlan.ts). Every problem names
 * its field and the accepted range; defaults fill what is left out, so a result records what ran.
 */
import {
  LATENCY_STATS,
  LOAD_DEFAULTS,
  LOAD_MODELS,
  SCHEDULE_CONNECTIONS,
  SCHEDULE_DEFAULTS,
  type FanOutSpec,
  type LoadPlanSpec,
  type SchedulePlanSpec,
} from '../../shared/loadPlan';
import { LOAD_LIMITS, PLAN_LIMITS } from '../../shared/limits';
import { numberIn, objectOf, oneOf, short, type PlanIssue } from './fields';

/** Open-model levels when none are given: arrivals per second. */
export const OPEN_DEFAULT_LEVELS = [10, 100, 1_000];

const LOAD_KEYS = [
  'model',
  'levels',
  'durationS',
  'connections',
  'maxErrorRate',
  'maxLatencyMs',
  'latencyStat',
];
const SCHEDULE_KEYS = ['rate', 'queries', 'durationS', 'connection'];

/**
 * `idleLevels`: a fan-out place's share of a closed level may be 0 connections (it sits that level
 * out). `runs`: the load kind is in the run, so levels that would start nothing are refused.
 */
export function validateLoadPlan(
  value: unknown,
  issues: PlanIssue[],
  idleLevels = false,
  runs = true,
): LoadPlanSpec {
  const raw = objectOf(value, 'load', LOAD_KEYS, issues);
  const model = oneOf(raw.model, 'load.model', LOAD_MODELS, LOAD_DEFAULTS.model, issues);
  const levels = validateLevels(raw.levels, model, issues, idleLevels);
  const maxLatencyMs =
    raw.maxLatencyMs === undefined
      ? undefined
      : numberIn(
          raw.maxLatencyMs,
          { path: 'load.maxLatencyMs', min: 0, max: LOAD_LIMITS.maxLatencyMs, fallback: 0 },
          issues,
        );
  const durationS = numberIn(
    raw.durationS,
    { path: 'load.durationS', min: 0, max: LOAD_LIMITS.durationS, fallback: LOAD_DEFAULTS.durationS },
    issues,
  );
  if (model === 'open' && runs)
    for (const rate of levels) tooFewArrivals(rate, durationS, 'load.levels', 'load.durationS', issues);
  return {
    model,
    levels,
    durationS,
    connections: numberIn(
      raw.connections,
      {
        path: 'load.connections',
        min: 1,
        max: LOAD_LIMITS.connections,
        fallback: LOAD_DEFAULTS.connections,
        whole: true,
      },
      issues,
    ),
    maxErrorRate: numberIn(
      raw.maxErrorRate,
      { path: 'load.maxErrorRate', min: 0, max: 1, fallback: LOAD_DEFAULTS.maxErrorRate, minIncluded: true },
      issues,
    ),
    ...(maxLatencyMs !== undefined ? { maxLatencyMs } : {}),
    latencyStat: oneOf(raw.latencyStat, 'load.latencyStat', LATENCY_STATS, LOAD_DEFAULTS.latencyStat, issues),
  };
}

/** `runs`: the schedule kind is in the run, so a schedule that would start nothing is refused. */
export function validateSchedulePlan(value: unknown, issues: PlanIssue[], runs = true): SchedulePlanSpec {
  const raw = objectOf(value, 'schedule', SCHEDULE_KEYS, issues);
  const spec = {
    rate: numberIn(
      raw.rate,
      { path: 'schedule.rate', min: 0, max: LOAD_LIMITS.rate, fallback: SCHEDULE_DEFAULTS.rate },
      issues,
    ),
    queries: numberIn(
      raw.queries,
      {
        path: 'schedule.queries',
        min: 1,
        max: LOAD_LIMITS.queries,
        fallback: SCHEDULE_DEFAULTS.queries,
        whole: true,
      },
      issues,
    ),
    durationS: numberIn(
      raw.durationS,
      {
        path: 'schedule.durationS',
        min: 0,
        max: LOAD_LIMITS.durationS,
        fallback: SCHEDULE_DEFAULTS.durationS,
      },
      issues,
    ),
    connection: oneOf(
      raw.connection,
      'schedule.connection',
      SCHEDULE_CONNECTIONS,
      SCHEDULE_DEFAULTS.connection,
      issues,
    ),
  };
  if (runs) tooFewArrivals(spec.rate, spec.durationS, 'schedule.rate', 'schedule.durationS', issues);
  return spec;
}

/**
 * A fixed rate asks for floor(rate x duration) starts (src/core/load/pacer.ts): under one, the level
 * would run nothing and could only be judged on nothing, so it is refused before anything runs.
 */
function tooFewArrivals(
  rate: number,
  durationS: number,
  ratePath: string,
  durationPath: string,
  issues: PlanIssue[],
): void {
  if (rate <= 0 || durationS <= 0 || Math.floor(rate * durationS + 1e-9) >= 1) return;
  const seconds = Math.ceil(1 / rate - 1e-9);
  issues.push({
    path: ratePath,
    message: `${rate}/s for ${durationS} s asks for ${Number((rate * durationS).toPrecision(3))} starts, fewer than one, so nothing would run; raise the duration (${durationPath}) to at least ${seconds} s or the rate to at least ${Number((1 / durationS).toPrecision(3))}/s`,
  });
}

const FAN_OUT_KEYS = ['startAtMs', 'levelGapMs', 'place', 'places', 'dealt'];

export function validateFanOut(value: unknown, issues: PlanIssue[]): FanOutSpec {
  const raw = objectOf(value, 'fanOut', FAN_OUT_KEYS, issues);
  const places = numberIn(
    raw.places,
    { path: 'fanOut.places', min: 1, max: PLAN_LIMITS.fanOutPlaces, fallback: 1, whole: true },
    issues,
  );
  if (raw.dealt !== undefined && typeof raw.dealt !== 'boolean')
    issues.push({ path: 'fanOut.dealt', message: 'must be true or false' });
  return {
    // Any time a Date can hold: the common start is a wall-clock instant.
    startAtMs: numberIn(
      raw.startAtMs,
      { path: 'fanOut.startAtMs', min: 0, max: 8.64e15, fallback: 0, minIncluded: true },
      issues,
    ),
    levelGapMs: numberIn(
      raw.levelGapMs,
      { path: 'fanOut.levelGapMs', min: 0, max: PLAN_LIMITS.fanOutLevelGapMs, fallback: 0, whole: true },
      issues,
    ),
    place: numberIn(
      raw.place,
      { path: 'fanOut.place', min: 0, max: places - 1, fallback: 0, whole: true },
      issues,
    ),
    places,
    ...(raw.dealt === true ? { dealt: true } : {}),
  };
}

/** Seconds the duration kinds need per target, to check against the run's time limit. */
export function durationKindSeconds(
  load: LoadPlanSpec | undefined,
  schedule: SchedulePlanSpec | undefined,
): number {
  return (load ? load.levels.length * load.durationS : 0) + (schedule ? schedule.durationS : 0);
}

function validateLevels(
  value: unknown,
  model: LoadPlanSpec['model'],
  issues: PlanIssue[],
  idleLevels: boolean,
): number[] {
  const fallback = model === 'closed' ? [...LOAD_DEFAULTS.levels] : [...OPEN_DEFAULT_LEVELS];
  if (value === undefined) return fallback;
  const max = model === 'closed' ? LOAD_LIMITS.connections : LOAD_LIMITS.rate;
  const what =
    model === 'closed'
      ? `connection counts from 1 to ${max}`
      : `arrival rates per second above 0, up to ${max}`;
  if (
    !Array.isArray(value) ||
    value.length === 0 ||
    value.length > LOAD_LIMITS.levels ||
    !value.every(
      (v) =>
        typeof v === 'number' &&
        Number.isFinite(v) &&
        (v > 0 || (idleLevels && v === 0)) &&
        v <= max &&
        (model === 'open' || Number.isInteger(v)),
    )
  ) {
    issues.push({
      path: 'load.levels',
      message: `must be a list of 1 to ${LOAD_LIMITS.levels} ${what} (e.g. [1, 2, 4, 8]); got ${short(value)}`,
    });
    return fallback;
  }
  return value as number[];
}

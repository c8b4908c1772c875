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
import { numberIn, objectOf, oneOf, short, type PlanIssue } from './fields';

export const LOAD_LIMITS = {
  levels: 50,
  connections: 1_000,
  rate: 100_000,
  durationS: 3_600,
  queries: 100,
} as const;

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

/** `idleLevels`: a fan-out place's share of a closed level may be 0 connections (it sits that level out). */
export function validateLoadPlan(value: unknown, issues: PlanIssue[], idleLevels = false): LoadPlanSpec {
  const raw = objectOf(value, 'load', LOAD_KEYS, issues);
  const model = oneOf(raw.model, 'load.model', LOAD_MODELS, LOAD_DEFAULTS.model, issues);
  const levels = validateLevels(raw.levels, model, issues, idleLevels);
  const maxLatencyMs =
    raw.maxLatencyMs === undefined
      ? undefined
      : numberIn(raw.maxLatencyMs, 'load.maxLatencyMs', 0, 3_600_000, false, 0, issues);
  return {
    model,
    levels,
    durationS: numberIn(
      raw.durationS,
      'load.durationS',
      0,
      LOAD_LIMITS.durationS,
      false,
      LOAD_DEFAULTS.durationS,
      issues,
    ),
    connections: numberIn(
      raw.connections,
      'load.connections',
      1,
      LOAD_LIMITS.connections,
      true,
      LOAD_DEFAULTS.connections,
      issues,
    ),
    maxErrorRate: numberIn(
      raw.maxErrorRate,
      'load.maxErrorRate',
      0,
      1,
      false,
      LOAD_DEFAULTS.maxErrorRate,
      issues,
      true,
    ),
    ...(maxLatencyMs !== undefined ? { maxLatencyMs } : {}),
    latencyStat: oneOf(raw.latencyStat, 'load.latencyStat', LATENCY_STATS, LOAD_DEFAULTS.latencyStat, issues),
  };
}

export function validateSchedulePlan(value: unknown, issues: PlanIssue[]): SchedulePlanSpec {
  const raw = objectOf(value, 'schedule', SCHEDULE_KEYS, issues);
  return {
    rate: numberIn(raw.rate, 'schedule.rate', 0, LOAD_LIMITS.rate, false, SCHEDULE_DEFAULTS.rate, issues),
    queries: numberIn(
      raw.queries,
      'schedule.queries',
      1,
      LOAD_LIMITS.queries,
      true,
      SCHEDULE_DEFAULTS.queries,
      issues,
      true,
    ),
    durationS: numberIn(
      raw.durationS,
      'schedule.durationS',
      0,
      LOAD_LIMITS.durationS,
      false,
      SCHEDULE_DEFAULTS.durationS,
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
}

const FAN_OUT_KEYS = ['startAtMs', 'levelGapMs', 'place', 'places', 'dealt'];
/** A fan-out over more places than this is refused (each is a runner or this machine). */
export const MAX_FAN_OUT_PLACES = 64;
const MAX_LEVEL_GAP_MS = 600_000;

export function validateFanOut(value: unknown, issues: PlanIssue[]): FanOutSpec {
  const raw = objectOf(value, 'fanOut', FAN_OUT_KEYS, issues);
  const places = numberIn(raw.places, 'fanOut.places', 1, MAX_FAN_OUT_PLACES, true, 1, issues);
  if (raw.dealt !== undefined && typeof raw.dealt !== 'boolean')
    issues.push({ path: 'fanOut.dealt', message: 'must be true or false' });
  return {
    startAtMs: numberIn(raw.startAtMs, 'fanOut.startAtMs', 0, 8.64e15, false, 0, issues, true),
    levelGapMs: numberIn(raw.levelGapMs, 'fanOut.levelGapMs', 0, MAX_LEVEL_GAP_MS, true, 0, issues),
    place: numberIn(raw.place, 'fanOut.place', 0, places - 1, true, 0, issues),
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

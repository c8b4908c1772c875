/** What the `load` and `schedule` kinds add to a measurement (see loadPlan.ts for their settings). */
import type { ErrorClass } from './errors';
import { isRecord } from './guards';

/**
 * One request of a `load` level or a `schedule`, for the per-request output (`dbprobe run --raw`).
 * Times are whole microseconds from the level's start (the schedule's first intended start).
 */
export interface RawRequest {
  target: string;
  kind: 'load' | 'schedule';
  /** The level: connections (closed), arrivals/s (open) or requests/s (schedule). */
  level: number;
  /** When the schedule meant it to start (the actual start in the closed model, which has no schedule). */
  intendedUs: number;
  /** When it was issued; absent when it never was (its connect failed). */
  startUs?: number;
  /** When its (last) answer or its failure came. */
  endUs: number;
  ok: boolean;
  error?: ErrorClass;
}

/** A request line from another thread or a runner, checked before it is written out. */
export function isRawRequest(value: unknown): value is RawRequest {
  return (
    isRecord(value) &&
    typeof value.target === 'string' &&
    (value.kind === 'load' || value.kind === 'schedule') &&
    typeof value.level === 'number' &&
    typeof value.intendedUs === 'number' &&
    (value.startUs === undefined || typeof value.startUs === 'number') &&
    typeof value.endUs === 'number' &&
    typeof value.ok === 'boolean' &&
    (value.error === undefined || typeof value.error === 'string')
  );
}

// The figures are defined with the result (schema/loadResultSchema.ts).
export type {
  FanOutFigures,
  FanOutPlaceFigures,
  FanOutPlaceLevel,
  LoadFigures,
  LoadLevelFigures,
  ScheduleFigures,
  ScheduleModelFigures,
  StartFigures,
} from './schema/loadResultSchema';

/** A fixed-rate level or schedule that started less than this share of what was asked did not keep up. */
export const MIN_ACHIEVED_SHARE = 0.95;

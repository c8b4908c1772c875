/**
 * Settings of the two duration-based kinds and of a fan-out. Defined once in schema/loadSchema.ts
 * (types, the config's JSON Schema and the check of what arrives); here for the importers that read
 * them from where they always have. Only the types come from the definition, so importing this file
 * loads no validator.
 */
import type { LoadPlanSpec, SchedulePlanSpec } from './schema/loadSchema';
import { LOAD_DEFAULT_VALUES, SCHEDULE_DEFAULT_VALUES } from './schema/planValues';

export { LATENCY_STATS, LOAD_MODELS, SCHEDULE_CONNECTIONS } from './schema/planValues';
export type { LatencyStatName, LoadModel, ScheduleConnection } from './schema/planValues';
export type { FanOutSpec, LoadPlanSpec, SchedulePlanSpec } from './schema/loadSchema';

export const LOAD_DEFAULTS: LoadPlanSpec = LOAD_DEFAULT_VALUES;
/** The blog's numbers: 10 requests per second, 3 queries each, for 60 s. */
export const SCHEDULE_DEFAULTS: SchedulePlanSpec = SCHEDULE_DEFAULT_VALUES;

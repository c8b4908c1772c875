/**
 * Settings of the two duration-based kinds and of a fan-out. Defined once in schema/loadSchema.ts
 * (types, the config's JSON Schema and the check of what arrives); here for the importers that read
 * them from where they always have.
 */
export {
  LATENCY_STATS,
  LOAD_DEFAULTS,
  LOAD_MODELS,
  SCHEDULE_CONNECTIONS,
  SCHEDULE_DEFAULTS,
} from './schema/loadSchema';
export type {
  FanOutSpec,
  LatencyStatName,
  LoadModel,
  LoadPlanSpec,
  ScheduleConnection,
  SchedulePlanSpec,
} from './schema/loadSchema';

/**
 * The plan a run executes: what crosses from a caller (CLI, extension, runner client) into the engine.
 * Defined once in schema/ (types, the config's JSON Schema and the check of what arrives); here for
 * the importers that read the plan's types and lists from where they always have.
 */
export { COLD_DEFAULTS, COLD_MODES } from './schema/coldSchema';
export type { ColdMode, ColdPlanSpec, ColdTargetSpec, NeonColdSpec } from './schema/coldSchema';
export { PLAN_DEFAULTS, PROBE_KINDS, TARGET_ORDERS } from './schema/planSchema';
export type { PlanSpec, ProbeKind, TargetOrder, Timeouts } from './schema/planSchema';
export { HTTP_VERSIONS, TLS_MAX_VERSIONS } from './schema/targetSchema';
export type { HttpVersion, TargetHttp, TargetSpec, TargetTls, TlsMaxVersion } from './schema/targetSchema';

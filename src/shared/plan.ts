/**
 * The plan a run executes: what crosses from a caller (CLI, extension, runner client) into the engine.
 * Defined once in schema/ (types, the config's JSON Schema and the check of what arrives); here for
 * the importers that read the plan's types, lists and defaults from where they always have. Only the
 * types come from the definition, so importing this file loads no validator.
 */
import type { ColdPlanSpec } from './schema/coldSchema';
import type { PlanSpec } from './schema/planSchema';
import { COLD_DEFAULT_VALUES, PLAN_DEFAULT_VALUES } from './schema/planValues';

export { COLD_MODES, HTTP_VERSIONS, PROBE_KINDS, TARGET_ORDERS, TLS_MAX_VERSIONS } from './schema/planValues';
export type { ColdMode, HttpVersion, ProbeKind, TargetOrder, TlsMaxVersion } from './schema/planValues';
export type { ColdPlanSpec, ColdTargetSpec, NeonColdSpec } from './schema/coldSchema';
export type { PlanSpec, Timeouts } from './schema/planSchema';
export type { TargetHttp, TargetSpec, TargetTls } from './schema/targetSchema';

export const PLAN_DEFAULTS: Omit<PlanSpec, 'targets'> = PLAN_DEFAULT_VALUES;
export const COLD_DEFAULTS: ColdPlanSpec = COLD_DEFAULT_VALUES;

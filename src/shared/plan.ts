/** The plan a run executes: what crosses from a caller (CLI, extension, runner client) into the engine. */
import type { LoadPlanSpec, SchedulePlanSpec } from './loadPlan';
import type { WorkloadPresetId } from './workloadPresets';

export const PROBE_KINDS = ['initial', 'subsequent', 'schedule', 'load'] as const;
export type ProbeKind = (typeof PROBE_KINDS)[number];

export const TARGET_ORDERS = ['interleaved', 'sequential'] as const;
export type TargetOrder = (typeof TARGET_ORDERS)[number];

/** A target as a user writes it: the connection is a reference (`env:VAR`, `secret:NAME`), never a literal. */
export interface TargetSpec {
  name: string;
  driver: string;
  connection: string;
  /** Custom workload; the driver's default (`SELECT 1`, `PING`, ...) when absent. */
  query?: string;
  /** Driver-specific options (e.g. neon-ws `pipelineConnect`). Never holds secrets. */
  options?: Record<string, unknown>;
  /** A workload preset instead of `query` (see workloadPresets.ts). */
  workload?: WorkloadPresetId;
  /** Lets the probe create, write and drop its scratch table, key or collection on this target. */
  allowWrites?: boolean;
}

export interface Timeouts {
  connectMs: number;
  queryMs: number;
  runMs: number;
}

export interface PlanSpec {
  targets: TargetSpec[];
  kinds: ProbeKind[];
  iterations: number;
  warmup: number;
  order: TargetOrder;
  timeouts: Timeouts;
  /** Raw samples kept per target and kind, for time series and CSV. */
  sampleCap: number;
  /** Consecutive errors with no success after which a target stops being sampled for that kind. */
  maxConsecutiveErrors: number;
  /** Settings of the `load` kind; LOAD_DEFAULTS when absent. */
  load?: LoadPlanSpec;
  /** Settings of the `schedule` kind; SCHEDULE_DEFAULTS when absent. */
  schedule?: SchedulePlanSpec;
}

export const PLAN_DEFAULTS: Omit<PlanSpec, 'targets'> = {
  kinds: ['initial', 'subsequent'],
  iterations: 50,
  warmup: 5,
  order: 'interleaved',
  timeouts: { connectMs: 10_000, queryMs: 10_000, runMs: 15 * 60_000 },
  sampleCap: 10_000,
  maxConsecutiveErrors: 5,
};

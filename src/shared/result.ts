/**
 * The run result: one versioned JSON document that every view, exporter and runner client reads.
 * Defined once in schema/resultSchema.ts (types, schema/run-result.schema.json and the check of a
 * saved result); here for the importers that read its types from where they always have, with the
 * names the code uses for its parts.
 */
import type { ConnectStep } from './schema/resultValues';
import type { DriverVersion, RunResult, SampleSuccess, WireReasons } from './schema/resultSchema';

export { CONNECT_STEPS, RESULT_SCHEMA } from './schema/resultValues';
export type { ConnectStep } from './schema/resultValues';
export type {
  ClientWatch,
  ColdFigures,
  ColdPair,
  DriverVersion,
  HostState,
  Measurement,
  MeasurementWire,
  RunEnvironment,
  RunHeader,
  RunResult,
  SampleFailure,
  SampleRecord,
  SampleSuccess,
  SampleWire,
  TargetInfo,
  TargetLayer,
  WireReasons,
} from './schema/resultSchema';
export type { ResultPlan } from './schema/resultPlanSchema';
export type { EncodedHistogram, LatencyStats, SignedStats } from './schema/statsSchema';

/** A run result in each of its states: narrow on `state` to read `stopReason` as a string. */
export type CompletedRunResult = Extract<RunResult, { state: 'completed' }>;
export type CancelledRunResult = Extract<RunResult, { state: 'cancelled' }>;
export type TimedOutRunResult = Extract<RunResult, { state: 'timedOut' }>;
export type RunState = RunResult['state'];

/** How a run ended: its state, and for a stopped one why. */
export type RunEnding = RunResult extends infer R
  ? R extends RunResult
    ? Pick<R, 'state' | 'stopReason'>
    : never
  : never;
export type CompletedEnding = Extract<RunEnding, { state: 'completed' }>;
export type CancelledEnding = Extract<RunEnding, { state: 'cancelled' }>;
export type TimedOutEnding = Extract<RunEnding, { state: 'timedOut' }>;

/** What every result holds, whatever its state. */
export type RunResultBody = Omit<RunResult, 'state' | 'stopReason'>;

/** The connect phase's parts of a sample (core/sampleTiming.ts and core/socketPhases.ts fill them). */
export type ConnectPhaseFields = Pick<
  SampleSuccess,
  'connectUs' | 'dnsUs' | 'tcpUs' | 'tlsUs' | 'handshakeUs' | 'tlsResumed'
>;

/** The wire figures a target may be unable to count. */
export type WireFigure = keyof WireReasons;

/**
 * What a sample could not see, with why: steps of its connect, and wire figures. Not part of the
 * sample record: a measurement keeps the first reason given (Measurement.phases.unmeasured,
 * Measurement.wire.unmeasured).
 */
export interface SampleReasons {
  unmeasured?: Partial<Record<ConnectStep, string>>;
  /** Like `unmeasured`, for the wire figures (alpn, ...) the sample's connection could not show. */
  wireUnmeasured?: WireReasons;
}

/** A driver package as a run chose it. */
export type DriverPackageSource = DriverVersion & {
  source: 'project' | 'bundled';
};

/**
 * The run result: one versioned JSON document that every view, exporter and runner client reads.
 * Its JSON Schema is schema/run-result.schema.json; tests validate real results against it.
 * All latencies are integer microseconds (`Us`) unless a name says otherwise.
 */
import type { ErrorClass, ProbeFailure } from './errors';
import type { PlanSpec, ProbeKind } from './plan';

export const RESULT_SCHEMA = 'dbprobe.run/v1';

export type RunState = 'completed' | 'cancelled' | 'timedOut';

export interface LatencyStats {
  /** Successful samples (the ones with a latency). */
  count: number;
  errors: number;
  /** errors / (count + errors); 0 when nothing ran. */
  errorRate: number;
  minUs: number;
  meanUs: number;
  stddevUs: number;
  p50Us: number;
  p90Us: number;
  p95Us: number;
  p99Us: number;
  p999Us: number;
  maxUs: number;
}

/** Enough to merge results from several runs or runners exactly. */
export interface EncodedHistogram {
  encoding: 'hdr-compressed-base64';
  lowestUs: number;
  highestUs: number;
  significantDigits: number;
  data: string;
  /** Exact moments (Welford) so merged mean and stddev do not depend on bucket rounding. */
  moments: { count: number; mean: number; m2: number; min: number; max: number };
}

export interface SampleRecord {
  /** Microseconds since the run started, at the sample's start. */
  atUs: number;
  /** Latency; absent when the sample failed. */
  us?: number;
  /** The connect part of `us`, for samples that opened a connection. */
  connectUs?: number;
  /** DNS and TCP parts of connectUs, when the driver's socket could be watched. */
  dnsUs?: number;
  tcpUs?: number;
  error?: ErrorClass;
}

export interface Measurement {
  target: string;
  kind: ProbeKind;
  stats: LatencyStats;
  histogram: EncodedHistogram;
  warmup: LatencyStats;
  samples: { cap: number; dropped: number; values: SampleRecord[] };
  errorsByClass: Partial<Record<ErrorClass, number>>;
  /** The first few failures, redacted. */
  firstErrors: ProbeFailure[];
  /** True when no measured sample succeeded. */
  failed: boolean;
  /** Set when sampling stopped early (e.g. too many consecutive errors). */
  stoppedEarly?: string;
  /** What this kind reused between samples, so readers know what each sample paid for. */
  reused: string[];
  /** For kinds that connect per sample: the connect phase and the first query, apart. */
  phases?: {
    connect: LatencyStats;
    firstQuery: LatencyStats;
    /** Name lookup (absent when every host was an IP address or no socket could be watched). */
    dns?: LatencyStats;
    /** TCP connection, from the driver's own socket. */
    tcp?: LatencyStats;
    /** The rest of connect after TCP: TLS, the protocol handshake and auth. */
    handshake?: LatencyStats;
  };
}

export interface TargetInfo {
  name: string;
  driver: string;
  transport: string;
  /** The reference only (`env:VAR`), never the connection string. */
  connection: string;
  query: string;
  /** Host and port, for labelling; never credentials. */
  endpoint?: string;
  /** The target's TLS trust setting, when it has one; `insecure` means certificates were not checked. */
  tls?: { caFile?: string; insecure?: true };
}

export interface DriverVersion {
  package: string;
  version: string;
}

export interface RunEnvironment {
  tool: { name: string; version: string };
  node: string;
  os: { platform: string; release: string; arch: string };
  cpus: { count: number; model: string };
  hostname: string;
  clock: { name: string; unit: 'us' };
  drivers: Record<string, DriverVersion>;
  /** Where the run happened: `local`, or a runner's label and region. */
  location: { kind: 'local' | 'runner'; label: string; region?: string };
}

export interface ClientWatch {
  eventLoopDelayP99Us: number;
  eventLoopDelayMaxUs: number;
  cpuPercent: number;
  /** True when the client itself may have limited the figures; `note` says why. */
  bottleneck: boolean;
  note?: string;
}

/** The plan as a result records it: how it was measured, without the targets (listed apart). */
export type ResultPlan = Omit<PlanSpec, 'targets' | 'maxConsecutiveErrors'>;

/** What is known when a run starts; the `start` event carries it so a listener can rebuild a result. */
export interface RunHeader {
  id: string;
  startedAt: string;
  environment: RunEnvironment;
  plan: ResultPlan;
  targets: TargetInfo[];
}

export interface RunResult extends RunHeader {
  schema: typeof RESULT_SCHEMA;
  state: RunState;
  durationUs: number;
  measurements: Measurement[];
  client: ClientWatch;
  /** Why the run stopped early, when it did. */
  stopReason?: string;
}

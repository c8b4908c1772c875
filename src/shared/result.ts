/**
 * The run result: one versioned JSON document that every view, exporter and runner client reads.
 * Its JSON Schema is schema/run-result.schema.json; tests validate real results against it.
 * All latencies are integer microseconds (`Us`) unless a name says otherwise.
 */
import type { ErrorClass, ProbeFailure } from './errors';
import type { EncodedHistogram, LatencyStats } from './latencyStats';
import type { LoadFigures, ScheduleFigures } from './loadResult';
import type { ColdMode, PlanSpec, ProbeKind } from './plan';
import type { OrmQueryPath } from './layerCatalog';
import type { ServerTime } from './serverTime';

// Defined apart so loadResult.ts can use them without importing this file (no import cycle).
export type { EncodedHistogram, LatencyStats } from './latencyStats';

export const RESULT_SCHEMA = 'dbprobe.run/v1';

/**
 * How a run ended. A completed run has no stop reason; a stopped one always says why, so a view never
 * has to guess. `?: never` keeps `result.stopReason` readable on every state without a cast.
 */
export interface CompletedEnding {
  state: 'completed';
  stopReason?: never;
}
export interface CancelledEnding {
  state: 'cancelled';
  /** Why: the user, or (for a remote run) the runner or the network that broke off. */
  stopReason: string;
}
export interface TimedOutEnding {
  state: 'timedOut';
  stopReason: string;
}
export type RunEnding = CompletedEnding | CancelledEnding | TimedOutEnding;
export type RunState = RunEnding['state'];

/** The steps of opening a connection, in order. */
export const CONNECT_STEPS = ['dns', 'tcp', 'tls', 'handshake'] as const;
export type ConnectStep = (typeof CONNECT_STEPS)[number];

/**
 * The connect phase of a sample that opened a connection, split into the steps seen on the driver's
 * socket. Declared once: the sample record, the engine's timing of a sample (core/sampleTiming.ts)
 * and the socket watch (core/socketPhases.ts) all take these fields from here.
 */
export interface ConnectPhaseFields {
  /** The connect part of `us`, for samples that opened a connection. */
  connectUs?: number;
  /** DNS and TCP parts of connectUs, when the driver's socket could be watched. */
  dnsUs?: number;
  tcpUs?: number;
  /** The TLS handshake (TCP connected to secureConnect), for TLS connections that could be watched. */
  tlsUs?: number;
  /**
   * The rest of connect after TCP and TLS: the protocol handshake and auth, plus the client's own
   * set-up around its socket (TLS context, pg's SSLRequest round trip, mongodb's server selection).
   * With the steps above it adds up to connectUs.
   */
  handshakeUs?: number;
  /** True when the TLS handshake resumed a session (never expected for `initial`). */
  tlsResumed?: boolean;
}

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

/** A sample that succeeded: its latency, and the connect phase's parts when it opened a connection. */
export interface SampleSuccess extends ConnectPhaseFields {
  /** Microseconds since the run started, at the sample's start. */
  atUs: number;
  us: number;
  /** What crossed the driver's own socket during the sample, when it could be watched. */
  wire?: SampleWire;
  /**
   * Which of the kind's warm connections the sample ran on (0-based), for a kind that keeps several
   * (`subsequent`); absent where every sample opens its own. The verdict resamples connections, then
   * samples within them, so a difference speaks for the targets rather than for one connection each.
   */
  conn?: number;
  /**
   * Microseconds the probing thread spent runnable but waiting for a CPU during the sample (Linux's
   * per-thread run-queue wait): time the host, not the database, added to this sample. Absent where
   * the platform does not say.
   */
  cpuWaitUs?: number;
  /**
   * Microseconds of the sample in which some task on the host waited for a CPU (/proc/pressure/cpu
   * "some"): what the thread's own wait cannot see, such as a database on the same host waiting.
   */
  cpuPressureUs?: number;
  /** The database's own time for this sample, as its answer stated it (Measurement.serverTime). */
  serverUs?: number;
  error?: never;
  failedAfterUs?: never;
}

/**
 * Wire accounting for one sample, from the driver's own socket(s). Counted, never estimated: a figure
 * the tool could not see is absent and `Measurement.wire.unmeasured` says why.
 */
export interface SampleWire {
  /** Client->server->client turns after the TCP handshake (TLS turns included). */
  roundTrips?: number;
  /** TCP handshakes the sample paid (one per new connection; 0 on a reused one). */
  tcpHandshakes?: number;
  bytesSent?: number;
  bytesReceived?: number;
  /** Negotiated on a connection the sample opened, e.g. "TLSv1.3". */
  tlsVersion?: string;
  tlsCipher?: string;
  /** ALPN protocol negotiated, e.g. "h2" or "http/1.1". */
  alpn?: string;
  /** CPU time of the probing thread during the sample's connect (the client's own share of a connect). */
  clientCpuUs?: number;
}

/** A sample that failed: when, the class of error, and how long it ran until it failed; no latency. */
export interface SampleFailure {
  atUs: number;
  error: ErrorClass;
  /**
   * Microseconds from the sample's start to its failure (a connect kind's whole attempt: connect,
   * and the first query when the connect got through). Absent in results of earlier versions.
   */
  failedAfterUs?: number;
  us?: never;
  connectUs?: never;
  dnsUs?: never;
  tcpUs?: never;
  tlsUs?: never;
  handshakeUs?: never;
  tlsResumed?: never;
  wire?: never;
  conn?: never;
  cpuWaitUs?: never;
  cpuPressureUs?: never;
  serverUs?: never;
}

/** One kept sample: a latency or an error, never both (narrow with `us !== undefined` or `error`). */
export type SampleRecord = SampleSuccess | SampleFailure;

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
  /**
   * The default count (no `iterations` asked for) this kind shortened to, so that it fit the run's
   * time bound (`timeouts.runMs`) rather than be cut off by it.
   */
  shortenedTo?: number;
  /** What this kind reused between samples, so readers know what each sample paid for. */
  reused: string[];
  /** For kinds that connect per sample: the connect phase and the first query, apart. */
  phases?: {
    connect: LatencyStats;
    firstQuery: LatencyStats;
    /** Name lookup (absent when every host was an IP address or no socket could be watched). */
    dns?: LatencyStats;
    /** TCP connection, from the driver's own socket: the wire's round trip, the target's network floor. */
    tcp?: LatencyStats;
    /** The TLS handshake, for TLS connections. */
    tls?: LatencyStats;
    /** The rest of connect after TCP and TLS: the protocol handshake and auth. */
    handshake?: LatencyStats;
    /** Steps that could not be seen for this target, each with why (never a guess in their place). */
    unmeasured?: Partial<Record<ConnectStep, string>>;
    /** TLS handshakes seen on the samples' own sockets: full vs resumed. */
    tlsHandshakes?: { full: number; resumed: number };
  };
  /** Wire accounting over the kind's samples: p50 of each count, the most frequent TLS/ALPN values. */
  wire?: MeasurementWire;
  /** `load` kind: each level's throughput and latency, and where the target stopped keeping up. */
  load?: LoadFigures;
  /** `schedule` kind: per-position latency, per-request totals and the model beside them. */
  schedule?: ScheduleFigures;
  /** For the `cold` kind: the hot connect taken after each cold sample, and cold start = cold - hot. */
  cold?: ColdFigures;
  /**
   * The database's own time for the workload, from the server (per sample or per run) with its
   * source, or a note saying why there is none. Absent in results saved before it was recorded, for
   * the `cold` and duration kinds, and where a caller left the per-run readings out.
   */
  serverTime?: ServerTime;
}

/** Figures that may be negative (a cold start hidden by a slow hot connect), so no histogram. */
/** Per-kind wire figures: medians of the samples' counts. */
export interface MeasurementWire {
  roundTrips?: number;
  tcpHandshakes?: number;
  bytesSent?: number;
  bytesReceived?: number;
  clientCpuUs?: number;
  tlsVersion?: string;
  tlsCipher?: string;
  alpn?: string;
  /** Figures that could not be counted for this target, each with why. */
  unmeasured?: WireReasons;
}

/** The wire figures a target may be unable to count. */
export type WireFigure = 'roundTrips' | 'bytes' | 'tls' | 'alpn' | 'clientCpu';
/** Why each figure that could not be counted was not. */
export type WireReasons = Partial<Record<WireFigure, string>>;

export interface SignedStats {
  count: number;
  minUs: number;
  meanUs: number;
  stddevUs: number;
  p50Us: number;
  p99Us: number;
  maxUs: number;
}

/** One cold sample and the hot connect + first query taken right after it, on a new connection. */
export interface ColdPair {
  atUs: number;
  coldUs: number;
  hotUs: number;
  coldConnectUs?: number;
  hotConnectUs?: number;
  /** How long making the target cold took before this sample (not part of any latency). */
  waitMs: number;
}

export interface ColdFigures {
  mode: ColdMode;
  /** Hot connect + first query, one per successful cold sample (the stats of the measurement are the cold ones). */
  hot: LatencyStats;
  /** The connect part of `hot` (the Neon benchmark's "hot connect"). */
  hotConnect: LatencyStats;
  /** Per sample: cold total minus the hot total taken right after it. */
  coldStart: SignedStats;
  pairs: ColdPair[];
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
  /**
   * The target's TLS trust setting, when it has one; `insecure` means certificates were not checked,
   * `insecureBy` what in the connection string turned the checks off when the target did not ask.
   */
  tls?: { caFile?: string; insecure?: true; insecureBy?: string; maxVersion?: '1.2' | '1.3' };
  /** The HTTP version the target asked its fetch-based driver for; absent: Node's fetch's (HTTP/1.1). */
  http?: { version: '1.1' | '2' };
  /**
   * The ORM layer this target's queries went through, over the same driver and connection as the
   * raw target named in `over`; the version is the layer package's installed one.
   */
  layer?: TargetLayer;
}

export interface TargetLayer {
  name: string;
  package: string;
  version?: string;
  /** Where the copy measured came from ("your project", "your workspace"): the app's own. */
  from?: string;
  /** The layer's path: the workload as raw SQL, or its typed query. Absent in older results: raw. */
  query?: OrmQueryPath;
  /** The raw target measured beside this one in the same run. */
  over: string;
}

export interface DriverVersion {
  package: string;
  version: string;
  /**
   * Whose copy of the package was measured: the one the project installed (the app's own version),
   * or the one bundled with dbprobe (the project has none). Absent in results saved before it was
   * recorded, and for packages that are dbprobe's own transport (undici).
   */
  source?: 'project' | 'bundled';
  /**
   * The node_modules folder the project's copy came from, when it is in none of the project's
   * folders (a parent folder's): named in its place, never called the workspace's.
   */
  folder?: string;
  /** Why the bundled copy stood in, and what to do to measure the app's own. */
  note?: string;
}

/** A driver package as a run chose it. */
export type DriverPackageSource = DriverVersion & { source: 'project' | 'bundled' };

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
  /**
   * The longest event-loop stall that overlapped a judged sample (0 when none did): the delay that
   * touched a figure. Stalls outside samples (start-up, the report) are in the max alone.
   */
  eventLoopDelayP99Us: number;
  /** The longest stall of the loop seen at all, start-up included. */
  eventLoopDelayMaxUs: number;
  cpuPercent: number;
  /** True when the client itself may have limited the figures; `note` says why. */
  bottleneck: boolean;
  note?: string;
  /** Per target and kind the client limited: loop stalls overlapped its samples (see clientWatch.ts). */
  limited?: { target: string; kind: ProbeKind; worstUs: number; note: string }[];
  /** How busy the host was while the run measured; absent in results from before it was kept. */
  host?: HostState;
}

/**
 * The host's state over a run, as evidence beside the figures: a difference or a change that
 * coincides with a busier client on one side is said to be the host's before it is said to be the
 * targets'. Each figure is absent where the platform does not give it; `sources` says what it read.
 */
export interface HostState {
  /** What the figures were read from, e.g. ["schedstat", "pressure", "loadavg"]. */
  sources: string[];
  /** The probing thread's run-queue wait over the sampled kinds' timed time (0..1). */
  cpuWaitShare?: number;
  /** Share of the run's wall time some task on the host waited for a CPU (/proc/pressure/cpu "some"). */
  cpuPressureShare?: number;
  /** The 1-minute load average per core at the run's end. */
  loadPerCore?: number;
  /**
   * Per sampled target and kind: the probing thread's run-queue wait over the span of its samples
   * (gaps between them included), as a share of the span.
   */
  spans?: {
    target: string;
    kind: ProbeKind;
    waitShare: number;
    /** How long a fixed piece of work took the thread over the span (ns, median): the host's CPU speed. */
    spinNs?: number;
  }[];
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

/** What every result holds, whatever its state. */
export interface RunResultBody extends RunHeader {
  schema: typeof RESULT_SCHEMA;
  durationUs: number;
  measurements: Measurement[];
  client: ClientWatch;
}

export interface CompletedRunResult extends RunResultBody, CompletedEnding {}
export interface CancelledRunResult extends RunResultBody, CancelledEnding {}
export interface TimedOutRunResult extends RunResultBody, TimedOutEnding {}
/** A run result, keyed on `state`: narrow on it to read `stopReason` as a string. */
export type RunResult = CompletedRunResult | CancelledRunResult | TimedOutRunResult;

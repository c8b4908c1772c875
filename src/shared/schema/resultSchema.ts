/**
 * The run result, defined once: one versioned JSON document that every view, exporter and runner
 * client reads. Its types (result.ts re-exports them), its shipped JSON Schema
 * (schema/run-result.schema.json, written by `npm run schema`) and the check of a saved result read
 * back from a file (core/validate/validateRunResult.ts) all come from here. All latencies are integer
 * microseconds (`Us`) unless a name says otherwise.
 */
import * as z from 'zod/mini';
import { ORM_LAYERS, ORM_QUERY_PATHS } from '../layerCatalog';

import { loadFiguresSchema, scheduleFiguresSchema } from './loadResultSchema';
import { resultPlanSchema } from './resultPlanSchema';
import { COLD_MODES, HTTP_VERSIONS, PROBE_KINDS, TLS_MAX_VERSIONS } from './planValues';
import { FIRST_ARRIVALS, RESULT_SCHEMA, SERVER_TIME_SOURCES } from './resultValues';
import {
  amount,
  atUs,
  count,
  errorClass,
  failureSchema,
  histogramSchema,
  latencyStatsSchema,
  latencyUs,
  share,
  signedStatsSchema,
  spanUs,
  text,
  wholeUs,
} from './statsSchema';

const kind = () => z.enum(PROBE_KINDS);
/** Keys the other side of a union has: never here, so `sample.us` reads on either side without a cast. */
const absent = () => z.optional(z.never());

/**
 * The connect phase of a sample that opened a connection, split into the steps seen on the driver's
 * socket. Declared once: the sample record, the engine's timing of a sample (core/sampleTiming.ts)
 * and the socket watch (core/socketPhases.ts) all take these fields from here.
 */
const connectPhaseShape = {
  /** The connect part of `us`, for samples that opened a connection. */
  connectUs: z.optional(wholeUs()),
  /** DNS and TCP parts of connectUs, when the driver's socket could be watched. */
  dnsUs: z.optional(wholeUs()),
  tcpUs: z.optional(wholeUs()),
  /** The TLS handshake (TCP connected to secureConnect), for TLS connections that could be watched. */
  tlsUs: z.optional(wholeUs()),
  /**
   * The rest of connect after TCP and TLS: the protocol handshake and auth, plus the client's own
   * set-up around its socket (TLS context, pg's SSLRequest round trip, mongodb's server selection).
   * With the steps above it adds up to connectUs.
   */
  handshakeUs: z.optional(wholeUs()),
  /** True when the TLS handshake resumed a session (never expected for `initial`). */
  tlsResumed: z.optional(z.boolean()),
};

/**
 * Wire accounting for one sample, from the driver's own socket(s). Counted, never estimated: a figure
 * the tool could not see is absent and `Measurement.wire.unmeasured` says why.
 */
const sampleWireSchema = z.strictObject({
  /** Client->server->client turns after the TCP handshake (TLS turns included). */
  roundTrips: z.optional(count()),
  /** TCP handshakes the sample paid (one per new connection; 0 on a reused one). */
  tcpHandshakes: z.optional(count()),
  bytesSent: z.optional(count()),
  bytesReceived: z.optional(count()),
  /** Negotiated on a connection the sample opened, e.g. "TLSv1.3". */
  tlsVersion: z.optional(text()),
  tlsCipher: z.optional(text()),
  /** ALPN protocol negotiated, e.g. "h2" or "http/1.1". */
  alpn: z.optional(text()),
  /** CPU time of the probing thread during the sample's connect (the client's own share of a connect). */
  clientCpuUs: z.optional(count()),
});

const successShape = {
  /** Microseconds since the run started, at the sample's start. */
  atUs: atUs(),
  us: wholeUs(),
  ...connectPhaseShape,
  /** What crossed the driver's own socket during the sample, when it could be watched. */
  wire: z.optional(sampleWireSchema),
  /**
   * Which of the kind's warm connections the sample ran on (0-based), for a kind that keeps several
   * (`subsequent`); absent where every sample opens its own. The verdict resamples connections, then
   * samples within them, so a difference speaks for the targets rather than for one connection each.
   */
  conn: z.optional(count()),
  /**
   * Microseconds the probing thread spent runnable but waiting for a CPU during the sample (Linux's
   * per-thread run-queue wait): time the host, not the database, added to this sample. Absent where
   * the platform does not say.
   */
  cpuWaitUs: z.optional(count()),
  /**
   * Microseconds of the sample in which some task on the host waited for a CPU (/proc/pressure/cpu
   * "some"): what the thread's own wait cannot see, such as a database on the same host waiting.
   */
  cpuPressureUs: z.optional(count()),
  /** The database's own time for this sample, as its answer stated it (Measurement.serverTime). */
  serverUs: z.optional(wholeUs()),
  /**
   * Microseconds from the sample's start to the first row of its answer (a mongodb cursor's first
   * batch), on a target whose answer holds many rows; its last row came with the answer's end, `us`.
   */
  firstRowUs: z.optional(wholeUs()),
  /** Rows the answer held, on the sample that read it: a target's first answer (Measurement.rows). */
  rows: z.optional(count()),
};

/** A sample that succeeded: its latency, and the connect phase's parts when it opened a connection. */
export const sampleSuccessSchema = z.strictObject({
  ...successShape,
  error: absent(),
  failedAfterUs: absent(),
});

const { atUs: _both, ...successOnly } = successShape;

/** A sample that failed: when, the class of error, and how long it ran until it failed; no latency. */
export const sampleFailureSchema = z.strictObject({
  atUs: atUs(),
  error: errorClass(),
  /**
   * Microseconds from the sample's start to its failure (a connect kind's whole attempt: connect,
   * and the first query when the connect got through). Absent in results of earlier versions.
   */
  failedAfterUs: z.optional(wholeUs()),
  ...(Object.fromEntries(Object.keys(successOnly).map((key) => [key, absent()])) as {
    [K in keyof typeof successOnly]: ReturnType<typeof absent>;
  }),
});

/** One kept sample: a latency or an error, never both (narrow with `us !== undefined` or `error`). */
export const sampleSchema = z.union([sampleSuccessSchema, sampleFailureSchema], {
  error: 'must hold a latency ("us") or an error class ("error"), one of the two',
});

/** The wire figures a target may be unable to count, each with why it could not. */
const wireReasonsSchema = z.strictObject({
  roundTrips: z.optional(text()),
  bytes: z.optional(text()),
  tls: z.optional(text()),
  alpn: z.optional(text()),
  clientCpu: z.optional(text()),
});

/** Per-kind wire figures: medians of the samples' counts. */
const measurementWireSchema = z.strictObject({
  roundTrips: z.optional(amount()),
  tcpHandshakes: z.optional(amount()),
  bytesSent: z.optional(amount()),
  bytesReceived: z.optional(amount()),
  clientCpuUs: z.optional(amount()),
  tlsVersion: z.optional(text()),
  tlsCipher: z.optional(text()),
  alpn: z.optional(text()),
  /** Figures that could not be counted for this target, each with why. */
  unmeasured: z.optional(wireReasonsSchema),
});

const stepReasonsSchema = z.strictObject({
  dns: z.optional(text()),
  tcp: z.optional(text()),
  tls: z.optional(text()),
  handshake: z.optional(text()),
});

/**
 * The database's own time for a target and kind: what the server says it spent on the workload,
 * never an estimate (serverTime.ts has the wording of each source).
 */
const serverTimeGivenSchema = z.strictObject({
  p50Us: latencyUs(),
  source: z.enum(SERVER_TIME_SOURCES),
  /** Samples (or executions) the figure is over. */
  samples: count(1),
  /**
   * How the figure summarises the server's times: the p50 of per-sample figures, the mean of a
   * counter's delta over the kind's samples (all a cumulative counter can give), or one execution
   * (EXPLAIN ANALYZE runs the statement once).
   */
  figure: z.enum(['p50', 'mean', 'once']),
  /** What it covers, when that is not obvious. */
  note: z.optional(text()),
});

/** No figure, and why: the server does not say, or the source was refused (a privilege, an extension). */
const serverTimeMissingSchema = z.strictObject({
  note: text(),
  /** The source that was tried, when one was. */
  source: z.optional(z.enum(SERVER_TIME_SOURCES)),
  p50Us: absent(),
  samples: absent(),
  figure: absent(),
});

export const serverTimeSchema = z.union([serverTimeGivenSchema, serverTimeMissingSchema]);

/**
 * An answer of many rows, streamed: when its first row (or batch) and its last arrived, p50s over
 * the same samples. The last row travels with the protocol's closing message, so it is the sample's
 * end; its bytes are the kind's `wire.bytesReceived`.
 */
const rowsStreamedSchema = z.strictObject({
  /** Rows the target's first answer held. */
  count: count(2),
  /** What arrives first: a row, or (mongodb) a batch of documents. */
  first: z.enum(FIRST_ARRIVALS),
  firstRowP50Us: latencyUs(),
  lastRowP50Us: latencyUs(),
  /** The streamed samples both figures are over. */
  samples: count(1),
  note: absent(),
});

/**
 * Rows counted but no first-row figure, and why: one row (the latency is its one figure), or an
 * answer no sample streamed.
 */
const rowsWholeSchema = z.strictObject({
  count: count(),
  note: text(),
  first: absent(),
  firstRowP50Us: absent(),
  lastRowP50Us: absent(),
  samples: absent(),
});

export const rowsSchema = z.union([rowsStreamedSchema, rowsWholeSchema]);

/** One cold sample and the hot connect + first query taken right after it, on a new connection. */
const coldPairSchema = z.strictObject({
  atUs: atUs(),
  coldUs: wholeUs(),
  hotUs: wholeUs(),
  coldConnectUs: z.optional(wholeUs()),
  hotConnectUs: z.optional(wholeUs()),
  /** How long making the target cold took before this sample (not part of any latency). */
  waitMs: count(),
});

const coldFiguresSchema = z.strictObject({
  mode: z.enum(COLD_MODES),
  /** Hot connect + first query, one per successful cold sample (the stats of the measurement are the cold ones). */
  hot: latencyStatsSchema,
  /** The connect part of `hot` (the Neon benchmark's "hot connect"). */
  hotConnect: latencyStatsSchema,
  /** Per sample: cold total minus the hot total taken right after it. */
  coldStart: signedStatsSchema,
  pairs: z.array(coldPairSchema),
});

export const measurementSchema = z.strictObject({
  target: text(),
  kind: kind(),
  stats: latencyStatsSchema,
  histogram: histogramSchema,
  warmup: latencyStatsSchema,
  samples: z.strictObject({ cap: count(), dropped: count(), values: z.array(sampleSchema) }),
  errorsByClass: z.partialRecord(errorClass(), count(1)),
  /** The first few failures, redacted. */
  firstErrors: z.array(failureSchema).check(z.maxLength(10)),
  /** True when no measured sample succeeded. */
  failed: z.boolean(),
  /** Set when sampling stopped early (e.g. too many consecutive errors). */
  stoppedEarly: z.optional(text()),
  /**
   * The default count (no `iterations` asked for) this kind shortened to, so that it fit the run's
   * time bound (`timeouts.runMs`) rather than be cut off by it.
   */
  shortenedTo: z.optional(count(1)),
  /** What this kind reused between samples, so readers know what each sample paid for. */
  reused: z.array(text()),
  /** For kinds that connect per sample: the connect phase and the first query, apart. */
  phases: z.optional(
    z.strictObject({
      connect: latencyStatsSchema,
      firstQuery: latencyStatsSchema,
      /** Name lookup (absent when every host was an IP address or no socket could be watched). */
      dns: z.optional(latencyStatsSchema),
      /** TCP connection, from the driver's own socket: the wire's round trip, the target's network floor. */
      tcp: z.optional(latencyStatsSchema),
      /** The TLS handshake, for TLS connections. */
      tls: z.optional(latencyStatsSchema),
      /** The rest of connect after TCP and TLS: the protocol handshake and auth. */
      handshake: z.optional(latencyStatsSchema),
      /** Steps that could not be seen for this target, each with why (never a guess in their place). */
      unmeasured: z.optional(stepReasonsSchema),
      /** TLS handshakes seen on the samples' own sockets: full vs resumed. */
      tlsHandshakes: z.optional(z.strictObject({ full: count(), resumed: count() })),
    }),
  ),
  /** Wire accounting over the kind's samples: p50 of each count, the most frequent TLS/ALPN values. */
  wire: z.optional(measurementWireSchema),
  /** `load` kind: each level's throughput and latency, and where the target stopped keeping up. */
  load: z.optional(loadFiguresSchema),
  /** `schedule` kind: per-position latency, per-request totals and the model beside them. */
  schedule: z.optional(scheduleFiguresSchema),
  /** For the `cold` kind: the hot connect taken after each cold sample, and cold start = cold - hot. */
  cold: z.optional(coldFiguresSchema),
  /**
   * The database's own time for the workload, from the server (per sample or per run) with its
   * source, or a note saying why there is none. Absent in results saved before it was recorded, for
   * the `cold` and duration kinds, and where a caller left the per-run readings out.
   */
  serverTime: z.optional(serverTimeSchema),
  /**
   * The rows of the answer, where the driver streams them (pg, mysql2, mongodb; `subsequent`): with
   * many rows, the time to the first and to the last; with one, only the count. Absent for other
   * drivers and kinds, and in results saved before it was recorded.
   */
  rows: z.optional(rowsSchema),
});

const targetLayerSchema = z.strictObject({
  name: z.enum(ORM_LAYERS),
  package: text(),
  version: z.optional(text()),
  /** Where the copy measured came from ("your project", "your workspace"): the app's own. */
  from: z.optional(text()),
  /** The layer's path: the workload as raw SQL, or its typed query. Absent in older results: raw. */
  query: z.optional(z.enum(ORM_QUERY_PATHS)),
  /** The raw target measured beside this one in the same run. */
  over: text(),
});

export const targetInfoSchema = z.strictObject({
  name: text(),
  driver: text(),
  transport: z.enum(['tcp', 'http', 'ws', 'file']),
  /** The reference only (`env:VAR`), never the connection string. */
  connection: z.string().check(z.regex(/^(env|secret):/)),
  query: z.string(),
  /** Host and port, for labelling; never credentials. */
  endpoint: z.optional(text()),
  /**
   * The target's TLS trust setting, when it has one; `insecure` means certificates were not checked,
   * `insecureBy` what in the connection string turned the checks off when the target did not ask.
   */
  tls: z.optional(
    z.strictObject({
      caFile: z.optional(text()),
      insecure: z.optional(z.literal(true)),
      insecureBy: z.optional(text()),
      maxVersion: z.optional(z.enum(TLS_MAX_VERSIONS)),
    }),
  ),
  /** The HTTP version the target asked its fetch-based driver for; absent: Node's fetch's (HTTP/1.1). */
  http: z.optional(z.strictObject({ version: z.enum(HTTP_VERSIONS) })),
  /**
   * The ORM layer this target's queries went through, over the same driver and connection as the
   * raw target named in `over`; the version is the layer package's installed one.
   */
  layer: z.optional(targetLayerSchema),
});

const driverVersionSchema = z.strictObject({
  package: text(),
  version: text(),
  /**
   * Whose copy of the package was measured: the one the project installed (the app's own version),
   * or the one bundled with dbprobe (the project has none). Absent in results saved before it was
   * recorded, and for packages that are dbprobe's own transport (undici).
   */
  source: z.optional(z.enum(['project', 'bundled'])),
  /**
   * The node_modules folder the project's copy came from, when it is in none of the project's
   * folders (a parent folder's): named in its place, never called the workspace's.
   */
  folder: z.optional(text()),
  /** Why the bundled copy stood in, and what to do to measure the app's own. */
  note: z.optional(text()),
});

export const environmentSchema = z.strictObject({
  tool: z.strictObject({ name: text(), version: text() }),
  node: text(),
  os: z.strictObject({ platform: text(), release: text(), arch: text() }),
  cpus: z.strictObject({ count: count(), model: text() }),
  hostname: text(),
  clock: z.strictObject({ name: text(), unit: z.literal('us') }),
  drivers: z.record(z.string(), driverVersionSchema),
  /** Where the run happened: `local`, or a runner's label and region. */
  location: z.strictObject({ kind: z.enum(['local', 'runner']), label: text(), region: z.optional(text()) }),
});

/**
 * The host's state over a run, as evidence beside the figures: a difference or a change that
 * coincides with a busier client on one side is said to be the host's before it is said to be the
 * targets'. Each figure is absent where the platform does not give it; `sources` says what it read.
 */
const hostStateSchema = z.strictObject({
  /** What the figures were read from, e.g. ["schedstat", "pressure", "loadavg"]. */
  sources: z.array(text()),
  /** The probing thread's run-queue wait over the sampled kinds' timed time (0..1). */
  cpuWaitShare: z.optional(share()),
  /** Share of the run's wall time some task on the host waited for a CPU (/proc/pressure/cpu "some"). */
  cpuPressureShare: z.optional(share()),
  /** The 1-minute load average per core at the run's end. */
  loadPerCore: z.optional(amount()),
  /**
   * Per sampled target and kind: the probing thread's run-queue wait over the span of its samples
   * (gaps between them included), as a share of the span.
   */
  spans: z.optional(
    z.array(
      z.strictObject({
        target: text(),
        kind: kind(),
        waitShare: share(),
        /** How long a fixed piece of work took the thread over the span (ns, median): the host's CPU speed. */
        spinNs: z.optional(count()),
      }),
    ),
  ),
});

export const clientWatchSchema = z.strictObject({
  /**
   * The longest event-loop stall that overlapped a judged sample (0 when none did): the delay that
   * touched a figure. Stalls outside samples (start-up, the report) are in the max alone.
   */
  eventLoopDelayP99Us: spanUs(),
  /** The longest stall of the loop seen at all, start-up included. */
  eventLoopDelayMaxUs: spanUs(),
  cpuPercent: amount(),
  /** True when the client itself may have limited the figures; `note` says why. */
  bottleneck: z.boolean(),
  note: z.optional(text()),
  /** Per target and kind the client limited: loop stalls overlapped its samples (see clientWatch.ts). */
  limited: z.optional(
    z.array(z.strictObject({ target: text(), kind: kind(), worstUs: spanUs(), note: text() })),
  ),
  /** How busy the host was while the run measured; absent in results from before it was kept. */
  host: z.optional(hostStateSchema),
});

/** What is known when a run starts; the `start` event carries it so a listener can rebuild a result. */
const headerShape = {
  id: text().check(z.minLength(1)),
  startedAt: text().check(z.iso.datetime({ offset: true })),
  environment: environmentSchema,
  /** The plan as a result records it: how it was measured, without the targets (listed apart). */
  plan: resultPlanSchema,
  targets: z.array(targetInfoSchema),
};

/** What every result holds, whatever its state. */
const bodyShape = {
  schema: z.literal(RESULT_SCHEMA),
  ...headerShape,
  durationUs: spanUs(),
  measurements: z.array(measurementSchema).check(z.maxLength(100_000)),
  client: clientWatchSchema,
};

/**
 * A run result, keyed on `state`: a completed run has no stop reason; a stopped one always says why
 * (the user, or for a remote run the runner or the network that broke off), so a view never guesses.
 */
export const runResultSchema = z.discriminatedUnion(
  'state',
  [
    z.strictObject({ ...bodyShape, state: z.literal('completed'), stopReason: absent() }),
    z.strictObject({ ...bodyShape, state: z.literal('cancelled'), stopReason: text() }),
    z.strictObject({ ...bodyShape, state: z.literal('timedOut'), stopReason: text() }),
  ],
  { error: 'must say how the run ended: "state": "completed", "cancelled" or "timedOut"' },
);

export const runHeaderSchema = z.strictObject(headerShape);

export type SampleSuccess = z.output<typeof sampleSuccessSchema>;
export type SampleFailure = z.output<typeof sampleFailureSchema>;
export type SampleRecord = z.output<typeof sampleSchema>;
export type SampleWire = z.output<typeof sampleWireSchema>;
export type MeasurementWire = z.output<typeof measurementWireSchema>;
export type WireReasons = z.output<typeof wireReasonsSchema>;
export type ServerTime = z.output<typeof serverTimeSchema>;
export type AnswerRows = z.output<typeof rowsSchema>;
export type Measurement = z.output<typeof measurementSchema>;
export type ColdPair = z.output<typeof coldPairSchema>;
export type ColdFigures = z.output<typeof coldFiguresSchema>;
export type TargetInfo = z.output<typeof targetInfoSchema>;
export type TargetLayer = z.output<typeof targetLayerSchema>;
export type DriverVersion = z.output<typeof driverVersionSchema>;
export type RunEnvironment = z.output<typeof environmentSchema>;
export type ClientWatch = z.output<typeof clientWatchSchema>;
export type HostState = z.output<typeof hostStateSchema>;
export type RunHeader = z.output<typeof runHeaderSchema>;
export type RunResult = z.output<typeof runResultSchema>;

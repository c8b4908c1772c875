/**
 * A run result as OpenTelemetry data, named and attributed by the semantic conventions for database
 * clients: warm queries as `db.client.operation.duration`, new connections as
 * `db.client.connection.create_time` (both histograms in seconds; a failed sample joins its kind's
 * histogram with its time to failure and `error.type`), and one trace per connection sample with a
 * span per step of its anatomy (DNS, TCP, TLS, handshake, first query) carrying what was counted on
 * its wire.
 *
 * Pure: the CLI's exporter (src/cli/otlpExporter.ts) hands these records to the OpenTelemetry SDK.
 * Every attribute value passes through `redact`; hosts come from the result's endpoint (host and
 * port, never credentials).
 */
import { PER_SAMPLE_KINDS, PHASE_LABELS } from '../shared/connectPhases';
import type { ErrorClass } from '../shared/errors';
import type { ProbeKind } from '../shared/plan';
import type { Measurement, RunResult, SampleSuccess, TargetInfo } from '../shared/result';
import { WATCH_BUCKETS_US } from './watchMetrics';

/** The metric names, both from the semantic conventions: failures are in them, by `error.type`. */
export const OTEL_METRICS = {
  operationDuration: 'db.client.operation.duration',
  connectionCreateTime: 'db.client.connection.create_time',
} as const;
export type OtelHistogramName = (typeof OTEL_METRICS)[keyof typeof OTEL_METRICS];

/** Attribute names of the semantic conventions this mapping uses. */
export const SEMCONV = {
  dbSystemName: 'db.system.name',
  serverAddress: 'server.address',
  serverPort: 'server.port',
  errorType: 'error.type',
  tlsProtocolName: 'tls.protocol.name',
  tlsProtocolVersion: 'tls.protocol.version',
  tlsCipher: 'tls.cipher',
  tlsNextProtocol: 'tls.next_protocol',
  tlsResumed: 'tls.resumed',
} as const;

/**
 * The database each driver talks to, as the semantic conventions name it (`db.system.name`).
 * PlanetScale is MySQL (Vitess speaks its protocol); Upstash is Redis; libSQL is SQLite. The `http`
 * driver reaches any HTTP data API, whose database the tool cannot know.
 */
export const DB_SYSTEM_BY_DRIVER: Readonly<Record<string, string>> = {
  pg: 'postgresql',
  'neon-http': 'postgresql',
  'neon-ws': 'postgresql',
  mysql2: 'mysql',
  planetscale: 'mysql',
  ioredis: 'redis',
  upstash: 'redis',
  libsql: 'sqlite',
  mongodb: 'mongodb',
  http: 'other_sql',
};

/** Histogram bounds in seconds: the watch's Prometheus buckets, 50 µs to 30 s. */
export const OTEL_BUCKETS_SECONDS: readonly number[] = WATCH_BUCKETS_US.map((us) => us / 1e6);

/** At most this many connection samples of one target and kind become traces in one run. */
export const MAX_TRACES_PER_MEASUREMENT = 500;

export type OtelAttributes = Record<string, string | number | boolean>;

/**
 * Every measured value of one histogram with one attribute set, in seconds: the successes, or the
 * failures of one error class (`error.type` set) with their times to failure.
 */
export interface OtelSeries {
  metric: OtelHistogramName;
  attributes: OtelAttributes;
  seconds: number[];
}

/** A span with its children; times in microseconds since the Unix epoch. */
export interface OtelSpan {
  name: string;
  startUs: number;
  durationUs: number;
  attributes: OtelAttributes;
  children: OtelSpan[];
}

export interface OtelRun {
  series: OtelSeries[];
  /** One root span per connection sample exported as a trace. */
  traces: OtelSpan[];
  /** What the records leave out, said to the user (samples past the kept cap, traces past the limit). */
  notes: string[];
}

/** The kinds whose samples are one operation each; `load` and `schedule` are summaries, left out. */
const EXPORTED_KINDS: readonly ProbeKind[] = PER_SAMPLE_KINDS;

export function otelRunOf(result: RunResult, redact: (text: string) => string): OtelRun {
  const run: OtelRun = { series: [], traces: [], notes: [] };
  const startedAtUs = Date.parse(result.startedAt) * 1000;
  const place = redact(result.environment.location.label);
  for (const m of result.measurements) {
    if (!EXPORTED_KINDS.includes(m.kind)) {
      run.notes.push(
        `${m.target} ${m.kind}: not sent (OpenTelemetry gets one operation per initial, subsequent or cold sample; a ${m.kind} run's requests are summaries, in the report only)`,
      );
      continue;
    }
    const target = result.targets.find((t) => t.name === m.target);
    if (!target) continue;
    const base = { ...baseAttributes(target, redact), 'dbprobe.probe.kind': m.kind, 'dbprobe.place': place };
    const successes = m.samples.values.filter((s): s is SampleSuccess => s.us !== undefined);
    const metric =
      m.kind === 'subsequent' ? OTEL_METRICS.operationDuration : OTEL_METRICS.connectionCreateTime;
    if (m.kind === 'subsequent') {
      const seconds = successes.map((s) => s.us / 1e6);
      if (seconds.length > 0) run.series.push({ metric, attributes: base, seconds });
    } else {
      const seconds = successes.flatMap((s) => (s.connectUs !== undefined ? [s.connectUs / 1e6] : []));
      if (seconds.length > 0) run.series.push({ metric, attributes: base, seconds });
      const traced = successes.filter((s) => s.connectUs !== undefined);
      for (const sample of traced.slice(0, MAX_TRACES_PER_MEASUREMENT))
        run.traces.push(connectionTrace(sample, m, startedAtUs, base, redact));
      if (traced.length > MAX_TRACES_PER_MEASUREMENT)
        run.notes.push(
          `${m.target} ${m.kind}: traces of the first ${MAX_TRACES_PER_MEASUREMENT} of ${traced.length} connections were exported`,
        );
    }
    if (m.samples.dropped > 0)
      run.notes.push(
        `${m.target} ${m.kind}: ${m.samples.dropped} samples past the result's cap of ${m.samples.cap} are not in the histograms (the report's percentiles count them)`,
      );
    failureSeries(m, metric, base, run);
  }
  return run;
}

/**
 * The measurement's kept failures, one series per error class, each at its time to failure. A
 * sample cut short by a cancel says nothing about the database and is left out; a failure with no
 * time kept (sent by a runner of an earlier version) cannot join a histogram and is said in the notes.
 */
function failureSeries(m: Measurement, metric: OtelHistogramName, base: OtelAttributes, run: OtelRun): void {
  const byClass = new Map<ErrorClass, number[]>();
  let untimed = 0;
  for (const sample of m.samples.values) {
    if (sample.error === undefined || sample.error === 'cancelled') continue;
    if (sample.failedAfterUs === undefined) {
      untimed += 1;
      continue;
    }
    const seconds = byClass.get(sample.error) ?? [];
    seconds.push(sample.failedAfterUs / 1e6);
    byClass.set(sample.error, seconds);
  }
  for (const [errorClass, seconds] of byClass)
    run.series.push({ metric, attributes: { ...base, [SEMCONV.errorType]: errorClass }, seconds });
  if (untimed > 0)
    run.notes.push(
      `${m.target} ${m.kind}: ${untimed} failed samples kept no time to failure (a runner of an earlier version) and are not in the histograms`,
    );
}

/** What every record of a target carries: its database, its server (never credentials), its name. */
function baseAttributes(target: TargetInfo, redact: (text: string) => string): OtelAttributes {
  const attributes: OtelAttributes = {
    [SEMCONV.dbSystemName]: DB_SYSTEM_BY_DRIVER[target.driver] ?? 'other_sql',
  };
  const server = serverOf(target.endpoint);
  if (server) {
    attributes[SEMCONV.serverAddress] = redact(server.address);
    if (server.port !== undefined) attributes[SEMCONV.serverPort] = server.port;
  }
  attributes['dbprobe.target'] = redact(target.name);
  attributes['dbprobe.driver'] = target.driver;
  // Figures from a server whose certificate was not checked are marked wherever they go.
  if (target.tls?.insecure)
    attributes['dbprobe.tls.not_verified'] = redact(target.tls.insecureBy ?? 'the target sets tls.insecure');
  return attributes;
}

/**
 * `host:port`, `host`, `[v6]:port` as the result's endpoint holds them; none for an embedded file.
 * The port is absent when the connection string left it to the default, as the conventions allow.
 */
export function serverOf(endpoint: string | undefined): { address: string; port?: number } | undefined {
  if (!endpoint || endpoint === 'embedded file') return undefined;
  const match = /^(?:\[([^\]]+)\]|([^:[\]]+))(?::(\d{1,5}))?$/.exec(endpoint);
  if (!match) return undefined;
  const address = match[1] ?? match[2] ?? '';
  return match[3] !== undefined ? { address, port: Number(match[3]) } : { address };
}

/**
 * One connection sample as a trace: a root span over the sample (connect + first query) with the
 * wire's counts, and one child per step, laid end to end in the order they happen (the durations
 * are measured; the handshake is what connect took beyond the steps before it).
 */
function connectionTrace(
  sample: SampleSuccess,
  m: Measurement,
  startedAtUs: number,
  base: OtelAttributes,
  redact: (text: string) => string,
): OtelSpan {
  const startUs = startedAtUs + sample.atUs;
  const root: OtelSpan = {
    name: `${m.kind} ${String(base['dbprobe.target'])}`,
    startUs,
    durationUs: sample.us,
    attributes: { ...base, ...wireAttributes(sample, m, redact) },
    children: [],
  };
  let atUs = startUs;
  const step = (name: string, durationUs: number, attributes: OtelAttributes = {}) => {
    root.children.push({
      name,
      startUs: atUs,
      durationUs,
      attributes: { ...base, ...attributes },
      children: [],
    });
    atUs += durationUs;
  };
  const split = [sample.dnsUs, sample.tcpUs, sample.tlsUs, sample.handshakeUs].some((us) => us !== undefined);
  if (split) {
    if (sample.dnsUs !== undefined) step(PHASE_LABELS.dns, sample.dnsUs);
    if (sample.tcpUs !== undefined)
      step(
        PHASE_LABELS.tcp,
        sample.tcpUs,
        sample.wire?.tcpHandshakes !== undefined
          ? { 'dbprobe.wire.tcp_handshakes': sample.wire.tcpHandshakes }
          : {},
      );
    if (sample.tlsUs !== undefined) step(PHASE_LABELS.tls, sample.tlsUs, tlsAttributes(sample));
    if (sample.handshakeUs !== undefined) step(PHASE_LABELS.handshake, sample.handshakeUs);
  } else {
    // The driver's socket could not be watched: connect is one span, with why it is not split.
    const why = Object.entries(m.phases?.unmeasured ?? {})
      .map(([name, reason]) => `${name}: ${reason}`)
      .join('; ');
    step('connect', sample.connectUs ?? 0, why ? { 'dbprobe.phases.unmeasured': redact(why) } : {});
  }
  atUs = startUs + (sample.connectUs ?? 0);
  step(PHASE_LABELS.firstQuery, Math.max(0, sample.us - (sample.connectUs ?? 0)));
  return root;
}

/** The sample's counted wire: round trips (TLS turns included), TCP handshakes, bytes, ALPN. */
function wireAttributes(
  sample: SampleSuccess,
  m: Measurement,
  redact: (text: string) => string,
): OtelAttributes {
  const wire = sample.wire;
  const attributes: OtelAttributes = {};
  if (wire?.roundTrips !== undefined) attributes['dbprobe.wire.round_trips'] = wire.roundTrips;
  else if (m.wire?.unmeasured?.roundTrips)
    attributes['dbprobe.wire.round_trips.unmeasured'] = redact(m.wire.unmeasured.roundTrips);
  if (wire?.tcpHandshakes !== undefined) attributes['dbprobe.wire.tcp_handshakes'] = wire.tcpHandshakes;
  if (wire?.bytesSent !== undefined) attributes['dbprobe.wire.bytes_sent'] = wire.bytesSent;
  if (wire?.bytesReceived !== undefined) attributes['dbprobe.wire.bytes_received'] = wire.bytesReceived;
  if (wire?.alpn) attributes[SEMCONV.tlsNextProtocol] = wire.alpn;
  return attributes;
}

/** "TLSv1.3" as the conventions split it: protocol name `tls`, version `1.3`. */
function tlsAttributes(sample: SampleSuccess): OtelAttributes {
  const attributes: OtelAttributes = {};
  const version = /^TLSv(\d+(?:\.\d+)?)$/.exec(sample.wire?.tlsVersion ?? '');
  if (version?.[1]) {
    attributes[SEMCONV.tlsProtocolName] = 'tls';
    attributes[SEMCONV.tlsProtocolVersion] = version[1];
  }
  if (sample.wire?.tlsCipher) attributes[SEMCONV.tlsCipher] = sample.wire.tlsCipher;
  if (sample.tlsResumed !== undefined) attributes[SEMCONV.tlsResumed] = sample.tlsResumed;
  return attributes;
}

/**
 * OpenTelemetry out: hands each run's records (src/report/otelRecords.ts) to the OpenTelemetry JS
 * SDK, which sends them over OTLP/HTTP, as protobuf or JSON bodies (each signal's protocol picks the
 * SDK's exporter for it). One meter provider lives as long as the command, so the
 * histograms are cumulative across a watch's runs; traces are built from each result's samples with
 * their measured times.
 *
 * The receiver is a guest: a run's report and exit code never depend on it. An export that fails or
 * does not answer in time is said on stderr once (and once more when it works again, in a watch),
 * redacted; every flush has a deadline, so a receiver that hangs cannot hold the CLI open.
 */
import { ROOT_CONTEXT, SpanKind, trace, type Tracer } from '@opentelemetry/api';
import { OTLPMetricExporter as JsonMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as ProtobufMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter as JsonTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as ProtobufTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { MeterProvider, PeriodicExportingMetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import {
  OTEL_BUCKETS_SECONDS,
  OTEL_METRICS,
  otelRunOf,
  type OtelRun,
  type OtelSpan,
} from '../report/otelRecords';
import type { Redactor } from '../shared/redact';
import type { RunResult } from '../shared/result';
import { TOOL } from '../shared/version';
import type { CliIo } from './io';
import { OTLP_CANCEL_FLUSH_MS, type OtlpConfig, type OtlpSignal } from './otlpConfig';

export interface OtlpExport {
  /** Records a finished (or cancelled, partial) run; nothing is sent until flush. */
  record(result: RunResult): void;
  /** Sends what was recorded, waiting at most `deadlineMs`; never throws. */
  flush(deadlineMs?: number): Promise<void>;
  /** Sends what is left and stops, within `deadlineMs`. */
  shutdown(deadlineMs?: number): Promise<void>;
}

/** The ExportResult the SDK hands back (its type lives in @opentelemetry/core). */
interface ExportOutcome {
  code: number;
  error?: Error;
}
type ExportCallback = (result: ExportOutcome) => void;

/** Spans one flush may queue: the traces of a run of several targets, each at the per-kind limit. */
const MAX_QUEUED_SPANS = 100_000;
/** The periodic reader's own timer: runs are flushed when they end, so this only backs them up. */
const METRIC_INTERVAL_MS = 60_000;

export function startOtlpExport(config: OtlpConfig, redactor: Redactor, io: CliIo): OtlpExport {
  const resource = resourceFromAttributes({ ...config.resource, 'service.version': TOOL.version });
  const status = new ExportStatus(redactor, io);
  const timeoutMillis = config.timeoutMs;

  let meters: MeterProvider | undefined;
  let recordMetrics: ((run: OtelRun) => void) | undefined;
  let tracer: Tracer | undefined;
  let tracers: BasicTracerProvider | undefined;
  if (config.metrics) {
    const Exporter = config.metrics.protocol === 'http/json' ? JsonMetricExporter : ProtobufMetricExporter;
    const exporter = new Exporter({
      url: config.metrics.url,
      headers: config.metrics.headers,
      timeoutMillis,
    });
    status.watch(exporter, 'metrics', config.metrics.url);
    meters = new MeterProvider({
      resource,
      readers: [
        new PeriodicExportingMetricReader({
          exporter,
          exportIntervalMillis: Math.max(METRIC_INTERVAL_MS, timeoutMillis),
          exportTimeoutMillis: timeoutMillis,
        }),
      ],
    });
    recordMetrics = meteredRecorder(meters);
  }
  if (config.traces) {
    const Exporter = config.traces.protocol === 'http/json' ? JsonTraceExporter : ProtobufTraceExporter;
    const exporter = new Exporter({
      url: config.traces.url,
      headers: config.traces.headers,
      timeoutMillis,
    });
    status.watch(exporter, 'traces', config.traces.url);
    tracers = new BasicTracerProvider({
      resource,
      spanProcessors: [
        new BatchSpanProcessor(exporter, {
          maxQueueSize: MAX_QUEUED_SPANS,
          maxExportBatchSize: 1_000,
          exportTimeoutMillis: timeoutMillis,
        }),
      ],
    });
    tracer = tracers.getTracer(TOOL.name, TOOL.version);
  }

  const providers = () => [meters, tracers].filter((p) => p !== undefined);
  return {
    record(result) {
      const run = otelRunOf(result, (text) => redactor.redact(text));
      recordMetrics?.(run);
      if (tracer) for (const root of run.traces) startTrace(tracer, root);
      status.notes(run.notes);
    },
    async flush(deadlineMs = timeoutMillis) {
      await status.within(deadlineMs, Promise.allSettled(providers().map((p) => p.forceFlush())));
    },
    async shutdown(deadlineMs = timeoutMillis) {
      await status.within(deadlineMs, Promise.allSettled(providers().map((p) => p.shutdown())));
    },
  };
}

/** The two histograms of the conventions, fed from each run's records (failures by `error.type`). */
function meteredRecorder(meters: MeterProvider): (run: OtelRun) => void {
  const meter = meters.getMeter(TOOL.name, TOOL.version);
  const advice = { explicitBucketBoundaries: [...OTEL_BUCKETS_SECONDS] };
  const histograms = {
    [OTEL_METRICS.operationDuration]: meter.createHistogram(OTEL_METRICS.operationDuration, {
      unit: 's',
      description:
        'Duration of database client operations: each warm query (subsequent) a probe timed; a failed one until it failed, with error.type.',
      advice,
    }),
    [OTEL_METRICS.connectionCreateTime]: meter.createHistogram(OTEL_METRICS.connectionCreateTime, {
      unit: 's',
      description:
        'The time it took to create a new connection: the connect of each initial and cold sample; a failed sample until it failed, with error.type.',
      advice,
    }),
  };
  return (run) => {
    for (const series of run.series)
      for (const seconds of series.seconds) histograms[series.metric].record(seconds, series.attributes);
  };
}

/** One trace: the root span (a client call) with its children, at the sample's own times. */
function startTrace(tracer: Tracer, root: OtelSpan): void {
  const span = tracer.startSpan(
    root.name,
    { kind: SpanKind.CLIENT, startTime: hrTimeOf(root.startUs), attributes: root.attributes },
    ROOT_CONTEXT,
  );
  const parent = trace.setSpan(ROOT_CONTEXT, span);
  for (const child of root.children) {
    tracer
      .startSpan(child.name, { startTime: hrTimeOf(child.startUs), attributes: child.attributes }, parent)
      .end(hrTimeOf(child.startUs + child.durationUs));
  }
  span.end(hrTimeOf(root.startUs + root.durationUs));
}

/** Epoch microseconds as [seconds, nanoseconds]: a number of milliseconds would round them. */
function hrTimeOf(epochUs: number): [number, number] {
  const seconds = Math.floor(epochUs / 1e6);
  return [seconds, Math.round(epochUs - seconds * 1e6) * 1000];
}

/**
 * Watches every export's outcome and speaks when it changes: the first failure of a signal (and of
 * the whole, when a flush outlives its deadline), then a recovery. Never throws.
 */
class ExportStatus {
  private readonly failing = new Set<string>();
  private readonly noted = new Set<string>();

  constructor(
    private readonly redactor: Redactor,
    private readonly io: CliIo,
  ) {}

  watch(
    exporter: { export: (items: never, done: ExportCallback) => void },
    signal: OtlpSignal,
    url: string,
  ): void {
    const send = exporter.export.bind(exporter) as (items: unknown, done: ExportCallback) => void;
    (exporter as { export: (items: unknown, done: ExportCallback) => void }).export = (items, done) =>
      send(items, (result) => {
        this.outcome(signal, url, result);
        done(result);
      });
  }

  /** What the export leaves out, said once (a watch would repeat it every run). */
  notes(notes: readonly string[]): void {
    for (const note of notes) {
      if (this.noted.has(note)) continue;
      this.noted.add(note);
      this.say(`OpenTelemetry: ${note}`);
    }
  }

  async within(deadlineMs: number, work: Promise<unknown>): Promise<void> {
    const timers: NodeJS.Timeout[] = [];
    const signal = this.io.signal;
    let onAbort = () => {};
    const late = new Promise<'late' | 'stopped'>((resolve) => {
      const after = (ms: number, why: 'late' | 'stopped') => {
        const timer = setTimeout(() => resolve(why), ms);
        timer.unref();
        timers.push(timer);
      };
      after(deadlineMs, 'late');
      // A signal during an export leaves it one more second at most: the user asked to stop.
      onAbort = () => after(OTLP_CANCEL_FLUSH_MS, 'stopped');
      if (!signal.aborted) signal.addEventListener('abort', onAbort, { once: true });
    });
    const outcome = await Promise.race([work.then(() => 'done' as const), late]);
    for (const timer of timers) clearTimeout(timer);
    signal.removeEventListener('abort', onAbort);
    if (outcome === 'stopped')
      this.say(
        `OpenTelemetry: stopped before the receiver took the data (it had ${formatSeconds(OTLP_CANCEL_FLUSH_MS)} after the signal); the run's report stands without it`,
      );
    else if (outcome === 'late' && !this.failing.has('deadline')) {
      this.failing.add('deadline');
      this.say(
        `OpenTelemetry: the receiver did not take the data within ${formatSeconds(deadlineMs)}; the run's report stands without it (raise OTEL_EXPORTER_OTLP_TIMEOUT, or check the receiver)`,
      );
    } else if (outcome === 'done') this.failing.delete('deadline');
  }

  private outcome(signal: OtlpSignal, url: string, result: ExportOutcome): void {
    // ExportResultCode.SUCCESS is 0.
    if (result.code === 0) {
      if (this.failing.delete(signal)) this.say(`OpenTelemetry: ${signal} reach ${url} again`);
      return;
    }
    if (this.failing.has(signal)) return;
    this.failing.add(signal);
    const why = readableExportError(result.error?.message);
    this.say(
      `OpenTelemetry: could not send the ${signal} to ${url} (${why}); the run's report stands, these figures are not in the receiver: check that it is up and takes OTLP over HTTP`,
    );
  }

  private say(line: string): void {
    this.io.stderr.write(`dbprobe: ${this.redactor.redact(line)}\n`);
  }
}

// The SDK drops the HTTP status of a retryable answer; say what such an answer is instead.
const SDK_RETRYABLE = 'Export failed with retryable status';

function readableExportError(message: string | undefined): string {
  if (message === undefined) return 'no reason given';
  if (message === SDK_RETRYABLE)
    return 'the receiver kept answering 429, 502, 503 or 504 (busy or unavailable) until the retries ran out';
  return message;
}

function formatSeconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`;
}

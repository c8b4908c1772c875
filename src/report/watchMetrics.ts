/**
 * The state of `dbprobe watch`, fixed in size however long it runs: per target and kind, a
 * cumulative histogram of every measured sample, the last run's HDR quantiles (a summary), errors by
 * class, cold starts, and the health the shared judgement gives (success, last success). It grows
 * only with the targets, kinds and error classes of the plan, never with time. prom-client keeps the
 * series and writes the Prometheus text; every label value passes through `redact` on its way in.
 */
import { Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { ProbeEvent } from '../shared/events';
import {
  failedRunOutcome,
  judgeHealth,
  runOutcomeOf,
  type TargetHealth,
  type WatchRunOutcome,
} from '../shared/judgement/judgeHealth';
import type { RunResult } from '../shared/result';
import { TOOL } from '../shared/version';
import { type QuantileFigures, RunQuantiles } from './runQuantiles';

/**
 * Upper bounds in microseconds, 50 µs to 30 s: a loopback query lands in the first buckets, a
 * cross-region TLS connect around 100-500 ms, a cold start of a suspended database in seconds.
 */
export const WATCH_BUCKETS_US: readonly number[] = [
  50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000,
  2_500_000, 5_000_000, 10_000_000, 30_000_000,
];

/** What the watch probes: known before its first run, so a first run that fails still names them. */
export interface WatchedPlan {
  targets: readonly { name: string; driver: string }[];
  kinds: readonly string[];
}

/** What `dbprobe_build_info` says: the tool's version and the Node.js running it. */
export interface WatchBuild {
  version: string;
  node: string;
}

export interface WatchMetricsOptions {
  build?: WatchBuild;
  /** Sees every label value (target names, never connections) before it is kept. */
  redact?: (text: string) => string;
}

type SeriesLabels = Record<'target' | 'driver' | 'kind', string>;

const SERIES = ['target', 'driver', 'kind'] as const;
const HEALTH = ['target', 'kind'] as const;

export class WatchMetrics {
  private readonly registry = new Registry();
  private readonly redact: (text: string) => string;
  private readonly drivers = new Map<string, string>();
  /** Redacted labels per target and kind, made once: redaction runs per series, not per sample. */
  private readonly labels = new Map<string, { driver: string; labels: SeriesLabels }>();
  private targets: string[];
  private kinds: string[];
  private judged: TargetHealth[] = [];

  private readonly latency = new Histogram({
    name: 'dbprobe_probe_seconds',
    help: 'Latency of each measured sample (warm-up excluded), cumulative since the watch started.',
    labelNames: SERIES,
    buckets: WATCH_BUCKETS_US.map((us) => us / 1e6),
    registers: [this.registry],
  });
  private readonly quantiles = new RunQuantiles<(typeof SERIES)[number]>({
    name: 'dbprobe_probe_quantile_seconds',
    help: 'Quantiles (0.5, 0.99) of the last run, from its HDR histogram, not bucket-interpolated (few samples make 0.99 the maximum); absent when the last run measured nothing.',
    labelNames: SERIES,
    registers: [this.registry],
  });
  private readonly errors = new Counter({
    name: 'dbprobe_probe_errors_total',
    help: 'Failed samples by error class (dns, tcp, tls, auth, timeout, ...), since the watch started.',
    labelNames: [...HEALTH, 'class'],
    registers: [this.registry],
  });
  private readonly success = new Gauge({
    name: 'dbprobe_probe_success',
    help: 'Whether the last run measured this target and kind: 1 when at least one sample answered, 0 when none did.',
    labelNames: HEALTH,
    registers: [this.registry],
  });
  private readonly lastSuccess = new Gauge({
    name: 'dbprobe_probe_last_success_timestamp_seconds',
    help: 'When the last run that measured this target and kind ended (Unix seconds); absent until one has.',
    labelNames: HEALTH,
    registers: [this.registry],
  });
  private readonly tlsVerified = new Gauge({
    name: 'dbprobe_target_tls_verified',
    help: "Whether the last run checked the target's server certificate: 0 when tls.insecure or its connection string turned the checks off (its figures may come from an impostor), 1 otherwise.",
    labelNames: ['target'] as const,
    registers: [this.registry],
  });
  private readonly coldStarts = new Counter({
    name: 'dbprobe_cold_starts_total',
    help: 'Cold starts measured (cold connect minus the hot connect taken right after it).',
    labelNames: SERIES,
    registers: [this.registry],
  });
  private readonly coldQuantiles = new RunQuantiles<(typeof SERIES)[number]>({
    name: 'dbprobe_cold_start_quantile_seconds',
    help: 'Quantiles (0.5, 0.99) of the cold start (cold minus hot) of the last run that measured one; absent when the last run measured nothing.',
    labelNames: SERIES,
    registers: [this.registry],
  });
  private readonly runs = new Counter({
    name: 'dbprobe_watch_runs_total',
    help: 'Runs finished (or failed) since the watch started.',
    registers: [this.registry],
  });
  private readonly lastRunDuration = new Gauge({
    name: 'dbprobe_watch_last_run_duration_seconds',
    help: 'How long the last run that left a result took; absent until one has.',
    registers: [this.registry],
  });
  private readonly lastRunEnded = new Gauge({
    name: 'dbprobe_watch_last_run_timestamp_seconds',
    help: 'When the last run (finished or failed) ended, Unix seconds; absent before the first.',
    registers: [this.registry],
  });

  constructor(plan?: WatchedPlan, options: WatchMetricsOptions = {}) {
    this.redact = options.redact ?? ((text) => text);
    this.targets = plan?.targets.map((t) => t.name) ?? [];
    this.kinds = [...(plan?.kinds ?? [])];
    for (const target of plan?.targets ?? []) this.drivers.set(target.name, target.driver);
    // An unlabelled gauge starts at 0; these say nothing until a run has ended.
    this.lastRunDuration.remove({});
    this.lastRunEnded.remove({});
    const build = options.build ?? { version: TOOL.version, node: nodeVersion() };
    new Gauge({
      name: 'dbprobe_build_info',
      help: "The watch's dbprobe version and the Node.js running it; always 1.",
      labelNames: ['version', 'node'],
      registers: [this.registry],
    }).set({ version: this.redact(build.version), node: this.redact(build.node) }, 1);
  }

  /** The Content-Type of what `render` answers. */
  get contentType(): string {
    return this.registry.contentType;
  }

  /** Each target's health as of the last run (empty before the first). */
  get health(): readonly TargetHealth[] {
    return this.judged;
  }

  /** Counts each measured sample into its bucket; warm-up and failed samples are not latencies. */
  onEvent(event: ProbeEvent): void {
    if (event.type === 'start') {
      for (const target of event.header.targets) this.drivers.set(target.name, target.driver);
      return;
    }
    if (event.type !== 'sample' || event.phase !== 'measure' || event.us === undefined) return;
    this.latency.observe(this.labelsOf(event.target, event.kind), event.us / 1e6);
  }

  /**
   * The run's own figures: HDR percentiles (exact within the histogram's precision), errors, cold,
   * health. `failure` says why a place failed when `result` is the partial result it left. Answers
   * the health judged from it.
   */
  onResult(result: RunResult, failure?: string): readonly TargetHealth[] {
    this.runs.inc();
    this.lastRunDuration.set(result.durationUs / 1e6);
    this.targets = result.targets.map((t) => t.name);
    this.kinds = [...result.plan.kinds];
    for (const target of result.targets) {
      this.drivers.set(target.name, target.driver);
      this.tlsVerified.set({ target: this.redact(target.name) }, target.tls?.insecure === true ? 0 : 1);
    }
    for (const m of result.measurements) {
      const labels = this.labelsOf(m.target, m.kind);
      if (m.stats.count > 0) this.quantiles.setQuantiles(labels, figures(m.stats));
      for (const [cls, n] of Object.entries(m.errorsByClass)) {
        if (n) this.errors.inc({ target: labels.target, kind: labels.kind, class: this.redact(cls) }, n);
      }
      if (m.kind === 'cold') this.coldStarts.inc(labels, m.cold?.coldStart.count ?? 0);
      if (m.cold && m.cold.coldStart.count > 0)
        this.coldQuantiles.setQuantiles(labels, figures(m.cold.coldStart));
    }
    return this.judge(runOutcomeOf(result, failure));
  }

  /** A run that left no result at all: every target and kind measured nothing. Answers the health. */
  onRunFailed(failure: string, endedAt: Date): readonly TargetHealth[] {
    this.runs.inc();
    return this.judge(failedRunOutcome(this.targets, this.kinds, endedAt.toISOString(), failure));
  }

  /** The exposition text, Prometheus's text format 0.0.4. */
  render(): Promise<string> {
    return this.registry.metrics();
  }

  /**
   * A latency series of a target and kind the last run did not measure is removed, not left at its
   * last healthy value: a dashboard then shows a gap (and the success gauge 0), never a flat line.
   */
  private judge(run: WatchRunOutcome): readonly TargetHealth[] {
    for (const outcome of run.kinds) {
      if (outcome.measured > 0) continue;
      const labels = this.labelsOf(outcome.target, outcome.kind);
      this.quantiles.clearQuantiles(labels);
      this.coldQuantiles.clearQuantiles(labels);
    }
    this.lastRunEnded.set(Date.parse(run.endedAt) / 1_000);
    this.judged = judgeHealth(run, this.judged);
    // The health gauges say what the last judgement says, nothing older.
    this.success.reset();
    this.lastSuccess.reset();
    for (const h of this.judged) {
      for (const k of h.kinds) {
        const labels = { target: this.redact(h.target), kind: this.redact(k.kind) };
        this.success.set(labels, k.up ? 1 : 0);
        if (k.lastSuccessAt !== undefined) this.lastSuccess.set(labels, Date.parse(k.lastSuccessAt) / 1_000);
      }
    }
    return this.judged;
  }

  private labelsOf(target: string, kind: string): SeriesLabels {
    const driver = this.drivers.get(target) ?? 'unknown';
    const key = `${target}\u0000${kind}`;
    const known = this.labels.get(key);
    if (known?.driver === driver) return known.labels;
    const labels = { target: this.redact(target), driver: this.redact(driver), kind: this.redact(kind) };
    this.labels.set(key, { driver, labels });
    // A series known to the watch has its histogram from then on, zero until a sample answers: an
    // error rate over it then has a denominator even for a target that never answered.
    this.latency.zero(labels);
    return labels;
  }
}

/** The quantiles a summary serves, in seconds, from a run's HDR figures in microseconds. */
function figures(stats: { p50Us: number; p99Us: number }): QuantileFigures {
  return [
    [0.5, stats.p50Us / 1e6],
    [0.99, stats.p99Us / 1e6],
  ];
}

/** The Node.js version, or `unknown` where there is no `process` (a Worker without Node compatibility). */
function nodeVersion(): string {
  return typeof process === 'undefined' ? 'unknown' : process.version;
}

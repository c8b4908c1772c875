/**
 * The state of `dbprobe watch`, fixed in size however long it runs: per target and kind, cumulative
 * bucket counters, sum and count of every measured sample, the last run's HDR quantiles (gauges with
 * a `quantile` label), errors by class, cold starts, and the health the shared judgement gives
 * (success, last success). It grows only with the targets, kinds and error classes of the plan,
 * never with time. Rendered as Prometheus text; every label value passes through `redact`.
 */
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
import { type PromFamily, type PromSample, formatPromText } from './promText';

/**
 * Upper bounds in microseconds, 50 µs to 30 s: a loopback query lands in the first buckets, a
 * cross-region TLS connect around 100-500 ms, a cold start of a suspended database in seconds.
 */
export const WATCH_BUCKETS_US: readonly number[] = [
  50, 100, 250, 500, 1_000, 2_500, 5_000, 10_000, 25_000, 50_000, 100_000, 250_000, 500_000, 1_000_000,
  2_500_000, 5_000_000, 10_000_000, 30_000_000,
];

interface Series {
  target: string;
  kind: string;
  /** Per bucket, not cumulative; the last slot is +Inf. */
  buckets: number[];
  sumUs: number;
  count: number;
  p50Us?: number;
  p99Us?: number;
  errors: Map<string, number>;
  coldStarts: number;
  coldStartP50Us?: number;
  coldStartP99Us?: number;
}

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

/**
 * The quantiles of the last run exposed as gauges, by label value. The figures are the run's own
 * HDR percentiles; a `quantile` label (as a Prometheus summary has) rather than one metric per
 * percentile, so one query or alert rule covers them all.
 */
const QUANTILES: readonly { label: string; pick: (s: Series) => number | undefined }[] = [
  { label: '0.5', pick: (s) => s.p50Us },
  { label: '0.99', pick: (s) => s.p99Us },
];
const COLD_QUANTILES: readonly { label: string; pick: (s: Series) => number | undefined }[] = [
  { label: '0.5', pick: (s) => s.coldStartP50Us },
  { label: '0.99', pick: (s) => s.coldStartP99Us },
];

export class WatchMetrics {
  private readonly series = new Map<string, Series>();
  private readonly drivers = new Map<string, string>();
  /** Per target, whether the last run checked its server certificate (false: tls.insecure or a bypass). */
  private readonly tlsVerified = new Map<string, boolean>();
  private runs = 0;
  private lastRunDurationSeconds?: number;
  private lastRunEndedAt?: string;
  private readonly build: WatchBuild;
  private targets: string[];
  private kinds: string[];
  private judged: TargetHealth[] = [];

  constructor(plan?: WatchedPlan, build: WatchBuild = { version: TOOL.version, node: nodeVersion() }) {
    this.build = build;
    this.targets = plan?.targets.map((t) => t.name) ?? [];
    this.kinds = [...(plan?.kinds ?? [])];
    for (const target of plan?.targets ?? []) this.drivers.set(target.name, target.driver);
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
    const s = this.seriesOf(event.target, event.kind);
    const index = WATCH_BUCKETS_US.findIndex((bound) => event.us <= bound);
    const slot = index === -1 ? WATCH_BUCKETS_US.length : index;
    s.buckets[slot] = (s.buckets[slot] ?? 0) + 1;
    s.sumUs += event.us;
    s.count += 1;
  }

  /**
   * The run's own figures: HDR percentiles (exact within the histogram's precision), errors, cold,
   * health. `failure` says why a place failed when `result` is the partial result it left. Answers
   * the health judged from it.
   */
  onResult(result: RunResult, failure?: string): readonly TargetHealth[] {
    this.runs += 1;
    this.lastRunDurationSeconds = result.durationUs / 1e6;
    this.targets = result.targets.map((t) => t.name);
    this.kinds = [...result.plan.kinds];
    for (const target of result.targets) {
      this.drivers.set(target.name, target.driver);
      this.tlsVerified.set(target.name, target.tls?.insecure !== true);
    }
    for (const m of result.measurements) {
      const s = this.seriesOf(m.target, m.kind);
      if (m.stats.count > 0) {
        s.p50Us = m.stats.p50Us;
        s.p99Us = m.stats.p99Us;
      }
      for (const [cls, n] of Object.entries(m.errorsByClass)) {
        if (n) s.errors.set(cls, (s.errors.get(cls) ?? 0) + n);
      }
      if (m.cold && m.cold.coldStart.count > 0) {
        s.coldStarts += m.cold.coldStart.count;
        s.coldStartP50Us = m.cold.coldStart.p50Us;
        s.coldStartP99Us = m.cold.coldStart.p99Us;
      }
    }
    return this.judge(runOutcomeOf(result, failure));
  }

  /** A run that left no result at all: every target and kind measured nothing. Answers the health. */
  onRunFailed(failure: string, endedAt: Date): readonly TargetHealth[] {
    this.runs += 1;
    return this.judge(failedRunOutcome(this.targets, this.kinds, endedAt.toISOString(), failure));
  }

  /**
   * A latency gauge of a target and kind the last run did not measure is removed, not left at its
   * last healthy value: a dashboard then shows a gap (and the success gauge 0), never a flat line.
   */
  private judge(run: WatchRunOutcome): readonly TargetHealth[] {
    for (const outcome of run.kinds) {
      if (outcome.measured > 0) continue;
      const s = this.series.get(seriesKey(outcome.target, outcome.kind));
      if (!s) continue;
      delete s.p50Us;
      delete s.p99Us;
      delete s.coldStartP50Us;
      delete s.coldStartP99Us;
    }
    this.lastRunEndedAt = run.endedAt;
    this.judged = judgeHealth(run, this.judged);
    return this.judged;
  }

  /** The exposition text; `redact` sees every label value (target names, never connections). */
  render(redact: (text: string) => string): string {
    const all = [...this.series.values()];
    const ids = (s: Series): [string, string][] => [
      ['target', redact(s.target)],
      ['driver', redact(this.drivers.get(s.target) ?? 'unknown')],
      ['kind', redact(s.kind)],
    ];
    const histogram: PromSample[] = [];
    for (const s of all) {
      let cumulative = 0;
      WATCH_BUCKETS_US.forEach((bound, i) => {
        cumulative += s.buckets[i] ?? 0;
        histogram.push({
          suffix: '_bucket',
          labels: [...ids(s), ['le', String(bound / 1e6)]],
          value: cumulative,
        });
      });
      histogram.push({ suffix: '_bucket', labels: [...ids(s), ['le', '+Inf']], value: s.count });
      histogram.push({ suffix: '_sum', labels: ids(s), value: s.sumUs / 1e6 });
      histogram.push({ suffix: '_count', labels: ids(s), value: s.count });
    }
    const quantiles = (of: readonly Series[], which: typeof QUANTILES): PromSample[] =>
      of.flatMap((s) =>
        which.flatMap(({ label, pick }) => {
          const us = pick(s);
          return us === undefined
            ? []
            : [{ labels: [...ids(s), ['quantile', label] as const], value: us / 1e6 }];
        }),
      );
    const families: PromFamily[] = [
      {
        name: 'dbprobe_probe_seconds',
        help: 'Latency of each measured sample (warm-up excluded), cumulative since the watch started.',
        type: 'histogram',
        samples: histogram,
      },
      {
        name: 'dbprobe_probe_quantile_seconds',
        help: 'Quantiles (0.5, 0.99) of the last run, from its HDR histogram, not bucket-interpolated (few samples make 0.99 the maximum); absent when the last run measured nothing.',
        type: 'gauge',
        samples: quantiles(all, QUANTILES),
      },
      {
        name: 'dbprobe_probe_errors_total',
        help: 'Failed samples by error class (dns, tcp, tls, auth, timeout, ...), since the watch started.',
        type: 'counter',
        samples: all.flatMap((s) =>
          [...s.errors].map(([cls, n]) => ({
            labels: [
              ['target', redact(s.target)] as const,
              ['kind', redact(s.kind)] as const,
              ['class', redact(cls)] as const,
            ],
            value: n,
          })),
        ),
      },
    ];
    const health = this.judged.flatMap((h) =>
      h.kinds.map((k) => ({
        labels: [['target', redact(h.target)] as const, ['kind', redact(k.kind)] as const],
        kind: k,
      })),
    );
    families.push(
      {
        name: 'dbprobe_probe_success',
        help: 'Whether the last run measured this target and kind: 1 when at least one sample answered, 0 when none did.',
        type: 'gauge',
        samples: health.map((h) => ({ labels: h.labels, value: h.kind.up ? 1 : 0 })),
      },
      {
        name: 'dbprobe_probe_last_success_timestamp_seconds',
        help: 'When the last run that measured this target and kind ended (Unix seconds); absent until one has.',
        type: 'gauge',
        samples: health.flatMap((h) =>
          h.kind.lastSuccessAt === undefined
            ? []
            : [{ labels: h.labels, value: Date.parse(h.kind.lastSuccessAt) / 1_000 }],
        ),
      },
    );
    const cold = all.filter((s) => s.kind === 'cold');
    if (cold.length > 0) {
      families.push(
        {
          name: 'dbprobe_cold_starts_total',
          help: 'Cold starts measured (cold connect minus the hot connect taken right after it).',
          type: 'counter',
          samples: cold.map((s) => ({ labels: ids(s), value: s.coldStarts })),
        },
        {
          name: 'dbprobe_cold_start_quantile_seconds',
          help: 'Quantiles (0.5, 0.99) of the cold start (cold minus hot) of the last run that measured one; absent when the last run measured nothing.',
          type: 'gauge',
          samples: quantiles(cold, COLD_QUANTILES),
        },
      );
    }
    families.push(
      {
        name: 'dbprobe_target_tls_verified',
        help: "Whether the last run checked the target's server certificate: 0 when tls.insecure or its connection string turned the checks off (its figures may come from an impostor), 1 otherwise.",
        type: 'gauge',
        samples: [...this.tlsVerified].map(([target, verified]) => ({
          labels: [['target', redact(target)] as const],
          value: verified ? 1 : 0,
        })),
      },
      {
        name: 'dbprobe_watch_runs_total',
        help: 'Runs finished (or failed) since the watch started.',
        type: 'counter',
        samples: [{ labels: [], value: this.runs }],
      },
      {
        name: 'dbprobe_watch_last_run_duration_seconds',
        help: 'How long the last run that left a result took; absent until one has.',
        type: 'gauge',
        samples:
          this.lastRunDurationSeconds === undefined
            ? []
            : [{ labels: [], value: this.lastRunDurationSeconds }],
      },
      {
        name: 'dbprobe_watch_last_run_timestamp_seconds',
        help: 'When the last run (finished or failed) ended, Unix seconds; absent before the first.',
        type: 'gauge',
        samples:
          this.lastRunEndedAt === undefined
            ? []
            : [{ labels: [], value: Date.parse(this.lastRunEndedAt) / 1_000 }],
      },
      {
        name: 'dbprobe_build_info',
        help: "The watch's dbprobe version and the Node.js running it; always 1.",
        type: 'gauge',
        samples: [
          {
            labels: [
              ['version', redact(this.build.version)],
              ['node', redact(this.build.node)],
            ],
            value: 1,
          },
        ],
      },
    );
    return formatPromText(families);
  }

  private seriesOf(target: string, kind: string): Series {
    const key = seriesKey(target, kind);
    let s = this.series.get(key);
    if (!s) {
      s = {
        target,
        kind,
        buckets: new Array<number>(WATCH_BUCKETS_US.length + 1).fill(0),
        sumUs: 0,
        count: 0,
        errors: new Map(),
        coldStarts: 0,
      };
      this.series.set(key, s);
    }
    return s;
  }
}

/** The Node.js version, or `unknown` where there is no `process` (a Worker without Node compatibility). */
function nodeVersion(): string {
  return typeof process === 'undefined' ? 'unknown' : process.version;
}

function seriesKey(target: string, kind: string): string {
  return `${target}\u0000${kind}`;
}

/**
 * CI gates: `--threshold 'TARGET:KIND:STAT<LIMIT'`, parsed, checked against the plan's names, and
 * evaluated against the run's results. Pure: printing, the job summary and the exit code are gate.ts's.
 */
import { MIN_SAMPLES_FOR, supports, tooFewReason, type TailStat } from '../shared/percentileSupport';
import { PROBE_KINDS, type ProbeKind } from '../shared/plan';
import { MIN_ACHIEVED_SHARE } from '../core/load/figures';
import type { LatencyStats, Measurement, RunResult } from '../shared/result';
import { ms, percent } from '../shared/units';
import { CliError } from './cliError';

const LATENCY_STATS = {
  p50: 'p50Us',
  p90: 'p90Us',
  p95: 'p95Us',
  p99: 'p99Us',
  p999: 'p999Us',
  max: 'maxUs',
  mean: 'meanUs',
} as const satisfies Record<string, keyof LatencyStats>;
type LatencyStat = keyof typeof LATENCY_STATS;
export type ThresholdStat = LatencyStat | 'errors';

const UNIT_US = { us: 1, µs: 1, ms: 1_000, s: 1_000_000 } as const;
/** A flag value longer than this is refused before any pattern reads it. */
const MAX_THRESHOLD_LENGTH = 300;

export const THRESHOLD_FORM =
  "TARGET:KIND:STAT<LIMIT, e.g. 'neon (pg):subsequent:p95<50ms' or '*:*:errors<1%' (TARGET: a target name or * for any; KIND: initial, subsequent or *; STAT: p50, p90, p95, p99, p999, max or mean with a limit in ms, us or s, or errors with a limit in % or a count; < or <=)";

export interface Threshold {
  /** As the user wrote it, for messages. */
  text: string;
  target: string;
  kind: ProbeKind | '*';
  stat: ThresholdStat;
  inclusive: boolean;
  /** Microseconds for latencies; a rate (0..1) for `errors<N%`; a count for `errors<N`. */
  limit: number;
  /** How the limit was given, so figures print the same way. */
  unit: 'latency' | 'rate' | 'count';
}

export interface Verdict {
  threshold: Threshold;
  target: string;
  kind: ProbeKind;
  /** Where it was measured, when the run had several places. */
  place?: string;
  /** In the threshold's unit; undefined when there was nothing to measure (no successful sample). */
  measured?: number;
  passed: boolean;
  /** Why no figure: "no successful sample", or "n too small: ..." for a p99 of fewer than 100 samples. */
  note?: string;
  /**
   * Why it failed whatever its figure: a fixed-rate level or schedule that did not keep up or dropped
   * requests measured less than was asked, so no percentile of it can pass.
   */
  shortfall?: string;
}

export function parseThresholds(values: readonly string[]): Threshold[] {
  return values.map(parseThreshold);
}

export function parseThreshold(raw: string): Threshold {
  const bad = (why: string) =>
    new CliError(
      `--threshold "${raw.slice(0, 80)}${raw.length > 80 ? '...' : ''}": ${why}; the form is ${THRESHOLD_FORM}`,
    );
  if (raw.length > MAX_THRESHOLD_LENGTH) throw bad(`longer than ${MAX_THRESHOLD_LENGTH} characters`);
  // Target names may hold colons: the condition and the kind are the last two parts.
  const parts = raw.split(':');
  if (parts.length < 3) throw bad('expected three parts separated by ":"');
  const condition = parts.pop()!.trim();
  const kind = parts.pop()!.trim();
  const target = parts.join(':').trim();
  if (!target) throw bad('the target is empty (use * for any target)');
  if (kind !== '*' && !(PROBE_KINDS as readonly string[]).includes(kind)) throw bad(`unknown kind "${kind}"`);
  const match = /^([a-z0-9]+)\s*(<=?)\s*(\d+(?:\.\d+)?)\s*(ms|us|µs|s|%)?$/.exec(condition);
  if (!match) throw bad(`cannot read the condition "${condition}"`);
  const [, stat = '', operator = '', number = '', unit] = match;
  const value = Number(number);
  const base = { text: raw, target, kind: kind as Threshold['kind'], inclusive: operator === '<=' };
  if (stat === 'errors') {
    if (unit !== undefined && unit !== '%') throw bad('errors take a limit in % or a count, not a time');
    return unit === '%'
      ? { ...base, stat, limit: value / 100, unit: 'rate' }
      : { ...base, stat, limit: value, unit: 'count' };
  }
  if (!(stat in LATENCY_STATS)) throw bad(`unknown statistic "${stat}"`);
  if (unit === undefined || !(unit in UNIT_US)) throw bad(`${stat} needs a time unit: ms, us or s`);
  return {
    ...base,
    stat: stat as LatencyStat,
    limit: value * UNIT_US[unit as keyof typeof UNIT_US],
    unit: 'latency',
  };
}

/** A threshold naming a target or kind the run will not measure would pass silently: refuse it up front. */
export function checkThresholdNames(
  thresholds: readonly Threshold[],
  targets: string[],
  kinds: ProbeKind[],
): void {
  for (const t of thresholds) {
    if (t.target !== '*' && !targets.includes(t.target))
      throw new CliError(
        `--threshold "${t.text}" names target "${t.target}", which this run does not probe; its targets: ${targets.join(', ')} (or use * for any)`,
      );
    if (t.kind !== '*' && !kinds.includes(t.kind))
      throw new CliError(
        `--threshold "${t.text}" names kind "${t.kind}", which this run does not probe; its kinds: ${kinds.join(', ')} (or use *)`,
      );
  }
}

/** Kinds whose successful samples are at most the plan's iterations, a count known before the run. */
const ITERATION_KINDS: readonly ProbeKind[] = ['initial', 'subsequent'];

/**
 * A tail threshold the plan's iterations can never support (p99 on 50 iterations) is refused before
 * anything is probed, with the reason: the run could only end in "n too small". Kinds whose counts are
 * known only after the run (load, schedule, cold) keep the after-run verdict in evaluateThresholds.
 */
export function checkThresholdSupport(
  thresholds: readonly Threshold[],
  plan: { kinds: readonly ProbeKind[]; iterations: number },
): void {
  for (const t of thresholds) {
    if (t.stat === 'errors') continue;
    const key = LATENCY_STATS[t.stat];
    if (!(key in MIN_SAMPLES_FOR) || supports(plan.iterations, key)) continue;
    const kinds = ITERATION_KINDS.filter((k) => plan.kinds.includes(k) && (t.kind === '*' || t.kind === k));
    if (kinds.length === 0) continue;
    throw new CliError(
      `--threshold "${t.text}" cannot be judged: ${tooFewReason(plan.iterations, key as TailStat).replace('this one has', `${kinds.join(' and ')} will take at most`)} (--iterations ${plan.iterations}). Raise --iterations to ${MIN_SAMPLES_FOR[key as TailStat]} or more, or gate on p95.`,
    );
  }
}

/** One verdict per threshold and matching measurement, in every place's result. */
export function evaluateThresholds(
  thresholds: readonly Threshold[],
  results: readonly { result: RunResult; place?: string }[],
): Verdict[] {
  const verdicts: Verdict[] = [];
  for (const threshold of thresholds) {
    for (const { result, place } of results) {
      const matching = result.measurements.filter(
        (m) =>
          (threshold.target === '*' || m.target === threshold.target) &&
          (threshold.kind === '*' || m.kind === threshold.kind),
      );
      for (const m of matching) {
        const measured = measure(threshold, m.stats);
        const where = place === undefined ? {} : { place };
        const shortfall = shortfallOf(m);
        if (shortfall !== undefined) {
          verdicts.push({
            threshold,
            target: m.target,
            kind: m.kind,
            ...where,
            ...(measured === undefined ? { note: 'no successful sample' } : { measured }),
            passed: false,
            shortfall,
          });
          continue;
        }
        // A p99 of 50 samples is their maximum under another name: refused, never passed or failed on it.
        const withheld = withheldReason(threshold, m.stats);
        if (measured === undefined || withheld !== undefined) {
          verdicts.push({
            threshold,
            target: m.target,
            kind: m.kind,
            ...where,
            passed: false,
            note: withheld ?? 'no successful sample',
          });
          continue;
        }
        const passed = threshold.inclusive ? measured <= threshold.limit : measured < threshold.limit;
        verdicts.push({ threshold, target: m.target, kind: m.kind, ...where, measured, passed });
      }
    }
  }
  return verdicts;
}

/** Why a load or schedule measurement fails every threshold: its levels that did not keep up or dropped. */
function shortfallOf(m: Measurement): string | undefined {
  const reasons: string[] = [];
  const load = m.load;
  if (load) {
    const unit = load.model === 'open' ? '/s' : ' connections';
    for (const level of load.levels) {
      const dropped = level.starts?.dropped ?? 0;
      if (level.tripped !== undefined)
        reasons.push(`level ${level.level}${unit} did not keep up (${level.tripped})`);
      else if (dropped > 0) reasons.push(`level ${level.level}${unit} dropped ${dropped} requests`);
    }
  }
  const starts = m.schedule?.starts;
  if (starts) {
    if (starts.asked > 0 && starts.started < starts.asked * MIN_ACHIEVED_SHARE)
      reasons.push(`the schedule did not keep up (started ${starts.started} of ${starts.asked} asked)`);
    else if (starts.achievedRate < starts.askedRate * MIN_ACHIEVED_SHARE)
      reasons.push(
        `the schedule did not keep up (achieved ${starts.achievedRate}/s of ${starts.askedRate}/s asked)`,
      );
    else if (starts.dropped > 0) reasons.push(`the schedule dropped ${starts.dropped} requests`);
  }
  return reasons.length > 0 ? reasons.join('; ') : undefined;
}

/** "n too small: ..." when the threshold reads a tail percentile the count cannot support. */
function withheldReason(threshold: Threshold, stats: LatencyStats): string | undefined {
  if (threshold.stat === 'errors' || stats.count === 0) return undefined;
  const key = LATENCY_STATS[threshold.stat];
  return key in MIN_SAMPLES_FOR && !supports(stats.count, key)
    ? tooFewReason(stats.count, key as TailStat)
    : undefined;
}

function measure(threshold: Threshold, stats: LatencyStats): number | undefined {
  if (threshold.stat === 'errors') return threshold.unit === 'rate' ? stats.errorRate : stats.errors;
  return stats.count === 0 ? undefined : stats[LATENCY_STATS[threshold.stat]];
}

/** "target "pg" subsequent p95 = 61.204 ms, limit < 50.000 ms" */
export function verdictText(v: Verdict): string {
  const t = v.threshold;
  const figure = (value: number) =>
    t.unit === 'latency' ? `${ms(value)} ms` : t.unit === 'rate' ? percent(value) : String(value);
  const measured = v.measured === undefined ? (v.note ?? 'not measured') : `= ${figure(v.measured)}`;
  const where = v.place ? ` from ${v.place}` : '';
  const shortfall = v.shortfall ? `; fails whatever its figure: ${v.shortfall}` : '';
  return `target "${v.target}" ${v.kind}${where} ${t.stat} ${measured}, limit ${t.inclusive ? '<=' : '<'} ${figure(t.limit)}${shortfall}`;
}

/** The verdicts as a Markdown section for the job summary. */
export function verdictsMarkdown(verdicts: readonly Verdict[]): string {
  const failed = verdicts.filter((v) => !v.passed).length;
  const head =
    verdicts.length === 0
      ? 'No measurement matched a threshold.'
      : failed === 0
        ? `All ${verdicts.length} threshold checks passed.`
        : `**${failed} of ${verdicts.length} threshold checks failed.**`;
  return [
    '## Thresholds',
    '',
    head,
    '',
    ...verdicts.map((v) => `- ${v.passed ? 'pass' : '**FAIL**'}: ${verdictText(v).replace(/\|/g, '\\|')}`),
    '',
  ].join('\n');
}

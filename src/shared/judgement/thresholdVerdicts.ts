/**
 * Threshold verdicts (`--threshold 'TARGET:KIND:STAT<LIMIT'`): whether each measurement a threshold
 * names passes it, fails it, fails whatever its figure (a fixed-rate level or schedule that did not
 * keep up), or cannot be judged (a tail the samples cannot support). Decided here, in the judgement
 * wing, like every other verdict; the CLI parses thresholds and prints these verdicts.
 */
import { MIN_ACHIEVED_SHARE, type LoadLevelFigures } from '../loadResult';
import { MIN_SAMPLES_FOR, supports, tooFewReason, type TailStat } from '../percentileSupport';
import type { ProbeKind } from '../plan';
import { ms, percent } from '../units';
import type { LatencyStats, Measurement, RunResult, SignedStats } from '../result';

export const LATENCY_STATS = {
  p50: 'p50Us',
  p90: 'p90Us',
  p95: 'p95Us',
  p99: 'p99Us',
  p999: 'p999Us',
  max: 'maxUs',
  mean: 'meanUs',
} as const satisfies Record<string, keyof LatencyStats>;
export type LatencyStat = keyof typeof LATENCY_STATS;
export type ThresholdStat = LatencyStat | 'errors' | 'kept-up';

/** What part of a measurement a threshold reads. */
export type ThresholdScope =
  | { on: 'kind' }
  /** `cold:start.STAT`: cold minus hot per sample, the cold kind's cold start. */
  | { on: 'cold-start' }
  /** `schedule:request.STAT`: whole requests (corrected), as the schedule's own figures. */
  | { on: 'request' }
  /** `schedule#N:STAT`: query N of every request (1 is the initial one). */
  | { on: 'position'; position: number }
  /** `load@N:STAT`: one level (corrected latency in the open model). */
  | { on: 'level'; level: number }
  /** `load:kept-up>=N`: the highest level reached before the first one that did not keep up. */
  | { on: 'kept-up' };

export interface Threshold {
  /** As the user wrote it, for messages. */
  text: string;
  target: string;
  kind: ProbeKind | '*';
  scope: ThresholdScope;
  stat: ThresholdStat;
  /** `<=` (or `>=` for kept-up) rather than `<` (`>`). */
  inclusive: boolean;
  /** Microseconds for latencies; a rate (0..1) for `errors<N%`; a count for `errors<N`; a level for kept-up. */
  limit: number;
  /** How the limit was given, so figures print the same way. */
  unit: 'latency' | 'rate' | 'count' | 'level';
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
        const base = { threshold, target: m.target, kind: m.kind, ...(place === undefined ? {} : { place }) };
        verdicts.push({ ...base, ...judge(threshold, m) });
      }
    }
  }
  return verdicts;
}

type Judged = Pick<Verdict, 'measured' | 'passed' | 'note' | 'shortfall'>;

function judge(threshold: Threshold, m: Measurement): Judged {
  if (threshold.scope.on === 'kept-up') return judgeKeptUp(threshold, m);
  const picked = pick(threshold.scope, m);
  if ('missing' in picked) return { passed: false, note: picked.missing };
  const { stats, shortfall } = picked;
  const measured = measure(threshold, stats);
  if (shortfall !== undefined)
    return {
      ...(measured === undefined ? { note: noFigureNote(stats) } : { measured }),
      passed: false,
      shortfall,
    };
  // A p99 of 50 samples is their maximum under another name: refused, never passed or failed on it.
  const withheld = withheldReason(threshold, stats);
  if (measured === undefined || withheld !== undefined)
    return {
      passed: false,
      note: withheld ?? noFigureNote(stats),
    };
  const passed = threshold.inclusive ? measured <= threshold.limit : measured < threshold.limit;
  return { measured, passed };
}

/** The cold start's and a level's figures share these fields with LatencyStats. */
type StatsLike = Pick<LatencyStats, 'count' | 'p50Us' | 'p99Us' | 'maxUs' | 'meanUs'> &
  Partial<Pick<LatencyStats, 'p90Us' | 'p95Us' | 'p999Us' | 'errors' | 'errorRate'>>;

/** The figures a threshold reads, and why they fail whatever their value; or why there are none. */
function pick(
  scope: ThresholdScope,
  m: Measurement,
): { stats: StatsLike; shortfall?: string } | { missing: string } {
  switch (scope.on) {
    case 'kind':
      return withShortfall(m.stats, shortfallOf(m));
    case 'cold-start': {
      const coldStart: SignedStats | undefined = m.cold?.coldStart;
      // Cold starts are kept only for successful cold samples: none is a failed kind, not an idle one.
      return coldStart && coldStart.count > 0
        ? { stats: coldStart }
        : { missing: 'no cold start measured (no successful cold sample)' };
    }
    case 'request':
    case 'position': {
      const schedule = m.schedule;
      if (!schedule) return { missing: 'no schedule figures' };
      const stats = scope.on === 'request' ? schedule.totals : schedule.positions[scope.position - 1];
      if (!stats) return { missing: `no query ${scope.on === 'position' ? scope.position : ''} measured` };
      return withShortfall(stats, scheduleShortfall(m));
    }
    case 'level': {
      const load = m.load;
      const level = load?.levels.find((l) => l.level === scope.level);
      if (!load || !level) return { missing: `level ${scope.level} did not run` };
      // The open model's figures that count are corrected (from each query's intended start).
      const stats = load.model === 'open' ? (level.corrected ?? level.stats) : level.stats;
      return withShortfall(stats, levelShortfall(level, load.model));
    }
    case 'kept-up':
      return { missing: 'kept-up is not a latency' };
  }
}

function withShortfall(stats: StatsLike, shortfall: string | undefined) {
  return shortfall === undefined ? { stats } : { stats, shortfall };
}

/**
 * `kept-up>=N`: the highest level, in run order, before the first level that did not keep up, dropped
 * requests or ran nothing. Levels above it failing is what this threshold is for, so no shortfall.
 */
function judgeKeptUp(threshold: Threshold, m: Measurement): Judged {
  const load = m.load;
  if (!load || load.levels.length === 0) return { passed: false, note: 'no level ran' };
  let highest = 0;
  for (const level of load.levels) {
    if (levelShortfall(level, load.model) !== undefined || level.stats.count === 0) break;
    highest = Math.max(highest, level.level);
  }
  const passed = threshold.inclusive ? highest >= threshold.limit : highest > threshold.limit;
  return { measured: highest, passed };
}

/** Why a verdict has no figure: nothing ran at all, or nothing succeeded. */
function noFigureNote(stats: StatsLike): string {
  return stats.count + (stats.errors ?? 0) === 0 ? 'no sample (nothing ran)' : 'no successful sample';
}

/** Why a load or schedule measurement fails every threshold: its levels that did not keep up or dropped. */
function shortfallOf(m: Measurement): string | undefined {
  const reasons: string[] = [];
  const load = m.load;
  if (load)
    for (const level of load.levels) {
      const reason = levelShortfall(level, load.model);
      if (reason !== undefined) reasons.push(reason);
    }
  const schedule = scheduleShortfall(m);
  if (schedule !== undefined) reasons.push(schedule);
  return reasons.length > 0 ? reasons.join('; ') : undefined;
}

function levelShortfall(level: LoadLevelFigures, model: 'open' | 'closed'): string | undefined {
  const unit = model === 'open' ? '/s' : ' connections';
  const dropped = level.starts?.dropped ?? 0;
  if (level.tripped !== undefined) return `level ${level.level}${unit} did not keep up (${level.tripped})`;
  if (dropped > 0) return `level ${level.level}${unit} dropped ${dropped} requests`;
  return undefined;
}

function scheduleShortfall(m: Measurement): string | undefined {
  const starts = m.schedule?.starts;
  if (!starts) return undefined;
  if (starts.asked > 0 && starts.started < starts.asked * MIN_ACHIEVED_SHARE)
    return `the schedule did not keep up (started ${starts.started} of ${starts.asked} asked)`;
  if (starts.achievedRate < starts.askedRate * MIN_ACHIEVED_SHARE)
    return `the schedule did not keep up (achieved ${starts.achievedRate}/s of ${starts.askedRate}/s asked)`;
  if (starts.dropped > 0) return `the schedule dropped ${starts.dropped} requests`;
  return undefined;
}

/** "n too small: ..." when the threshold reads a tail percentile the count cannot support. */
function withheldReason(threshold: Threshold, stats: StatsLike): string | undefined {
  if (threshold.stat === 'errors' || threshold.stat === 'kept-up' || stats.count === 0) return undefined;
  const key = LATENCY_STATS[threshold.stat];
  return key in MIN_SAMPLES_FOR && !supports(stats.count, key)
    ? tooFewReason(stats.count, key as TailStat)
    : undefined;
}

function measure(threshold: Threshold, stats: StatsLike): number | undefined {
  const errors = stats.errors ?? 0;
  // A kind that ran nothing has no error rate to pass with: 0 of 0 is not "no errors".
  if (stats.count + errors === 0) return undefined;
  if (threshold.stat === 'kept-up') return undefined;
  if (threshold.stat === 'errors')
    return threshold.unit === 'rate' ? (stats.errorRate ?? errors / (stats.count + errors)) : errors;
  return stats.count === 0 ? undefined : stats[LATENCY_STATS[threshold.stat]];
}

/** The thresholds' verdict in one line, for the verdict lines a report states first. */
export function thresholdHeadline(verdicts: readonly Verdict[]): string {
  const failed = verdicts.filter((v) => !v.passed);
  if (verdicts.length === 0) return 'Thresholds: no measurement matched a threshold.';
  if (failed.length === 0) return `Thresholds: all ${verdicts.length} checks passed.`;
  return `Thresholds: ${failed.length} of ${verdicts.length} checks failed: ${failed.map(verdictText).join('; ')}.`;
}

/** How a verdict names what it read: "subsequent p95", "load@64 p99", "cold start p50", "schedule request p99". */
function subjectText(v: Verdict): string {
  const scope = v.threshold.scope;
  const stat = v.threshold.stat;
  switch (scope.on) {
    case 'kind':
      return `${v.kind}${v.place ? ` from ${v.place}` : ''} ${stat}`;
    case 'cold-start':
      return `cold${v.place ? ` from ${v.place}` : ''} start ${stat}`;
    case 'request':
      return `schedule${v.place ? ` from ${v.place}` : ''} request ${stat}`;
    case 'position':
      return `schedule#${scope.position}${v.place ? ` from ${v.place}` : ''} ${stat}`;
    case 'level':
      return `load@${scope.level}${v.place ? ` from ${v.place}` : ''} ${stat}`;
    case 'kept-up':
      return `load${v.place ? ` from ${v.place}` : ''} kept-up`;
  }
}

/** "target "pg" subsequent p95 = 61.204 ms, limit < 50.000 ms" */
export function verdictText(v: Verdict): string {
  const t = v.threshold;
  const figure = (value: number) =>
    t.unit === 'latency'
      ? `${ms(value)} ms`
      : t.unit === 'rate'
        ? percent(value)
        : t.unit === 'level' && value === 0
          ? 'none'
          : String(value);
  const measured = v.measured === undefined ? (v.note ?? 'not measured') : `= ${figure(v.measured)}`;
  const operator = t.unit === 'level' ? (t.inclusive ? '>=' : '>') : t.inclusive ? '<=' : '<';
  const shortfall = v.shortfall ? `; fails whatever its figure: ${v.shortfall}` : '';
  return `target "${v.target}" ${subjectText(v)} ${measured}, limit ${operator} ${figure(t.limit)}${shortfall}`;
}

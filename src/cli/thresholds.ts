/**
 * CI gates: `--threshold 'TARGET:KIND:STAT<LIMIT'` and its scoped forms (`load@64`, `schedule#1`,
 * `request.p99`, `start.p50`, `kept-up>=32`), parsed, checked against the plan, and evaluated against
 * the run's results. Pure: printing, the job summary and the exit code are gate.ts's.
 */
import { MIN_SAMPLES_FOR, supports, tooFewReason, type TailStat } from '../shared/percentileSupport';
import { PROBE_KINDS, type PlanSpec, type ProbeKind } from '../shared/plan';
import { LOAD_DEFAULTS, SCHEDULE_DEFAULTS } from '../shared/loadPlan';
import { MIN_ACHIEVED_SHARE } from '../core/load/figures';
import type { LoadLevelFigures } from '../shared/loadResult';
import type { LatencyStats, Measurement, RunResult, SignedStats } from '../shared/result';
import { ms, percent } from '../shared/units';
import { inlineText } from '../report/markdownTable';
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
/** The cold start (cold minus hot, per sample) is a small signed set: these are what it keeps. */
const COLD_START_STATS: readonly LatencyStat[] = ['p50', 'p99', 'max', 'mean'];
export type ThresholdStat = LatencyStat | 'errors' | 'kept-up';

const UNIT_US = { us: 1, µs: 1, ms: 1_000, s: 1_000_000 } as const;
/** A flag value longer than this is refused before any pattern reads it. */
const MAX_THRESHOLD_LENGTH = 300;

export const THRESHOLD_FORM = `TARGET:KIND:STAT<LIMIT, e.g. 'neon (pg):subsequent:p95<50ms', '*:*:errors<1%', 'neon:cold:start.p50<800ms' (the cold start: cold minus hot), 'pg:schedule#1:p99<50ms' (query 1 of each request), 'pg:schedule:request.p99<120ms' (whole requests), 'pg:load@64:p99<20ms' (one level), 'pg:load:kept-up>=32' (the highest level that kept up) (TARGET: a target name or * for any; KIND: ${PROBE_KINDS.join(', ')} or *, load@LEVEL, schedule#POSITION; STAT: p50, p90, p95, p99, p999, max or mean with a limit in ms, us or s, or errors with a limit in % or a count; < or <=)`;

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
  const kindPart = parts.pop()!.trim();
  const target = parts.join(':').trim();
  if (!target) throw bad('the target is empty (use * for any target)');
  const { kind, scope: kindScope } = parseKind(kindPart, bad);

  const keptUp = /^kept-up\s*(>=?)\s*(\d+(?:\.\d+)?)$/.exec(condition);
  if (keptUp) {
    if (kind !== 'load' || kindScope.on !== 'kind')
      throw bad('kept-up is read on the load kind as a whole: TARGET:load:kept-up>=LEVEL');
    const [, operator = '', number = ''] = keptUp;
    return {
      text: raw,
      target,
      kind,
      scope: { on: 'kept-up' },
      stat: 'kept-up',
      inclusive: operator === '>=',
      limit: Number(number),
      unit: 'level',
    };
  }
  if (condition.startsWith('kept-up'))
    throw bad(
      `cannot read the condition "${condition}": kept-up takes >= or > and a level, e.g. kept-up>=32`,
    );
  const match = /^(?:([a-z]+)\.)?([a-z0-9-]+)\s*(<=?)\s*(\d+(?:\.\d+)?)\s*(ms|us|µs|s|%)?$/.exec(condition);
  if (!match) throw bad(`cannot read the condition "${condition}"`);
  const [, part, stat = '', operator = '', number = '', unit] = match;
  const scope = partScope(part, kind, kindScope, bad);
  const value = Number(number);
  // Nothing measures below 0: a check that can never pass is a typo, not a gate. A latency is never
  // 0 either (the clock's grain is 1 µs), so for one `<=0` cannot pass after the run: refused now. The
  // cold start (cold minus hot) may be 0 or below, so it keeps both.
  const latency = stat !== 'errors' && scope.on !== 'cold-start';
  if (value === 0 && (operator === '<' || latency))
    throw bad(
      latency
        ? `"${stat}${operator}0" can never be met: no latency is 0; give a limit above 0`
        : `"${stat}<0" can never be met; use ${stat}<=0 for none at all, or a limit above 0`,
    );
  const base = { text: raw, target, kind, scope, inclusive: operator === '<=' };
  if (stat === 'errors') {
    if (scope.on === 'cold-start')
      throw bad('the cold start has no errors of its own; use TARGET:cold:errors for the cold samples');
    if (unit !== undefined && unit !== '%') throw bad('errors take a limit in % or a count, not a time');
    return unit === '%'
      ? { ...base, stat, limit: value / 100, unit: 'rate' }
      : { ...base, stat, limit: value, unit: 'count' };
  }
  if (!(stat in LATENCY_STATS)) throw bad(`unknown statistic "${stat}"`);
  if (scope.on === 'cold-start' && !COLD_START_STATS.includes(stat as LatencyStat))
    throw bad(`the cold start has ${COLD_START_STATS.join(', ')}, not ${stat}`);
  if (unit === undefined || !(unit in UNIT_US)) throw bad(`${stat} needs a time unit: ms, us or s`);
  const limitUs = value * UNIT_US[unit as keyof typeof UNIT_US];
  // Latencies are whole microseconds of at least 1 (the clock's resolution): a limit under that
  // could never be met, and a figure printed in ms would even hide it ("limit < 0.000 ms").
  if (scope.on !== 'cold-start' && limitUs < 1)
    throw bad(
      `"${stat}${operator}${number}${unit}" is below 1 µs, the clock's resolution: latencies are whole microseconds, so it can never be met; give a limit of at least 1us`,
    );
  return { ...base, stat: stat as LatencyStat, limit: limitUs, unit: 'latency' };
}

/** `load@64` and `schedule#2` name a level or a position; any other kind part is a kind or `*`. */
function parseKind(
  text: string,
  bad: (why: string) => CliError,
): { kind: ProbeKind | '*'; scope: ThresholdScope } {
  const scoped = /^([a-z*]+)\s*([@#])\s*(.*)$/.exec(text);
  if (!scoped) {
    if (text !== '*' && !(PROBE_KINDS as readonly string[]).includes(text))
      throw bad(`unknown kind "${text}"`);
    return { kind: text as ProbeKind | '*', scope: { on: 'kind' } };
  }
  const [, kind = '', mark = '', number = ''] = scoped;
  const value = /^\d+(?:\.\d+)?$/.test(number) ? Number(number) : NaN;
  if (mark === '@') {
    if (kind !== 'load') throw bad(`"@LEVEL" picks a level of the load kind (load@64), not of "${kind}"`);
    if (!(value > 0)) throw bad(`cannot read the level "${number}" (load@LEVEL, a number above 0)`);
    return { kind: 'load', scope: { on: 'level', level: value } };
  }
  if (kind !== 'schedule')
    throw bad(`"#POSITION" picks a query of the schedule kind (schedule#1), not of "${kind}"`);
  if (!Number.isInteger(value) || value < 1)
    throw bad(`cannot read the position "${number}" (schedule#N, N from 1 for the first query)`);
  return { kind: 'schedule', scope: { on: 'position', position: value } };
}

/** `start.` (cold) and `request.` (schedule) pick a part of the kind's figures. */
function partScope(
  part: string | undefined,
  kind: ProbeKind | '*',
  kindScope: ThresholdScope,
  bad: (why: string) => CliError,
): ThresholdScope {
  if (part === undefined) return kindScope;
  if (part === 'start') {
    if (kind !== 'cold') throw bad('start.STAT reads the cold start: TARGET:cold:start.p50<800ms');
    return { on: 'cold-start' };
  }
  if (part === 'request') {
    if (kind !== 'schedule' || kindScope.on !== 'kind')
      throw bad('request.STAT reads whole schedule requests: TARGET:schedule:request.p99<120ms');
    return { on: 'request' };
  }
  throw bad(`unknown part "${part}." (start. on cold, request. on schedule)`);
}

/**
 * A threshold naming a target, kind, level or position the run will not measure would pass silently
 * (or could never pass): refuse it up front.
 */
export function checkThresholdNames(
  thresholds: readonly Threshold[],
  targets: string[],
  kinds: ProbeKind[],
  plan: Pick<PlanSpec, 'load' | 'schedule'> = {},
): void {
  const levels = (plan.load ?? LOAD_DEFAULTS).levels;
  const queries = (plan.schedule ?? SCHEDULE_DEFAULTS).queries;
  for (const t of thresholds) {
    if (t.target !== '*' && !targets.includes(t.target))
      throw new CliError(
        `--threshold "${t.text}" names target "${t.target}", which this run does not probe; its targets: ${targets.join(', ')} (or use * for any)`,
      );
    if (t.kind !== '*' && !kinds.includes(t.kind))
      throw new CliError(
        `--threshold "${t.text}" names kind "${t.kind}", which this run does not probe; its kinds: ${kinds.join(', ')} (or use *)`,
      );
    const scope = t.scope;
    if (scope.on === 'level' && !levels.includes(scope.level))
      throw new CliError(
        `--threshold "${t.text}" names load level ${scope.level}, which this run does not probe; its levels: ${levels.join(', ')} (load.levels in the config)`,
      );
    if (scope.on === 'position' && scope.position > queries)
      throw new CliError(
        `--threshold "${t.text}" names query ${scope.position} of each request, but the schedule runs ${queries} per request (schedule.queries in the config)`,
      );
    if (scope.on === 'kept-up' && t.limit > Math.max(...levels))
      throw new CliError(
        `--threshold "${t.text}" can never pass: the highest load level this run probes is ${Math.max(...levels)} (load.levels in the config)`,
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
    if (t.stat === 'errors' || t.stat === 'kept-up') continue;
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

/** The thresholds' verdict in one line, for the verdict lines a report states first. */
export function thresholdHeadline(verdicts: readonly Verdict[]): string {
  const failed = verdicts.filter((v) => !v.passed);
  if (verdicts.length === 0) return 'Thresholds: no measurement matched a threshold.';
  if (failed.length === 0) return `Thresholds: all ${verdicts.length} checks passed.`;
  return `Thresholds: ${failed.length} of ${verdicts.length} checks failed: ${failed.map(verdictText).join('; ')}.`;
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
    ...verdicts.map((v) => `- ${v.passed ? 'pass' : '**FAIL**'}: ${inlineText(verdictText(v))}`),
    '',
  ].join('\n');
}

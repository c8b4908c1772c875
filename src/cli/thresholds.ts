/**
 * CI gates: `--threshold 'TARGET:KIND:STAT<LIMIT'` and its scoped forms (`load@64`, `schedule#1`,
 * `request.p99`, `start.p50`, `kept-up>=32`), parsed, checked against the plan, and evaluated against
 * the run's results (the verdicts are the judgement wing's: shared/judgement/thresholdVerdicts.ts).
 * Pure: printing, the job summary and the exit code are gate.ts's.
 */
import { MIN_SAMPLES_FOR, supports, tooFewReason, type TailStat } from '../shared/percentileSupport';
import { PROBE_KINDS, type PlanSpec, type ProbeKind } from '../shared/plan';
import { LOAD_DEFAULTS, SCHEDULE_DEFAULTS } from '../shared/loadPlan';
import {
  LATENCY_STATS,
  verdictText,
  type LatencyStat,
  type Threshold,
  type ThresholdScope,
  type Verdict,
} from '../shared/judgement/thresholdVerdicts';
import { inlineText } from '../report/markdownTable';
import { CliError } from './cliError';

/** The cold start (cold minus hot, per sample) is a small signed set: these are what it keeps. */
const COLD_START_STATS: readonly LatencyStat[] = ['p50', 'p99', 'max', 'mean'];

const UNIT_US = { us: 1, µs: 1, ms: 1_000, s: 1_000_000 } as const;
/** A flag value longer than this is refused before any pattern reads it. */
const MAX_THRESHOLD_LENGTH = 300;

export const THRESHOLD_FORM = `TARGET:KIND:STAT<LIMIT, e.g. 'neon (pg):subsequent:p95<50ms', '*:*:errors<1%', 'neon:cold:start.p50<800ms' (the cold start: cold minus hot), 'pg:schedule#1:p99<50ms' (query 1 of each request), 'pg:schedule:request.p99<120ms' (whole requests), 'pg:load@64:p99<20ms' (one level), 'pg:load:kept-up>=32' (the highest level that kept up) (TARGET: a target name or * for any; KIND: ${PROBE_KINDS.join(', ')} or *, load@LEVEL, schedule#POSITION; STAT: p50, p90, p95, p99, p999, max or mean with a limit in ms, us or s, or errors with a limit in % or a count; < or <=)`;

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
    // No run errs on more than all its samples: such a limit could never fail, so it guards nothing.
    if (unit === '%' && (value > 100 || (value === 100 && operator === '<=')))
      throw bad(
        `an error rate is at most 100%, so errors${operator}${value}% can never fail; give a share that can (errors<1% fails when more than 1 sample in 100 fails)`,
      );
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

/**
 * Health of each watched target: is it answering, since when not, and why, in one sentence. Judged
 * once here from what the watch's last run measured, so `/metrics` (dbprobe_probe_success, the
 * last-success timestamp, latency gauges that go absent rather than stale) and every line that speaks
 * of a target's health say the same thing. Pure: the caller keeps the previous judgement and hands it
 * back, which is how the last success time carries over a run that measured nothing.
 */
import type { RunResult } from '../result';

/** What one run did for one target and kind. */
export interface KindOutcome {
  target: string;
  kind: string;
  /** Samples that answered (warm-up excluded). */
  measured: number;
  /** Samples that failed. */
  failed: number;
  /** Why samples failed or none was measured: the first failure, or why the run never got there. Redacted. */
  problem?: string;
}

/** One run of the watch as the health judgement reads it. */
export interface WatchRunOutcome {
  /** When the run ended (ISO 8601): a success is dated by it. */
  endedAt: string;
  /** Every target and kind the run was to probe, in plan order; one it never reached measured 0. */
  kinds: KindOutcome[];
}

export interface KindHealth {
  kind: string;
  /** The last run measured at least one sample of this kind. */
  up: boolean;
  /** The end of the last run that measured this kind; absent until one has. */
  lastSuccessAt?: string;
}

export interface TargetHealth {
  target: string;
  /** The last run measured every kind it probed on this target. */
  up: boolean;
  /** The end of the last run in which the target was up; absent until one was. */
  lastSuccessAt?: string;
  kinds: KindHealth[];
  /** One sentence: up or down, what the last run measured, why not, the last success. */
  sentence: string;
}

/** The longest part of a failure message a sentence quotes (the full one is in the run's result). */
const PROBLEM_CHARS = 160;

/** What a finished (or partial) run measured per target and kind of its plan. */
export function runOutcomeOf(result: RunResult, failure?: string): WatchRunOutcome {
  const endedAt = new Date(Date.parse(result.startedAt) + result.durationUs / 1_000).toISOString();
  const notReached =
    failure !== undefined
      ? `the run failed: ${failure}`
      : result.state === 'completed'
        ? 'the run did not reach it'
        : `the run stopped first: ${result.stopReason}`;
  const kinds: KindOutcome[] = [];
  for (const target of result.targets) {
    for (const kind of result.plan.kinds) {
      const m = result.measurements.find((x) => x.target === target.name && x.kind === kind);
      if (!m) {
        kinds.push({ target: target.name, kind, measured: 0, failed: 0, problem: notReached });
        continue;
      }
      const first = m.firstErrors[0];
      const problem = first
        ? `${first.class}: ${first.message}`
        : m.stats.count === 0
          ? (m.stoppedEarly ?? notReached)
          : undefined;
      kinds.push({
        target: target.name,
        kind,
        measured: m.stats.count,
        failed: m.stats.errors,
        ...(problem !== undefined ? { problem: cut(problem) } : {}),
      });
    }
  }
  return { endedAt, kinds };
}

/** A run that gave no result at all: every target and kind of the plan measured nothing, for one reason. */
export function failedRunOutcome(
  targets: readonly string[],
  kinds: readonly string[],
  endedAt: string,
  failure: string,
): WatchRunOutcome {
  const problem = cut(`the run failed: ${failure}`);
  return {
    endedAt,
    kinds: targets.flatMap((target) =>
      kinds.map((kind) => ({ target, kind, measured: 0, failed: 0, problem })),
    ),
  };
}

/** Each target's health after `run`, carrying last success times over from `previous`. */
export function judgeHealth(run: WatchRunOutcome, previous: readonly TargetHealth[] = []): TargetHealth[] {
  const byTarget = new Map<string, KindOutcome[]>();
  for (const outcome of run.kinds)
    byTarget.set(outcome.target, [...(byTarget.get(outcome.target) ?? []), outcome]);
  return [...byTarget].map(([target, outcomes]) => {
    const before = previous.find((h) => h.target === target);
    const kinds = outcomes.map((o): KindHealth => {
      const up = o.measured > 0;
      const lastSuccessAt = up ? run.endedAt : before?.kinds.find((k) => k.kind === o.kind)?.lastSuccessAt;
      return { kind: o.kind, up, ...(lastSuccessAt !== undefined ? { lastSuccessAt } : {}) };
    });
    const up = kinds.every((k) => k.up);
    const lastSuccessAt = up ? run.endedAt : before?.lastSuccessAt;
    return {
      target,
      up,
      ...(lastSuccessAt !== undefined ? { lastSuccessAt } : {}),
      kinds,
      sentence: up ? upSentence(target, outcomes) : downSentence(target, outcomes, lastSuccessAt),
    };
  });
}

/** The targets whose up/down changed from `previous` (every target on the first judgement). */
export function healthChanges(
  previous: readonly TargetHealth[],
  next: readonly TargetHealth[],
): TargetHealth[] {
  return next.filter((h) => previous.find((p) => p.target === h.target)?.up !== h.up);
}

function upSentence(target: string, outcomes: readonly KindOutcome[]): string {
  const measured = outcomes.reduce((n, o) => n + o.measured, 0);
  const failed = outcomes.filter((o) => o.failed > 0);
  const failures = failed.reduce((n, o) => n + o.failed, 0);
  const measuredText = `the last run measured ${count(measured, 'sample')} (${outcomes.map((o) => o.kind).join(', ')})`;
  if (failures === 0) return `${target} is up: ${measuredText}, none failed`;
  return `${target} is up: ${measuredText}, ${failures} failed (${reasons(failed)})`;
}

function downSentence(
  target: string,
  outcomes: readonly KindOutcome[],
  lastSuccessAt: string | undefined,
): string {
  const down = outcomes.filter((o) => o.measured === 0);
  const answered = outcomes.filter((o) => o.measured > 0);
  const what =
    answered.length === 0
      ? `the last run measured nothing (${reasons(down)})`
      : `the last run measured nothing for ${down.map((o) => o.kind).join(', ')} (${reasons(down)}); ${answered.map((o) => `${o.kind} ${count(o.measured, 'sample')}`).join(', ')}`;
  const since = lastSuccessAt
    ? `last success ${lastSuccessAt.replace(/\.\d+Z$/, 'Z')}`
    : 'no success since the watch started';
  return `${target} is down: ${what}; ${since}`;
}

/** One reason when every kind failed alike, else each kind's own. */
function reasons(outcomes: readonly KindOutcome[]): string {
  const problems = [...new Set(outcomes.map((o) => o.problem ?? 'no sample was taken'))];
  if (problems.length === 1) return problems[0]!;
  return outcomes.map((o) => `${o.kind}: ${o.problem ?? 'no sample was taken'}`).join('; ');
}

function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

function cut(text: string): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length <= PROBLEM_CHARS ? line : `${line.slice(0, PROBLEM_CHARS - 1).trimEnd()}…`;
}

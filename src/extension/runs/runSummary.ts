/**
 * The small record the Runs view, the Targets view and the status bar read, so none of them has to
 * load a whole result (which may hold tens of thousands of samples).
 */
import type { ProbeKind } from '../../shared/plan';
import type { RunResult, RunState } from '../../shared/result';
import type { RunVerdict } from './runVerdicts';

export interface RunSummary {
  id: string;
  startedAt: string;
  state: RunState;
  location: string;
  /** Absent in summaries written before runners existed: read it as local. */
  locationKind?: 'local' | 'runner';
  /** Set when the run is one place of a run group (one plan run in several places at once). */
  group?: { id: string; place: string };
  kinds: ProbeKind[];
  targets: {
    name: string;
    driver: string;
    transport: string;
    /** p50 per kind, for kinds with at least one successful sample. */
    p50Us: Partial<Record<ProbeKind, number>>;
    failed: boolean;
  }[];
  headline: string;
  /**
   * The run's first verdict line (src/shared/judgement/judgeRun.ts), in the words every surface
   * states first; absent for runs saved before it existed and runs with nothing to rank.
   */
  verdict?: string;
  /**
   * The same answer in one line, the winner first (src/shared/judgement/shortVerdict.ts): what a
   * row 270 px wide or the status bar shows. Absent in summaries saved before it existed (judged again).
   */
  verdictShort?: string;
  /**
   * The app location `verdict` was judged for (settings/projectionSettings.ts appLocationKey): a row
   * judged for another is judged again (RunStore.rejudge).
   */
  verdictFor?: string;
}

export function summarize(result: RunResult, verdict?: RunVerdict): RunSummary {
  const targets = result.targets.map((t) => {
    const own = result.measurements.filter((m) => m.target === t.name);
    const p50Us: Partial<Record<ProbeKind, number>> = {};
    for (const m of own) if (m.stats.count > 0) p50Us[m.kind] = m.stats.p50Us;
    return {
      name: t.name,
      driver: t.driver,
      transport: t.transport,
      p50Us,
      failed: own.length > 0 && own.every((m) => m.failed),
    };
  });
  const where = result.environment.location;
  const summary: RunSummary = {
    id: result.id,
    startedAt: result.startedAt,
    state: result.state,
    location:
      where.region && !where.label.includes(where.region) ? `${where.label} (${where.region})` : where.label,
    locationKind: where.kind,
    kinds: result.plan.kinds,
    targets,
    headline: '',
    ...(verdict ? { verdict: verdict.line, verdictShort: verdict.short } : {}),
  };
  summary.headline = headline(summary);
  return summary;
}

/** "pg 0.41 ms · redis 0.22 ms": the warm (subsequent) p50 when measured, else the first kind's. */
export function headline(summary: Pick<RunSummary, 'targets' | 'state' | 'kinds'>, maxTargets = 3): string {
  const parts = summary.targets.slice(0, maxTargets).map((t) => {
    const us = bestP50(t.p50Us, summary.kinds);
    return `${t.name} ${us === undefined ? 'failed' : formatMs(us)}`;
  });
  if (summary.targets.length > maxTargets) parts.push(`+${summary.targets.length - maxTargets}`);
  return statePrefix(summary.state) + parts.join(' · ');
}

/** "cancelled: " or "timed out: " before anything said of a partial run; nothing for a completed one. */
function statePrefix(state: RunSummary['state']): string {
  return state === 'completed' ? '' : `${state === 'cancelled' ? 'cancelled' : 'timed out'}: `;
}

/**
 * A run's answer in one line, for the Runs view's row and the status bar: its verdict's short form
 * (the winner first, as the judgement words it), a partial run's state before it; the headline for a
 * run with no verdict. The whole first line goes in the tooltip.
 */
export function runLine(
  summary: Pick<RunSummary, 'state' | 'verdict' | 'verdictShort' | 'headline'>,
): string {
  const answer = summary.verdictShort ?? summary.verdict;
  return answer ? statePrefix(summary.state) + answer : summary.headline;
}

/**
 * Whether a row's verdict must be judged again for the app location `key`: judged for another, or
 * saved before the one-line form existed.
 */
export function judgedAgain(
  summary: Pick<RunSummary, 'verdict' | 'verdictShort' | 'verdictFor'>,
  key: string,
): boolean {
  return summary.verdictFor !== key || (summary.verdict !== undefined && summary.verdictShort === undefined);
}

export function bestP50(
  p50Us: Partial<Record<ProbeKind, number>>,
  kinds: readonly ProbeKind[],
): number | undefined {
  const subsequent = p50Us.subsequent;
  if (subsequent !== undefined) return subsequent;
  for (const kind of kinds) {
    const us = p50Us[kind];
    if (us !== undefined) return us;
  }
  return undefined;
}

/** Milliseconds with enough digits to tell 0.041 ms from 0.41 ms. */
export function formatMs(us: number): string {
  const ms = us / 1000;
  const digits = ms < 1 ? 3 : ms < 10 ? 2 : ms < 100 ? 1 : 0;
  return `${ms.toFixed(digits)} ms`;
}

/** Newest first, then at most `keep`; returns what stays and what to delete. */
export function retain(
  summaries: readonly RunSummary[],
  keep: number,
): { kept: RunSummary[]; dropped: RunSummary[] } {
  const sorted = [...summaries].sort((a, b) => b.startedAt.localeCompare(a.startedAt));
  return { kept: sorted.slice(0, Math.max(1, keep)), dropped: sorted.slice(Math.max(1, keep)) };
}

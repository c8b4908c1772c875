/** A query run's line in the Runs view. Pure, so its words are tested without VS Code. */
import { bestP50, formatMs, type RunSummary } from '../runs/runSummary';

/** "query · pg 0.410 ms · mysql: the query failed there": a failure is the query's, not the target's. */
export function queryRunHeadline(summary: Pick<RunSummary, 'targets' | 'kinds'>, maxTargets = 3): string {
  const parts = summary.targets.slice(0, maxTargets).map((t) => {
    const us = bestP50(t.p50Us, summary.kinds);
    return us === undefined ? `${t.name}: the query failed there` : `${t.name} ${formatMs(us)}`;
  });
  if (summary.targets.length > maxTargets) parts.push(`+${summary.targets.length - maxTargets}`);
  return ['query', ...parts].join(' · ');
}

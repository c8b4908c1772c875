/**
 * Targets of one kind measured in the same two runs, each at the same moments as the others: when
 * no two moved apart by what their intervals establish, one shift of the runs' shared conditions
 * (the host, its CPU, the process's own speed, the route) fits them all, and no database's own
 * change is established. Seen on a quiet 2-core VM: two identical back-to-back runs,
 * an in-process libSQL file and a PostgreSQL server each 40% faster at the warm query in the second,
 * with no CPU wait to show for it. A database's own change moves its target apart from the others,
 * beyond their intervals. No share or factor decides it: the targets' own intervals do.
 */
import type { HostEvidence } from './hostEvidence';
import {
  targetVerdict,
  type ChangePercentile,
  type PercentileChange,
  type TargetChange,
} from './changeTypes';

/** `changes` with each established change that moved alike with every other target of its kind restated. */
export function withCommonMoves(changes: TargetChange[]): TargetChange[] {
  return changes.map((change) => {
    if (change.verdict !== 'regressed' && change.verdict !== 'improved') return change;
    const percentiles = change.percentiles.map((p) => {
      if (p.verdict !== 'regressed' && p.verdict !== 'improved') return p;
      const others = alongside(changes, change, p.percentile);
      const host = commonMove(change.kind, p, others);
      return host
        ? { ...p, verdict: 'not attributable' as const, host, note: `not attributable: ${host.sentence}` }
        : p;
    });
    return { ...change, percentiles, verdict: targetVerdict(percentiles) };
  });
}

/** The same percentile of the kind's other targets, where both runs judged it. */
function alongside(
  changes: readonly TargetChange[],
  change: TargetChange,
  percentile: ChangePercentile,
): { target: string; p: PercentileChange }[] {
  return changes.flatMap((other) => {
    if (other === change || other.kind !== change.kind) return [];
    const p = other.percentiles.find((x) => x.percentile === percentile && x.verdict !== undefined);
    return p ? [{ target: other.target, p }] : [];
  });
}

/**
 * Evidence when `p` did not move apart from every other target of its kind: each other's interval
 * (as a share of its BASE) overlaps this one's, so one shift of the runs' shared conditions fits
 * them all, and no change is established apart. Every other moving the same way is said so ("moved
 * alike"); otherwise the others' own intervals are named, which could have moved as much (seen on
 * a quiet 2-core VM: an in-process libSQL file +24% between identical runs, the PostgreSQL server
 * beside it 0% with an interval of -27% to +22%).
 */
function commonMove(
  kind: string,
  p: PercentileChange,
  others: readonly { target: string; p: PercentileChange }[],
): HostEvidence | undefined {
  if (others.length === 0 || p.baseUs <= 0) return undefined;
  const rise = p.diffUs > 0;
  const share = (x: PercentileChange) => ({ low: x.lowUs / x.baseUs, high: x.highUs / x.baseUs });
  const mine = share(p);
  const overlaps = others.every((o) => {
    if (o.p.baseUs <= 0) return false;
    const theirs = share(o.p);
    return mine.low <= theirs.high && theirs.low <= mine.high;
  });
  if (!overlaps) return undefined;
  const alike = others.every((o) => (rise ? o.p.diffUs > 0 : o.p.diffUs < 0));
  if (alike) {
    const moved = others.map((o) => `${o.target} ${signedPercent(o.p.share)}`).join(', ');
    return {
      sentence: `every ${kind} target moved alike between the runs (${moved}), so the runs' shared conditions moved (the host, its CPU or route), not one database`,
    };
  }
  const could = others
    .map((o) => {
      const theirs = share(o.p);
      return `${o.target} ${signedPercent(o.p.share)}, 95% CI ${signedPercent(theirs.low)} to ${signedPercent(theirs.high)}`;
    })
    .join('; ');
  return {
    sentence: `the other ${kind} target${others.length === 1 ? '' : 's'}, measured at the same moments, could have moved as much (${could}), so the move is not established apart from the runs' shared conditions (the host, its CPU or route)`,
  };
}

function signedPercent(share: number): string {
  return `${share > 0 ? '+' : ''}${(share * 100).toFixed(1)}%`;
}

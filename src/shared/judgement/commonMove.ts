/**
 * Targets of one kind measured in the same two runs, each at the same moments as the others: when
 * every one of them moved the same way between the runs, and no two moved apart by what their
 * intervals establish, the runs' shared conditions moved (the host, its CPU, the process's own
 * speed, the route), not one database. Seen on a quiet 2-core VM: two identical back-to-back runs,
 * an in-process libSQL file and a PostgreSQL server each 40% faster at the warm query in the second,
 * with no CPU wait to show for it. A database's own change moves its target alone, or apart from
 * the others. No share or factor decides it: the targets' own intervals do.
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
 * Evidence when `p` moved alike with every other: each other's estimate moved the same way, and
 * neither interval (as a share of its BASE) clears the other's: no change is established apart.
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
  const alike = others.every((o) => {
    if (o.p.baseUs <= 0 || (rise ? !(o.p.diffUs > 0) : !(o.p.diffUs < 0))) return false;
    const theirs = share(o.p);
    return mine.low <= theirs.high && theirs.low <= mine.high;
  });
  if (!alike) return undefined;
  const moved = others.map((o) => `${o.target} ${signedPercent(o.p.share)}`).join(', ');
  return {
    sentence: `every ${kind} target moved alike between the runs (${moved}), so the runs' shared conditions moved (the host, its CPU or route), not one database`,
  };
}

function signedPercent(share: number): string {
  return `${share > 0 ? '+' : ''}${(share * 100).toFixed(1)}%`;
}

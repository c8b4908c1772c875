/**
 * The one judgement of two runs (`dbprobe compare`, `run --baseline`, the Action, the panel's
 * compare): per target and kind, the change gate's verdict (runChanges.ts, decided by the one
 * comparison rule), and whether the runs can be compared at all. Nothing in common is not a pass:
 * `comparable` is false and `inCommon` 0, and a gate treats that as an error.
 */
import type { RunResult } from '../result';
import type { MinEffect } from './minEffect';
import { compareResults, type TargetChange } from './runChanges';
import { listText, shortMs } from './shortMs';

export type { TargetChange } from './runChanges';

export interface ChangeJudgement {
  /** False when no target and kind in common could be compared. */
  comparable: boolean;
  /** Why not comparable. */
  reason?: string;
  /** Targets and kinds both runs measured (comparable or not). */
  inCommon: number;
  changes: TargetChange[];
  /** The verdict lines every surface states first. */
  lines: string[];
}

const pairName = (c: Pick<TargetChange, 'target' | 'kind'>) => `${c.target} ${c.kind}`;
const signedPercent = (share: number) => `${share > 0 ? '+' : ''}${(share * 100).toFixed(1)}%`;

export function judgeChanges(
  base: RunResult,
  head: RunResult,
  options: { minEffect?: MinEffect } = {},
): ChangeJudgement {
  const changes = compareResults(base, head, options.minEffect ? { minEffect: options.minEffect } : {});
  const common = changes.filter((c) => !c.note?.startsWith('measured only in'));
  const inCommon = common.length;
  if (inCommon === 0) {
    const reason = `no target and kind in common (BASE measured ${measuredText(base)}; HEAD measured ${measuredText(head)})`;
    return {
      comparable: false,
      reason,
      inCommon,
      changes,
      lines: [`Not comparable: ${reason}, so nothing was compared.`],
    };
  }
  const notComparable = common.filter((c) => c.verdict === 'not comparable');
  const judged = common.filter((c) => c.verdict !== 'not comparable' && c.verdict !== 'not compared');
  if (judged.length === 0) {
    const reason = common.map((c) => `${pairName(c)}: ${c.note ?? c.verdict}`).join('; ');
    const failed = common.filter((c) => c.failedIn);
    const lines =
      failed.length === common.length
        ? failed.map((c) => `${pairName(c)}: ${c.note}.`)
        : [`Not comparable: ${reason}.`];
    return { comparable: false, reason, inCommon, changes, lines };
  }
  const lines: string[] = [];
  // A change the host may explain is said first, before any change the runs establish.
  for (const c of common) {
    if (c.verdict !== 'not attributable') continue;
    const moved = c.percentiles.filter((p) => p.verdict === 'not attributable');
    const host = moved[0]?.host;
    lines.push(
      `Not attributable: ${pairName(c)} ${moved.map((p) => `p${p.percentile} ${shortMs(p.baseUs)} → ${shortMs(p.headUs)} ms (${signedPercent(p.share)})`).join(', ')} while ${host ? host.sentence : 'the host differed'}.`,
    );
  }
  for (const c of common) {
    if (c.verdict === 'regressed' || c.verdict === 'improved') {
      const moved = c.percentiles
        .filter((p) => p.verdict === c.verdict)
        .map(
          (p) =>
            `p${p.percentile} ${shortMs(p.baseUs)} → ${shortMs(p.headUs)} ms (${signedPercent(p.share)})`,
        );
      lines.push(`${pairName(c)} ${c.verdict}: ${moved.join(', ')}.`);
    }
  }
  // The rest, when nothing else changed: the ones the host may explain are said above, not here.
  const rest = judged.filter((c) => c.verdict !== 'not attributable');
  if (rest.length > 0 && lines.every((line) => line.startsWith('Not attributable'))) {
    const other = rest.length < judged.length ? ' other' : '';
    lines.push(
      `No${other} established change in ${rest.length} target${rest.length === 1 ? '' : 's'} and kind${rest.length === 1 ? '' : 's'} compared (${listText(rest.map(pairName))}).`,
    );
  }
  for (const c of notComparable) lines.push(`${pairName(c)} not comparable: ${c.note}.`);
  // A target that failed on one side is said before any figure: no latency change outweighs it.
  const failed = common.flatMap((c) => (c.failedIn ? [`${pairName(c)}: ${c.note}.`] : []));
  return { comparable: true, inCommon, changes, lines: [...failed, ...lines] };
}

function measuredText(result: RunResult): string {
  const pairs = result.measurements.map((m) => `${m.target} ${m.kind}`);
  return pairs.length === 0 ? 'nothing' : listText(pairs);
}

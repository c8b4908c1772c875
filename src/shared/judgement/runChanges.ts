/**
 * The change gate: one run (HEAD) against a saved one (BASE), per target and kind, at p50 and p99.
 * The difference and its 95% bootstrap interval come from `compareRuns` (the compare view's own
 * computation: connections then samples where the kind kept several, blocks of samples where spells
 * last), and whether it is established from the one comparison rule every surface uses
 * (`judgeDifference` in differences.ts). This adds the verdict a CI gate needs, the way criterion
 * reports a change:
 * - regressed / improved: established, HEAD above / below BASE;
 * - not attributable: the interval excludes 0, but one run's host added at least that much
 *   CPU wait to each sample (hostEvidence.ts), or no other target of the kind moved apart from it
 *   beyond their intervals (commonMove.ts): the runs' conditions may have moved it all, so the
 *   change is not the database's to answer for;
 *   a gate fails on it only when asked to (`--strict-host`);
 * - otherwise "no change detected".
 * No band of its own: the Differences table's "established" is the gate's "changed"
 * (test/unit/judgement-one-rule.test.ts holds them to it). A user who wants small changes ignored
 * sets a minimum effect (`--min-effect 5%`), the one setting every surface reads.
 */
import {
  compareRuns,
  MIN_COMPARED_SAMPLES,
  onLoopback,
  samplesNeededAt,
  type SpanFigures,
} from './differences';
import { BOOTSTRAP_CONFIDENCE, BOOTSTRAP_RESAMPLES } from './bootstrap';
import { pauseBetweenSamplesUs } from './processPace';
import { minEffectText, type MinEffect } from './minEffect';
import { whyNotComparable } from './comparability';
import {
  CHANGE_PERCENTILES,
  type ChangePercentile,
  type ChangeVerdict,
  type PercentileChange,
  type TargetChange,
  targetVerdict,
} from './changeTypes';
import { withCommonMoves } from './commonMove';
import type { ProbeKind } from '../plan';
import type { RunResult } from '../result';

/** p99 is judged only when each side kept this many samples: the one rule's tail depth (samplesNeededAt). */
export const MIN_P99_SAMPLES = samplesNeededAt(99);

export * from './changeTypes';

export interface ChangeOptions {
  /** The user's minimum effect (none by default). */
  minEffect?: MinEffect;
  resamples?: number;
}

/** Every target and kind of either run, in HEAD's order then BASE's, each with its verdict. */
export function compareResults(
  base: RunResult,
  head: RunResult,
  options: ChangeOptions = {},
): TargetChange[] {
  const keys: { target: string; kind: ProbeKind }[] = [];
  for (const m of [...head.measurements, ...base.measurements])
    if (!keys.some((k) => k.target === m.target && k.kind === m.kind))
      keys.push({ target: m.target, kind: m.kind });
  const pauses = { base: pauseBetweenSamplesUs(base), head: pauseBetweenSamplesUs(head) };
  const changes = keys.map(({ target, kind }): TargetChange => {
    const mb = base.measurements.find((m) => m.target === target && m.kind === kind);
    const mh = head.measurements.find((m) => m.target === target && m.kind === kind);
    if (!mb || !mh)
      return {
        target,
        kind,
        percentiles: [],
        verdict: 'not compared',
        note: `measured only in ${mb ? 'BASE' : 'HEAD'}`,
      };
    const notComparable = whyNotComparable(base, head, mb, mh);
    if (notComparable)
      return { target, kind, percentiles: [], verdict: 'not comparable', note: notComparable };
    const local = (r: RunResult) => onLoopback(r.targets.find((t) => t.name === target)?.endpoint);
    const onThisMachine = (r: RunResult) =>
      local(r) || r.targets.find((t) => t.name === target)?.transport === 'file';
    const span = (r: RunResult, pauseUs: number | undefined): SpanFigures => ({
      ...r.client.host?.spans?.find((x) => x.target === target && x.kind === kind),
      ...(pauseUs !== undefined ? { betweenSamplesUs: pauseUs } : {}),
      onThisMachine: onThisMachine(r),
    });
    const [spanBase, spanHead] = [span(base, pauses.base), span(head, pauses.head)];
    const comparison = compareRuns(
      {
        label: 'BASE',
        runId: base.id,
        measurement: mb,
        sharedHost: local(base),
        span: spanBase,
      },
      {
        label: 'HEAD',
        runId: head.id,
        measurement: mh,
        sharedHost: local(head),
        span: spanHead,
      },
      {
        percentiles: CHANGE_PERCENTILES,
        ...(options.resamples !== undefined ? { resamples: options.resamples } : {}),
        ...(options.minEffect ? { minEffect: options.minEffect } : {}),
      },
    );
    if (!comparison) {
      const failedIn =
        mh.stats.count === 0 && mb.stats.count > 0
          ? 'HEAD'
          : mb.stats.count === 0 && mh.stats.count > 0
            ? 'BASE'
            : undefined;
      const failed = failedIn === 'HEAD' ? mh : mb;
      return {
        target,
        kind,
        percentiles: [],
        verdict: 'not compared',
        note: failedIn
          ? `every sample failed in ${failedIn} (${failuresText(failed)}) while ${failedIn === 'HEAD' ? 'BASE' : 'HEAD'} measured ${(failedIn === 'HEAD' ? mb : mh).stats.count}, so there are no latencies to compare`
          : `fewer than ${MIN_COMPARED_SAMPLES} successful samples kept (BASE ${mb.stats.count}, HEAD ${mh.stats.count})`,
        ...(failedIn ? { failedIn } : {}),
      };
    }
    const samples = { base: comparison.samples.a, head: comparison.samples.b };
    const percentiles = comparison.differences.map((d): PercentileChange => {
      const percentile = d.percentile as ChangePercentile;
      const baseUs = d.aUs;
      const headUs = d.bUs;
      const change = {
        percentile,
        baseUs,
        headUs,
        diffUs: d.diffUs,
        lowUs: d.lowUs,
        highUs: d.highUs,
        share: baseUs === 0 ? 0 : d.diffUs / baseUs,
      };
      if (d.notEstablishedBy === 'tail')
        return {
          ...change,
          note: `p${percentile} needs ${samplesNeededAt(percentile).toLocaleString('en-US')} samples a side to be judged (BASE ${samples.base}, HEAD ${samples.head})`,
        };
      if (d.notEstablishedBy === 'host' && d.host)
        return { ...change, verdict: 'not attributable', host: d.host, note: d.text };
      const verdict: ChangeVerdict = !d.established
        ? 'no change detected'
        : d.diffUs > 0
          ? 'regressed'
          : 'improved';
      return { ...change, verdict, ...(d.notEstablishedBy === 'min-effect' ? { note: d.text } : {}) };
    });
    return { target, kind, samples, percentiles, verdict: targetVerdict(percentiles) };
  });
  return withCommonMoves(changes);
}

/** "12 failed: refused 12" from a measurement's error counts. */
function failuresText(m: RunResult['measurements'][number]): string {
  const classes = Object.entries(m.errorsByClass).filter(([, n]) => (n ?? 0) > 0);
  const total = classes.reduce((sum, [, n]) => sum + (n ?? 0), 0);
  if (total === 0) return 'no sample measured';
  return `${total} failed: ${classes.map(([c, n]) => `${c} ${n}`).join(', ')}`;
}

/**
 * The regressions a `--fail-on-regression SHARE` gate fails on: regressed, and by more than `share`
 * of BASE's figure (the estimate, as printed). With `strictHost`, a rise the host may explain ("not
 * attributable") fails too: the user asked the gate to hold the host to account as well.
 */
export function regressionsBeyond(
  changes: readonly TargetChange[],
  share: number,
  options: { strictHost?: boolean } = {},
): Regression[] {
  const counts = (p: PercentileChange) =>
    p.verdict === 'regressed' ||
    (options.strictHost === true && p.verdict === 'not attributable' && p.diffUs > 0);
  return changes.flatMap((c) =>
    c.percentiles
      .filter((p) => counts(p) && p.share > share)
      .map((change) => ({ target: c.target, kind: c.kind, change })),
  );
}

export interface Regression {
  target: string;
  kind: ProbeKind;
  change: PercentileChange;
}

/** Whether a target's or a percentile's change is a regression (the word a report emphasises). */
export function isRegressed(change: { verdict?: string }): boolean {
  return change.verdict === 'regressed';
}

/** How the gate decides, in the words every change report ends with. */
export function changeRuleText(minEffect: MinEffect | undefined): string {
  const confidence = `${Math.round(BOOTSTRAP_CONFIDENCE * 100)}%`;
  const minimum = minEffect ? `; at least the minimum effect, ${minEffectText(minEffect)}` : '';
  return `Change = HEAD - BASE with its ${confidence} bootstrap interval (${BOOTSTRAP_RESAMPLES.toLocaleString('en-US')} resamples, seeded) from the raw samples each run kept: warm connections resampled, then samples within them, in blocks as long as the run's own spells. Regressed or improved only when the difference is established by the rule every comparison of the tool follows (the interval excludes 0; a p99 from ${MIN_P99_SAMPLES.toLocaleString('en-US')} samples a side${minimum}); not attributable when either run's host waited for a CPU, per sample, at least as long as the change the interval establishes, or when no other target of the kind moved apart from it beyond their intervals (the runs' shared conditions may have moved them all, not one database: rerun on a quieter host, or pass --strict-host to fail on it); otherwise no change detected.`;
}

/** The change verdicts as a command's usage explains them. */
export const CHANGE_VERDICTS_HELP = `"regressed" / "improved" when the rule every
       comparison follows establishes it (the interval excludes 0), "not attributable" when either run's
       host's CPU wait a sample accounts for it or no other target of the kind moved apart from it, else
       "no change detected"`;

/**
 * The change gate's report (`dbprobe compare`, `dbprobe run --baseline`): pure formatters over the
 * changes of src/shared/runChanges.ts, as terminal text, a Markdown section and JSON.
 */
import { BOOTSTRAP_CONFIDENCE } from '../shared/judgement/bootstrap';
import type { ChangeJudgement } from '../shared/judgement/judgeChanges';
import type { RunResult } from '../shared/result';
import type { MinEffect } from '../shared/judgement/minEffect';
import {
  CHANGE_PERCENTILES,
  changeRuleText,
  isRegressed,
  type PercentileChange,
  type Regression,
  type TargetChange,
} from '../shared/judgement/runChanges';
import { ms, signedMs } from '../shared/units';
import { inlineText, markdownTable, type Column } from './markdownTable';

export interface ChangeReport {
  base: RunResult;
  head: RunResult;
  /** The judgement of the two runs (judgeChanges): its lines come first on every surface. */
  judgement: ChangeJudgement;
  changes: TargetChange[];
  /** The user's minimum effect (`--min-effect`), when set. */
  minEffect?: MinEffect;
  /** The `--fail-on-regression` share, when the gate is on. */
  failShare?: number;
  /** `--strict-host`: a rise the host may explain fails the gate too. */
  strictHost?: boolean;
  /** The regressions that fail that gate. */
  failing: Regression[];
}

/** "p50 0.307 -> 2.477 ms: +2.170 ms [+2.150, +2.190] (+706.8%), regressed" */
export function percentileChangeText(p: PercentileChange): string {
  const figures = `p${p.percentile} ${ms(p.baseUs)} -> ${ms(p.headUs)} ms: ${signedMs(p.diffUs)} ms [${signedMs(p.lowUs)}, ${signedMs(p.highUs)}] (${signedPercent(p.share)})`;
  return `${figures}, ${p.verdict ?? `not judged: ${p.note ?? ''}`}`;
}

/** One line per target and kind, then one per percentile, then how to read them. */
export function formatChangesText(report: ChangeReport): string {
  const lines = [
    ...report.judgement.lines,
    gateLine(report),
    `BASE ${describeRun(report.base)}`,
    `HEAD ${describeRun(report.head)}`,
  ];
  for (const c of report.changes) {
    const n = c.samples ? ` (n ${c.samples.base} / ${c.samples.head})` : '';
    lines.push(`target "${c.target}" ${c.kind}${n}: ${c.verdict}${c.note ? ` (${c.note})` : ''}`);
    for (const p of c.percentiles) lines.push(`  ${percentileChangeText(p)}`);
  }
  lines.push(legend(report));
  return `${lines.filter(Boolean).join('\n')}\n`;
}

/** A percentile's change in one cell: "1.000 → 2.000: +1.000 [+0.800, +1.200] regressed". */
function changeColumn(percentile: number): Column<TargetChange> {
  return {
    header: `p${percentile} ms: BASE → HEAD: change [${Math.round(BOOTSTRAP_CONFIDENCE * 100)}% CI]`,
    cell: (c) => {
      const p = c.percentiles.find((x) => x.percentile === percentile);
      return p
        ? `${ms(p.baseUs)} → ${ms(p.headUs)}: ${signedMs(p.diffUs)} [${signedMs(p.lowUs)}, ${signedMs(p.highUs)}] ${p.verdict ?? 'not judged'}`
        : '';
    },
  };
}

const CHANGE_COLUMNS: readonly Column<TargetChange>[] = [
  { header: 'Target', cell: (c) => c.target },
  { header: 'Kind', cell: (c) => c.kind },
  {
    header: 'n (BASE / HEAD)',
    align: 'right',
    cell: (c) => (c.samples ? `${c.samples.base} / ${c.samples.head}` : ''),
  },
  ...CHANGE_PERCENTILES.map(changeColumn),
  {
    header: 'verdict',
    cell: (c) => `${isRegressed(c) ? `**${c.verdict}**` : c.verdict}${c.note ? ` (${c.note})` : ''}`,
  },
];

/** The Markdown section for a job summary or a report file. */
export function formatChangesMarkdown(report: ChangeReport): string {
  const gate = gateLine(report);
  return [
    '## Change against the baseline',
    '',
    ...report.judgement.lines.map((line) => `- ${inlineText(line)}`),
    ...(gate ? [`- ${inlineText(gate)}`] : []),
    '',
    `BASE ${inlineText(describeRun(report.base))}; HEAD ${inlineText(describeRun(report.head))}.`,
    '',
    ...markdownTable(CHANGE_COLUMNS, report.changes),
    '',
    legend(report),
    '',
  ].join('\n');
}

/** The changes as JSON: what a script or the GitHub Action reads. */
export function formatChangesJson(report: ChangeReport): string {
  return `${JSON.stringify(
    {
      base: { id: report.base.id, startedAt: report.base.startedAt },
      head: { id: report.head.id, startedAt: report.head.startedAt },
      lines: report.judgement.lines,
      comparable: report.judgement.comparable,
      ...(report.judgement.reason !== undefined ? { reason: report.judgement.reason } : {}),
      inCommon: report.judgement.inCommon,
      ...(report.minEffect ? { minEffect: report.minEffect } : {}),
      ...(report.strictHost ? { strictHost: true } : {}),
      notAttributable: report.changes.some((c) => c.verdict === 'not attributable'),
      ...(report.failShare !== undefined ? { failOnRegression: report.failShare } : {}),
      regressed: report.changes.some(isRegressed),
      failed: report.failing.length > 0,
      // The regressions that fail --fail-on-regression, each as the gate's line names it.
      failing: report.failing.map((r) => ({ target: r.target, kind: r.kind, text: regressionText(r) })),
      changes: report.changes,
    },
    null,
    2,
  )}\n`;
}

function describeRun(result: RunResult): string {
  return `run ${result.id} (${result.startedAt}, ${result.environment.location.label})`;
}

function legend(report: ChangeReport): string {
  return changeRuleText(report.minEffect);
}

function gateLine(report: ChangeReport): string {
  // A target BASE measured and HEAD failed outright fails the gate, and a comparison left with nothing else.
  const lost = report.changes.filter((c) => c.failedIn === 'HEAD');
  if (lost.length > 0 && (report.failShare !== undefined || !report.judgement.comparable))
    return `Gate${report.failShare === undefined ? '' : ` --fail-on-regression ${signedPercent(report.failShare)}`}: FAILED: ${lost.map((c) => `target "${c.target}" ${c.kind} failed every sample in HEAD`).join('; ')}.`;
  if (!report.judgement.comparable) return 'Gate: nothing was compared, which is an error, not a pass.';
  if (report.failShare === undefined) return '';
  const limit = signedPercent(report.failShare);
  const held = report.strictHost
    ? ''
    : report.changes.some((c) => c.verdict === 'not attributable')
      ? ' (a change the host may explain is not failed on: --strict-host fails on it)'
      : '';
  if (report.failing.length === 0)
    return `Gate --fail-on-regression ${limit}: passed (no established regression above ${limit})${held}.`;
  return `Gate --fail-on-regression ${limit}: FAILED: ${report.failing.map(regressionText).join('; ')}.`;
}

/** "target "pg" subsequent p50 +2.170 ms (+706.8%)" */
export function regressionText(r: Regression): string {
  return `target "${r.target}" ${r.kind} p${r.change.percentile} ${signedMs(r.change.diffUs)} ms (${signedPercent(r.change.share)})`;
}

function signedPercent(share: number): string {
  const value = (share * 100).toFixed(1);
  return `${share > 0 ? '+' : ''}${value}%`;
}

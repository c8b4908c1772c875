/** The Markdown section "Differences between targets": differences at each compared percentile with bootstrap intervals. */
import { BOOTSTRAP_CONFIDENCE, COMPARED_PERCENTILES } from '../shared/judgement/bootstrap';
import { compareTargets, type Comparison } from '../shared/judgement/differences';
import type { RunResult } from '../shared/result';
import { signedMs } from '../shared/units';
import { inlineText, markdownTable, type Column } from './markdownTable';

export function differencesSection(result: RunResult): string[] {
  const { comparisons, skipped } = compareTargets(result);
  if (comparisons.length === 0) return [];
  const confidence = `${Math.round(BOOTSTRAP_CONFIDENCE * 100)}%`;
  const resamples = comparisons[0]?.resamples ?? 0;
  return [
    '## Differences between targets',
    '',
    `B - A at ${COMPARED_PERCENTILES.map((p) => `p${p}`).join(' and ')} with a ${confidence} bootstrap confidence interval (${resamples.toLocaleString('en-US')} resamples, seeded: the same run gives the same interval), from the raw samples the run kept; n is the samples each side's interval used. An interval that contains 0 establishes no difference.`,
    '',
    ...markdownTable(differenceColumns(confidence), comparisons),
    '',
    ...(skipped.length > 0
      ? [
          `Not compared: ${skipped.map((s) => `${inlineText(s.target)} ${s.kind} (${s.reason})`).join('; ')}.`,
          '',
        ]
      : []),
  ];
}

/** Kind, the two sides, then per compared percentile B - A and its interval, then the verdict. */
function differenceColumns(confidence: string): Column<Comparison>[] {
  const at = (c: Comparison, percentile: number) => c.differences.find((d) => d.percentile === percentile);
  return [
    { header: 'Kind', cell: (c) => c.kind },
    { header: 'A', cell: (c) => c.a },
    { header: 'B', cell: (c) => c.b },
    {
      header: 'n (A / B)',
      align: 'right',
      cell: (c) => `${used(c.samples.a, c.samples.keptA)} / ${used(c.samples.b, c.samples.keptB)}`,
    },
    ...COMPARED_PERCENTILES.flatMap((p): Column<Comparison>[] => [
      {
        header: `p${p} B - A`,
        align: 'right',
        cell: (c) => {
          const d = at(c, p);
          return d ? signedMs(d.diffUs) : '-';
        },
      },
      {
        header: `p${p} ${confidence} CI`,
        align: 'right',
        cell: (c) => {
          const d = at(c, p);
          return d ? `${signedMs(d.lowUs)} to ${signedMs(d.highUs)}` : '-';
        },
      },
    ]),
    { header: 'verdict', cell: (c) => c.differences.map((d) => d.text).join('; ') },
  ];
}

/** "2000 of 10000" when the cap left samples out, so the reader knows what the interval rests on. */
function used(n: number, kept: number): string {
  return n === kept ? String(n) : `${n} of ${kept}`;
}

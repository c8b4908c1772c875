/** The Markdown section "Differences between targets": p50 and p95 differences with bootstrap intervals. */
import { BOOTSTRAP_CONFIDENCE } from '../shared/bootstrap';
import { compareTargets, type Comparison } from '../shared/differences';
import type { RunResult } from '../shared/result';
import { signedMs } from '../shared/units';

export function differencesSection(result: RunResult): string[] {
  const { comparisons, skipped } = compareTargets(result);
  if (comparisons.length === 0) return [];
  const confidence = `${Math.round(BOOTSTRAP_CONFIDENCE * 100)}%`;
  const resamples = comparisons[0]?.resamples ?? 0;
  return [
    '## Differences between targets',
    '',
    `B - A at p50 and p95 with a ${confidence} bootstrap confidence interval (${resamples.toLocaleString('en-US')} resamples, seeded: the same run gives the same interval), from the raw samples the run kept; n is the samples each side's interval used. An interval that contains 0 establishes no difference.`,
    '',
    '| Kind | A | B | n (A / B) | p50 B - A | p50 95% CI | p95 B - A | p95 95% CI | verdict |',
    '| --- | --- | --- | ---: | ---: | ---: | ---: | ---: | --- |',
    ...comparisons.map(row),
    '',
    ...(skipped.length > 0
      ? [`Not compared: ${skipped.map((s) => `${cell(s.target)} ${s.kind} (${s.reason})`).join('; ')}.`, '']
      : []),
  ];
}

function row(c: Comparison): string {
  const figures = c.differences.flatMap((d) => [
    signedMs(d.diffUs),
    `${signedMs(d.lowUs)} to ${signedMs(d.highUs)}`,
  ]);
  const n = `${used(c.samples.a, c.samples.keptA)} / ${used(c.samples.b, c.samples.keptB)}`;
  const verdict = c.differences.map((d) => d.text).join('; ');
  return `| ${c.kind} | ${cell(c.a)} | ${cell(c.b)} | ${n} | ${figures.join(' | ')} | ${cell(verdict)} |`;
}

/** "2000 of 10000" when the cap left samples out, so the reader knows what the interval rests on. */
function used(n: number, kept: number): string {
  return n === kept ? String(n) : `${n} of ${kept}`;
}

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

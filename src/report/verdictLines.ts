/**
 * The verdict every text surface states first (src/shared/judgement): the Markdown's first lines
 * after the title, the job summary's, and the CLI's stderr summary, in the judgement's own words.
 */
import type { RunJudgement } from '../shared/judgement/judgeRun';
import { inlineText } from './markdownTable';

/**
 * The Markdown lines: one bullet per verdict line (each ranking's why beneath it; a target alone in
 * its workload gets its own figures), then the notes.
 */
export function verdictMarkdown(judgement: RunJudgement, extra: readonly string[] = []): string[] {
  const lines: string[] = [];
  for (const r of judgement.rankings) {
    lines.push(`- ${inlineText(r.sentence)}`);
    for (const why of r.why) lines.push(`  - ${inlineText(why)}`);
  }
  for (const a of judgement.alone) lines.push(`- ${inlineText(a.sentence)}`);
  for (const l of judgement.load) lines.push(`- ${inlineText(l.sentence)}`);
  for (const l of judgement.layers) lines.push(`- ${inlineText(l.sentence)}`);
  for (const line of extra) lines.push(`- ${inlineText(line)}`);
  if (lines.length === 0) return [];
  lines.push('');
  if (judgement.notes.length > 0) lines.push(...judgement.notes.map((n) => `_${inlineText(n)}_`), '');
  return lines;
}

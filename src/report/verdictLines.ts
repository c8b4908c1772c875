/**
 * The verdict every text surface states first (src/shared/judgement): the Markdown's first lines
 * after the title, the job summary's, and the CLI's stderr summary, in the judgement's own words.
 */
import type { RunJudgement } from '../shared/judgement/judgeRun';
import { inlineText } from './markdownTable';

/**
 * The Markdown lines: one bullet per verdict line, in the judgement's order (the lines the panel and
 * the CLI's stderr state), each ranking's why beneath its line, then the notes.
 */
export function verdictMarkdown(judgement: RunJudgement, extra: readonly string[] = []): string[] {
  const lines: string[] = [];
  for (const line of [...judgement.lines, ...extra]) {
    lines.push(`- ${inlineText(line)}`);
    const ranking = judgement.rankings.find((r) => r.sentence === line);
    for (const why of ranking?.why ?? []) lines.push(`  - ${inlineText(why)}`);
  }
  if (lines.length === 0) return [];
  lines.push('');
  if (judgement.notes.length > 0) lines.push(...judgement.notes.map((n) => `_${inlineText(n)}_`), '');
  return lines;
}

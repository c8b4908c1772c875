/**
 * The verdict every text surface states first (src/shared/judgement): the Markdown's first lines
 * after the title, the job summary's, and the CLI's stderr summary, in the judgement's own words.
 */
import type { RunJudgement } from '../shared/judgement/judgeRun';
import { cellText, rankingTables, type RankingTable } from '../shared/judgement/rankingTable';
import { inlineText, markdownTable, type Column } from './markdownTable';

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
  // The same table the panel opens with (rankingTable.ts), its cells in one line each.
  const tables = rankingTables(judgement);
  for (const table of tables) lines.push(...rankingMarkdown(table, tables.length > 1), '');
  if (judgement.notes.length > 0) lines.push(...judgement.notes.map((n) => `_${inlineText(n)}_`), '');
  return lines;
}

function rankingMarkdown(table: RankingTable, named: boolean): string[] {
  const columns: Column<RankingTable['rows'][number]>[] = [
    { header: named ? `Target (${table.workload})` : 'Target', cell: (row) => row.target },
    ...table.columns.map((header, i) => ({
      header: table.at === 'app' ? `${header} (≈ at ${table.rttMs} ms RTT · here)` : `${header} (here)`,
      cell: (row: RankingTable['rows'][number]) => (row.cells[i] ? cellText(row.cells[i]) : '–'),
    })),
  ];
  return markdownTable(columns, table.rows);
}

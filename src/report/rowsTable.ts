/**
 * The Markdown's "First row and last row", under the split of each query's time: per target and
 * kind whose answer's rows were counted, the p50 to the first row and to the last, or a one-row
 * answer's one figure, with the bytes received (src/shared/rowsLines.ts).
 */
import type { RunResult } from '../shared/result';
import {
  ROWS_INTRO,
  rowCountText,
  rowsBytesText,
  rowsFigureText,
  rowsLines,
  type RowsLine,
} from '../shared/rowsLines';
import { inlineText, markdownTable, type Column } from './markdownTable';

export function rowsSection(result: RunResult): string[] {
  const lines = rowsLines(
    result.measurements,
    result.targets.map((t) => t.name),
  );
  if (lines.length === 0) return [];
  const whys = [...new Set(lines.flatMap((l) => (l.one ? [l.one.why] : [])))];
  return [
    '## First row and last row',
    '',
    ROWS_INTRO,
    '',
    ...markdownTable(COLUMNS, lines),
    '',
    ...whys.map((why) => `_${inlineText(why[0]!.toUpperCase() + why.slice(1))}._`),
    ...(whys.length > 0 ? [''] : []),
  ];
}

const COLUMNS: Column<RowsLine>[] = [
  { header: 'Target', cell: (l) => l.target },
  { header: 'kind', cell: (l) => l.kind },
  { header: 'rows', align: 'right', cell: (l) => rowCountText(l.count) },
  { header: 'time to the rows (p50)', align: 'right', cell: rowsFigureText },
  { header: 'bytes received (p50)', align: 'right', cell: rowsBytesText },
];

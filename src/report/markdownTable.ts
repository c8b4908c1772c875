/**
 * Every Markdown table of the reports, from a list of columns: each column gives its header, its
 * alignment and how a row fills its cell, so a column is added or moved in one place and the header
 * can never drift from the cells under it. Every header and cell goes through `inlineText`.
 */

export interface Column<Row> {
  readonly header: string;
  /** Figures right, words left (the default). */
  readonly align?: 'left' | 'right';
  readonly cell: (row: Row) => string | number;
}

/** The header line, the alignment line and one line per row. */
export function markdownTable<Row>(columns: readonly Column<Row>[], rows: readonly Row[]): string[] {
  const line = (cells: readonly string[]) => `| ${cells.join(' | ')} |`;
  return [
    line(columns.map((c) => inlineText(c.header))),
    line(columns.map((c) => (c.align === 'right' ? '---:' : '---'))),
    ...rows.map((row) => line(columns.map((c) => inlineText(String(c.cell(row)))))),
  ];
}

/**
 * Text that must stay on one Markdown line and inside its table cell (target names, error
 * messages, notes): pipes escaped, line breaks made spaces. The one escaping function of the reports.
 */
export function inlineText(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

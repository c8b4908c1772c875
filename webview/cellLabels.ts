/**
 * What each body cell of a table is, read from its head: the label of every head row above its
 * columns (a run group's "from us-east-1" over "p50"), and the unit its column's figures are in. A
 * narrow panel shows these before and after each figure once the columns are gone (reflowTables.ts).
 * Pure over the few fields it reads, so it is tested without a DOM.
 */

/** What is read of a table cell (an HTMLTableCellElement has them). */
export interface LabelledCell {
  colSpan: number;
  rowSpan: number;
  textContent: string | null;
  /** `label`: the head cell's name when its text holds more (a place's detail line); `unit`: "ms". */
  dataset: { label?: string; unit?: string };
}

export interface CellLabel {
  /** Every head row's label over the cell's columns, top first, joined: "from us-east-1 · p50". */
  label?: string;
  /** The unit its column's figures are in (a head cell's `data-unit`), for a cell of one column. */
  unit?: string;
  /** The first cell under a head cell spanning several columns: a narrow layout starts a line there. */
  groupStart: boolean;
}

const SEPARATOR = ' · ';

/**
 * The label of each body cell, row by row (undefined where a table cannot be labelled: a body cell
 * spanning rows, or a row wider than the head). The first column names the row and gets no label.
 */
export function cellLabels(
  head: readonly (readonly LabelledCell[])[],
  body: readonly (readonly LabelledCell[])[],
): CellLabel[][] | undefined {
  const columns = headColumns(head);
  const labels: CellLabel[][] = [];
  for (const row of body) {
    let column = 0;
    const own: CellLabel[] = [];
    for (const cell of row) {
      if (cell.rowSpan > 1) return undefined;
      const span = Math.max(1, cell.colSpan);
      const covered = columns.slice(column, column + span);
      if (covered.length < span) return undefined;
      // Only the head cells over every column the cell covers name it.
      const shared = covered[0]!.filter((h) => covered.every((c) => c.includes(h)));
      const names = shared.map(nameOf).filter((n) => n !== '');
      const unit = span === 1 ? shared.find((h) => h.dataset.unit)?.dataset.unit : undefined;
      own.push({
        ...(column > 0 && names.length > 0 ? { label: names.join(SEPARATOR) } : {}),
        ...(unit ? { unit } : {}),
        groupStart: shared.some((h) => h.colSpan > 1 && columns[column - 1]?.includes(h) !== true),
      });
      column += span;
    }
    labels.push(own);
  }
  return labels;
}

/** For each column, the head cells above it, top first (a cell spanning rows or columns in each). */
function headColumns(head: readonly (readonly LabelledCell[])[]): LabelledCell[][] {
  const grid: (LabelledCell | undefined)[][] = head.map(() => []);
  head.forEach((row, r) => {
    let column = 0;
    for (const cell of row) {
      while (grid[r]![column]) column++;
      for (let dr = 0; dr < Math.max(1, cell.rowSpan) && r + dr < head.length; dr++)
        for (let dc = 0; dc < Math.max(1, cell.colSpan); dc++) grid[r + dr]![column + dc] = cell;
      column += Math.max(1, cell.colSpan);
    }
  });
  const width = Math.max(0, ...grid.map((row) => row.length));
  return Array.from({ length: width }, (_, c) => {
    const cells: LabelledCell[] = [];
    for (const row of grid) {
      const cell = row[c];
      if (cell && !cells.includes(cell)) cells.push(cell);
    }
    return cells;
  });
}

function nameOf(cell: LabelledCell): string {
  return (cell.dataset.label ?? cell.textContent ?? '').trim();
}

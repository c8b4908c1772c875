/**
 * A narrow panel (the sidebar open beside the editor) lays every table of figures out as labelled
 * figures, row by row (panel.css `.reflow`), instead of columns to scroll to sideways: each body cell
 * after the row's first gets the labels of every head row above it as `data-label` (a run group's
 * "from us-east-1 · p50"), and its column's unit as `data-unit`, which the narrow layout shows before
 * and after it. Under a head spanning several columns (a place), a line starts at each group's first
 * cell, so each place's figures read together.
 */
import { cellLabels } from './cellLabels';

export function reflowTables(root: ParentNode): void {
  for (const wrap of root.querySelectorAll<HTMLElement>('.table-wrap:not(.reflow)')) {
    const table = wrap.querySelector<HTMLTableElement>(':scope > table');
    const head = table?.tHead?.rows;
    if (!table || !head || head.length === 0) continue;
    const rows = [...table.tBodies].flatMap((body) => [...body.rows]);
    const labels = cellLabels(
      [...head].map((row) => [...row.cells]),
      rows.map((row) => [...row.cells]),
    );
    if (!labels) continue;
    rows.forEach((row, r) =>
      [...row.cells].forEach((cell, i) => {
        const label = labels[r]?.[i];
        if (!label) return;
        if (label.label && cell.dataset.label === undefined) cell.dataset.label = label.label;
        if (label.unit && cell.dataset.unit === undefined && /\d/.test(cell.textContent ?? ''))
          cell.dataset.unit = label.unit;
        if (label.groupStart) cell.dataset.groupStart = '';
      }),
    );
    if (labels.some((row) => row.some((l) => l.groupStart))) wrap.dataset.grouped = '';
    wrap.classList.add('reflow');
  }
}

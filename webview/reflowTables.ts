/**
 * A narrow panel (the sidebar open beside the editor) lays every table of figures out as labelled
 * figures, row by row (panel.css `.reflow`), instead of columns to scroll to sideways: each body cell
 * after the row's first gets its column's head as `data-label`, which the narrow layout shows before
 * it. Tables whose head spans columns (a run group's places) keep their columns: a label per cell
 * could not say which place a figure is.
 */
export function reflowTables(root: ParentNode): void {
  for (const wrap of root.querySelectorAll<HTMLElement>('.table-wrap:not(.reflow)')) {
    const table = wrap.querySelector<HTMLTableElement>(':scope > table');
    const head = table?.tHead?.rows;
    if (!table || !head || head.length !== 1) continue;
    const labels = [...head[0]!.cells].map((cell) =>
      cell.colSpan > 1 ? undefined : (cell.textContent ?? ''),
    );
    if (labels.includes(undefined)) continue;
    const rows = [...table.tBodies].flatMap((body) => [...body.rows]);
    if (rows.some((row) => [...row.cells].some((cell) => cell.colSpan > 1))) continue;
    for (const row of rows)
      [...row.cells].forEach((cell, i) => {
        if (i > 0 && cell.dataset.label === undefined && labels[i]) cell.dataset.label = labels[i];
      });
    wrap.classList.add('reflow');
  }
}

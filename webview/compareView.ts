/** Renders two runs side by side: p50/p95 per target and kind, and the change from A to B. */
import type { CompareRow, CompareViewModel } from '../src/shared/viewModel';
import { ms } from '../src/shared/units';
import { differencesTable } from './differencesTable';
import { h, section } from './dom';
import { reflowTables } from './reflowTables';

export function renderCompare(
  root: HTMLElement,
  model: CompareViewModel,
  onOpen: (runId: string) => void,
): void {
  const sideLink = (name: string, side: CompareViewModel['a']) => {
    const link = h('a', { href: '#', title: 'Open this run' }, `${name}: ${side.label}`);
    link.addEventListener('click', (event) => {
      event.preventDefault();
      onOpen(side.runId);
    });
    return h(
      'p',
      {},
      link,
      h('span', { class: 'muted' }, ` · ${new Date(side.startedAt).toLocaleString()} · ${side.location}`),
    );
  };
  root.replaceChildren(
    h('header', {}, h('h1', {}, 'Compare runs'), sideLink('A', model.a), sideLink('B', model.b)),
    model.changes
      ? h(
          'section',
          { id: 'verdict', class: 'verdict', 'aria-label': 'Verdict' },
          h('h2', { class: 'verdict-title' }, 'Verdict, B against A'),
          h('ul', { class: 'verdict-lines' }, ...model.changes.lines.map((line) => h('li', {}, line))),
        )
      : '',
    section(
      'p50 and p95 (ms), B against A',
      'compare',
      h(
        'div',
        { class: 'table-wrap' },
        h(
          'table',
          { id: 'compare-table' },
          h(
            'thead',
            {},
            h(
              'tr',
              {},
              h('th', {}, 'target'),
              h('th', {}, 'kind'),
              h('th', { class: 'num', 'data-unit': 'ms' }, 'A p50'),
              h('th', { class: 'num', 'data-unit': 'ms' }, 'B p50'),
              h('th', { class: 'num' }, 'Δ p50'),
              h('th', { class: 'num', 'data-unit': 'ms' }, 'A p95'),
              h('th', { class: 'num', 'data-unit': 'ms' }, 'B p95'),
              h('th', { class: 'num' }, 'Δ p95'),
            ),
          ),
          h('tbody', {}, ...model.rows.map((row) => rowOf(row, model))),
        ),
      ),
      h(
        'p',
        { class: 'muted' },
        'Δ is B minus A; a positive change means B was slower. Coloured only where the verdict above establishes the change at p50; the rest is within noise. Runs from different places or times of day differ for reasons beyond the database.',
      ),
    ),
    model.differences.length > 0
      ? section(
          'Differences, B against A, with 95% bootstrap intervals',
          'differences',
          differencesTable(model.differences, 'compare-differences-table'),
          h(
            'p',
            { class: 'muted' },
            'From the samples each run kept. An interval that contains 0 establishes no change; one that does not says the change is beyond what sampling noise explains, not why it happened.',
          ),
        )
      : '',
  );
  reflowTables(root);
}

/**
 * The judgement's verdict at a percentile for the row: a colour only for an established change (the
 * compare view once coloured any sign, established or not).
 */
function established(row: CompareRow, model: CompareViewModel, percentile: number): string {
  const change = model.changes?.changes.find((c) => c.target === row.target && c.kind === row.kind);
  const verdict = change?.percentiles.find((p) => p.percentile === percentile)?.verdict;
  return verdict === 'regressed' ? 'worse' : verdict === 'improved' ? 'better' : 'muted';
}

function rowOf(row: CompareRow, model: CompareViewModel): HTMLElement {
  const figure = (us: number | undefined) => h('td', { class: 'num' }, us === undefined ? '-' : ms(us));
  const delta = (us: number | undefined, ratio: number | undefined, percentile?: number) =>
    h(
      'td',
      {
        class: `num ${us === undefined || us === 0 || percentile === undefined ? 'muted' : established(row, model, percentile)}`,
        'data-delta': percentile === undefined ? undefined : `p${percentile}`,
      },
      us === undefined
        ? '-'
        : // The unit inside: the change's percentage follows the figure, not the unit.
          `${us > 0 ? '+' : ''}${ms(us)} ms (${ratio !== undefined && ratio > 0 ? '+' : ''}${((ratio ?? 0) * 100).toFixed(0)}%)`,
    );
  return h(
    'tr',
    { 'data-target': row.target, 'data-kind': row.kind },
    h('td', {}, row.target),
    h('td', { class: 'kind-cell' }, row.kind),
    figure(row.a?.p50Us),
    figure(row.b?.p50Us),
    delta(row.delta?.p50Us, row.delta?.p50Ratio, 50),
    figure(row.a?.p95Us),
    figure(row.b?.p95Us),
    delta(row.delta?.p95Us, row.delta?.p95Ratio),
  );
}

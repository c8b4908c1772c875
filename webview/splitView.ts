/**
 * The run panel's "Where a query's time goes": the stacked bars (splitChart.ts) and their figures
 * as a table, each part not given named with why.
 */
import { SPLIT_PART_LABELS, SPLIT_PARTS, type QuerySplit } from '../src/shared/querySplit';
import { ms } from '../src/shared/units';
import type { RunViewModel } from '../src/shared/viewModel';
import { h } from './dom';
import { splitRows } from './splitChart';

export function splitParts(model: RunViewModel, chart: HTMLElement): HTMLElement[] {
  chart.querySelector('canvas')?.setAttribute('aria-describedby', 'split-table');
  return [
    h(
      'p',
      { class: 'muted' },
      'p50 = database (the server’s own time, as it states it) + distance (counted turns × the network floor) + client (CPU of a connect) + rest. At the app’s RTT only the distance changes.',
    ),
    chart,
    splitTable(model),
  ];
}

function splitTable(model: RunViewModel): HTMLElement {
  const rows = splitRows(model);
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { id: 'split-table' },
      h('caption', { class: 'muted' }, 'The figures of the chart above: ms.'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'target'),
          h('th', { class: 'num' }, 'p50'),
          ...SPLIT_PARTS.map((part) => h('th', { class: 'num' }, SPLIT_PART_LABELS[part])),
          h('th', {}, 'database time from'),
        ),
      ),
      h(
        'tbody',
        {},
        ...rows.map(({ label, split }) =>
          h(
            'tr',
            { 'data-target': split.target, 'data-kind': split.kind },
            h('td', {}, label),
            h('td', { class: 'num' }, ms(split.p50Us)),
            ...SPLIT_PARTS.map((part) => partCell(split, part)),
            h('td', {}, split.source ?? '-'),
          ),
        ),
      ),
    ),
  );
}

function partCell(split: QuerySplit, part: (typeof SPLIT_PARTS)[number]): HTMLElement {
  const us = split.parts[part];
  if (us !== undefined) {
    const text =
      part === 'distance' ? `${ms(us)} (${split.turns} × ${ms(split.rttUs ?? split.floor.us)})` : ms(us);
    return h('td', { class: 'num', 'data-part': part }, text);
  }
  const why = split.why[part] ?? '';
  return h('td', { class: 'num muted', 'data-part': part, title: why }, `not given: ${why}`);
}

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
    ...notGiven(model),
  ];
}

/**
 * Why each part not given is missing, said once under the table (as the Markdown's footnotes do)
 * rather than in every cell: "client not given (subsequent): a warm query has no CPU figure of its own."
 */
function notGiven(model: RunViewModel): HTMLElement[] {
  const said = new Map<string, { part: string; why: string; kinds: Set<string> }>();
  for (const { split } of splitRows(model))
    for (const part of SPLIT_PARTS) {
      const why = split.why[part];
      if (split.parts[part] !== undefined || why === undefined) continue;
      const key = `${part}\u0000${why}`;
      const entry = said.get(key) ?? { part: SPLIT_PART_LABELS[part], why, kinds: new Set<string>() };
      entry.kinds.add(split.kind);
      said.set(key, entry);
    }
  return [...said.values()].map(({ part, why, kinds }) =>
    h(
      'p',
      { class: 'muted', 'data-not-given': part },
      `${part} not given (${[...kinds].join(', ')}): ${why}.`,
    ),
  );
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
  return h('td', { class: 'num muted', 'data-part': part, title: why }, 'not given');
}

/**
 * Text alternatives of the run panel's charts: each chart's canvas is described by a table holding
 * the figures it draws (aria-describedby), either a table the panel shows anyway (statistics, load,
 * schedule) or one of these, in a collapsed <details> under the chart, for screen readers and for
 * anyone who wants the numbers instead of the picture. Which chart uses which: chartDefinitions.ts.
 */
import type { RunViewModel } from '../src/shared/viewModel';
import { ms } from '../src/shared/units';
import { h } from './dom';

export interface ChartAlternative {
  /** The id of the table that holds this chart's figures. */
  tableId: string;
  /** A table of its own, when no other section shows these figures. */
  details?: HTMLElement;
}

/** The projection chart's figures: one row per line, one column per RTT (the values the chart draws). */
export function projectionTable(model: RunViewModel): HTMLElement {
  const p = model.projection;
  return table(
    'projection-table',
    'Projected p50 (ms) by RTT from your app to the database',
    [
      'target',
      'kind',
      'turns',
      'here',
      ...(p?.rttsMs ?? []).map((r) => `${r} ms${r === p?.appRttMs ? ' (app)' : ''}`),
    ],
    (p?.lines ?? []).map((l) => [
      l.target,
      l.kind,
      l.turns,
      ms(l.p50Us),
      ...l.pointsUs.map((us) => `${l.lowerBound ? '≥ ' : ''}${ms(us)}`),
    ]),
  );
}

/** A chart's own table, collapsed under it. */
export function ownTable(table: HTMLElement): ChartAlternative {
  return {
    tableId: table.id,
    details: h(
      'details',
      { class: 'chart-figures' },
      h('summary', {}, 'Figures of this chart as a table'),
      h('div', { class: 'table-wrap' }, table),
    ),
  };
}

function table(id: string, caption: string, head: string[], rows: (string | number)[][]): HTMLElement {
  return h(
    'table',
    { id },
    h('caption', {}, caption),
    h('thead', {}, h('tr', {}, ...head.map((label) => h('th', { scope: 'col' }, label)))),
    h(
      'tbody',
      {},
      ...rows.map((cells) =>
        h(
          'tr',
          {},
          ...cells.map((cell) => h('td', typeof cell === 'number' ? { class: 'num' } : {}, String(cell))),
        ),
      ),
    ),
  );
}

export function expectedTable(model: RunViewModel): HTMLElement {
  const queries = Array.from({ length: model.expected.maxQueries }, (_, i) => i + 1);
  return table(
    'expected-table',
    'Expected ms (p50) for 1 to n sequential queries on one new connection',
    ['target', ...queries.map(String)],
    model.expected.lines.map((line) => [
      `${line.target} (${line.transport})`,
      ...queries.map((q) => {
        const total = line.totalsUs[q - 1];
        return total === undefined ? '-' : ms(total);
      }),
    ]),
  );
}

export function histogramTable(model: RunViewModel): HTMLElement {
  const rows = model.histograms.flatMap((series) =>
    series.counts.flatMap((count, bin) =>
      count === 0
        ? []
        : [
            [
              series.target,
              series.kind,
              `${ms(series.edgesUs[bin] ?? 0)} to ${ms(series.edgesUs[bin + 1] ?? series.edgesUs[bin] ?? 0)}`,
              count,
            ],
          ],
    ),
  );
  return table(
    'histogram-table',
    'Samples per latency bucket (ms)',
    ['target', 'kind', 'ms', 'samples'],
    rows,
  );
}

export function seriesTable(model: RunViewModel): HTMLElement {
  return table(
    'series-table',
    'Samples over time, per target and kind (ms)',
    ['target', 'kind', 'points', 'from s', 'to s', 'lowest', 'highest'],
    model.series
      .filter((s) => s.points.length > 0)
      .map((s) => {
        const times = s.points.map(([t]) => t);
        const values = s.points.map(([, v]) => v);
        return [
          s.target,
          s.kind,
          s.thinnedFrom ? `${s.points.length} of ${s.thinnedFrom}` : s.points.length,
          Math.min(...times).toFixed(1),
          Math.max(...times).toFixed(1),
          Math.min(...values).toFixed(3),
          Math.max(...values).toFixed(3),
        ];
      }),
  );
}

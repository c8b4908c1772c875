/**
 * The run panel's "First row and last row", beside the split of each query's time: per target and
 * kind, the p50 to the first row and to the last (many rows, streamed), or a one-row answer's one
 * figure, with the bytes received (src/shared/rowsLines.ts).
 */
import {
  ROWS_INTRO,
  rowCountText,
  rowsBytesText,
  rowsFigureText,
  type RowsLine,
} from '../src/shared/rowsLines';
import { h } from './dom';

export function rowsParts(lines: readonly RowsLine[]): HTMLElement[] {
  const whys = [...new Set(lines.flatMap((l) => (l.one ? [l.one.why] : [])))];
  return [
    h('p', { class: 'muted' }, ROWS_INTRO),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { id: 'rows-table' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            h('th', {}, 'target'),
            h('th', {}, 'kind'),
            h('th', { class: 'num' }, 'rows'),
            h('th', { class: 'num' }, 'time to the rows (p50)'),
            h('th', { class: 'num' }, 'bytes received (p50)'),
          ),
        ),
        h(
          'tbody',
          {},
          ...lines.map((line) =>
            h(
              'tr',
              { 'data-target': line.target, 'data-kind': line.kind },
              h('td', {}, line.target),
              h('td', {}, line.kind),
              h('td', { class: 'num' }, rowCountText(line.count)),
              h('td', { class: 'num', 'data-rows': line.pair ? 'pair' : 'one' }, rowsFigureText(line)),
              h('td', { class: 'num' }, rowsBytesText(line)),
            ),
          ),
        ),
      ),
    ),
    ...whys.map((why) => h('p', { class: 'muted' }, `${why[0]!.toUpperCase()}${why.slice(1)}.`)),
  ];
}

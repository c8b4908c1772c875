/**
 * Cold vs hot, per target: a new connection + first query to a database made cold, and the one taken
 * on a new connection right after it (hot). Cold start = cold minus hot per sample, as in the Neon
 * benchmark; it can be negative when a slow hot connect hides a fast cold start.
 */
import type { ColdRow } from '../src/shared/viewModel';
import { ms } from '../src/shared/units';
import { h } from './dom';

const MODES: Record<ColdRow['mode'], string> = {
  'neon-api': 'Neon API suspend',
  'idle-wait': 'idle wait',
  command: 'suspend command',
};

const signed = (us: number) => (us < 0 ? `-${ms(-us)}` : ms(us));
const orDash = (us: number | undefined) => (us === undefined ? '-' : ms(us));

export function coldTable(rows: readonly ColdRow[]): HTMLElement {
  const headings = [
    'made cold by',
    'n',
    'cold p50',
    'hot p50',
    'cold connect p50',
    'hot connect p50',
    'cold start p50',
    'p99',
    'stddev',
    'min',
    'max',
    'wait p50',
  ];
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'p',
      { class: 'muted' },
      'Each cold sample connects to a database that was made cold first; a hot sample on a new connection follows at once. Cold start = cold − hot per sample. Wait: the time spent making it cold (s), not part of any latency.',
    ),
    h(
      'table',
      { id: 'cold-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'target'),
          ...headings.map((label, i) => h('th', i === 0 ? {} : { class: 'num' }, label)),
        ),
      ),
      h(
        'tbody',
        {},
        ...rows.map((row) =>
          h(
            'tr',
            { 'data-target': row.target, 'data-mode': row.mode },
            h('td', {}, row.target),
            h('td', {}, MODES[row.mode]),
            h('td', { class: 'num', 'data-col': 'n' }, row.count),
            h('td', { class: 'num', 'data-col': 'cold' }, ms(row.coldP50Us)),
            h('td', { class: 'num', 'data-col': 'hot' }, ms(row.hotP50Us)),
            h('td', { class: 'num', 'data-col': 'cold-connect' }, orDash(row.coldConnectP50Us)),
            h('td', { class: 'num', 'data-col': 'hot-connect' }, orDash(row.hotConnectP50Us)),
            h('td', { class: 'num', 'data-col': 'cold-start' }, signed(row.coldStart.p50Us)),
            h('td', { class: 'num' }, signed(row.coldStart.p99Us)),
            h('td', { class: 'num' }, ms(row.coldStart.stddevUs)),
            h('td', { class: 'num' }, signed(row.coldStart.minUs)),
            h('td', { class: 'num' }, signed(row.coldStart.maxUs)),
            h('td', { class: 'num', 'data-col': 'wait' }, (row.waitP50Ms / 1000).toFixed(1)),
          ),
        ),
      ),
    ),
  );
}

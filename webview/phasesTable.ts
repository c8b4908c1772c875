/**
 * Where a new connection spends its time (p50): connect split into DNS, TCP and the handshake after
 * it (TLS + protocol + auth) as seen on the driver's socket, then the first query. A dash: not
 * observed (an IP address needs no DNS; sockets opened by tls.connect are not visible).
 */
import type { LatencyStats } from '../src/shared/result';
import type { StatsRow } from '../src/shared/viewModel';
import { ms } from '../src/shared/units';
import { h } from './dom';

const COLUMNS: [string, (phases: NonNullable<StatsRow['phases']>) => LatencyStats | undefined][] = [
  ['connect', (p) => p.connect],
  ['dns', (p) => p.dns],
  ['tcp', (p) => p.tcp],
  ['handshake', (p) => p.handshake],
  ['first query', (p) => p.firstQuery],
];

export function phasesTable(rows: StatsRow[]): HTMLElement {
  const withPhases = rows.filter((row) => row.phases && row.stats.count > 0);
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { id: 'phases-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', {}, 'target'),
          ...COLUMNS.map(([label]) => h('th', { class: 'num' }, `${label} p50`)),
        ),
      ),
      h(
        'tbody',
        {},
        ...withPhases.map((row) =>
          h(
            'tr',
            {},
            h('td', {}, row.target),
            ...COLUMNS.map(([label, pick]) => {
              const stats = row.phases ? pick(row.phases) : undefined;
              return h(
                'td',
                { class: 'num', 'data-phase': label },
                stats && stats.count > 0 ? ms(stats.p50Us) : '-',
              );
            }),
          ),
        ),
      ),
    ),
  );
}

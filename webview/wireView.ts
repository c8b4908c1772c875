/**
 * The run panel's "What crosses the wire" table, inside the phases section: per target and
 * kind the counted round trips, TCP handshakes, bytes, TLS, ALPN and the client's CPU during a
 * connect with its share. A figure the tool could not count says "not counted" with why (title and
 * a note), never a zero.
 */
import type { WireRow } from '../src/shared/wireRows';
import { bytesText, shareText } from '../src/shared/wireRows';
import { ms } from '../src/shared/units';
import { h } from './dom';

const LABELS: Record<string, string> = {
  roundTrips: 'round trips',
  bytes: 'bytes',
  tls: 'TLS',
  alpn: 'ALPN',
  clientCpu: 'client CPU',
};

export function wireParts(rows: readonly WireRow[]): HTMLElement[] {
  if (rows.length === 0) return [];
  const notes = rows.flatMap((row) =>
    Object.entries(row.unmeasured ?? {}).map(
      ([figure, why]) => `${LABELS[figure] ?? figure} of ${row.target} (${row.kind}) not counted: ${why}`,
    ),
  );
  return [
    h('h3', {}, 'What crosses the wire'),
    h(
      'p',
      { class: 'muted' },
      "Counted on each sample's own sockets, median per kind. Round trips: the client writes, then waits for the answer (TLS included, the TCP handshake apart): what distance multiplies. Client's share: the probing thread's CPU during a connect over the connect p50, the part no closer region would shorten.",
    ),
    h(
      'div',
      { class: 'table-wrap' },
      h(
        'table',
        { id: 'wire-table' },
        h(
          'thead',
          {},
          h(
            'tr',
            {},
            ...['target', 'kind'].map((t) => h('th', {}, t)),
            ...['round trips', 'TCP handshakes', 'sent', 'received'].map((t) => h('th', { class: 'num' }, t)),
            h('th', {}, 'TLS'),
            h('th', {}, 'ALPN'),
            h('th', { class: 'num' }, 'client CPU (ms)'),
            h('th', { class: 'num' }, "client's share of connect"),
          ),
        ),
        h(
          'tbody',
          {},
          ...rows.map((row) =>
            h(
              'tr',
              { 'data-target': row.target, 'data-kind': row.kind },
              h('td', {}, row.target),
              h('td', {}, row.kind),
              figureCell('roundTrips', row, row.roundTrips?.toString()),
              h('td', { class: 'num', 'data-wire': 'tcpHandshakes' }, row.tcpHandshakes?.toString() ?? '-'),
              figureCell(
                'bytesSent',
                row,
                row.bytesSent !== undefined ? bytesText(row.bytesSent) : undefined,
              ),
              figureCell(
                'bytesReceived',
                row,
                row.bytesReceived !== undefined ? bytesText(row.bytesReceived) : undefined,
              ),
              h('td', { 'data-wire': 'tls' }, row.tls ?? '-'),
              h('td', { 'data-wire': 'alpn' }, row.alpn ?? '-'),
              h(
                'td',
                { class: 'num', 'data-wire': 'clientCpuUs' },
                row.clientCpuUs !== undefined ? ms(row.clientCpuUs) : '-',
              ),
              h('td', { class: 'num', 'data-wire': 'clientShare' }, shareText(row.clientShare)),
            ),
          ),
        ),
      ),
    ),
    ...(notes.length > 0
      ? [h('ul', { class: 'muted', 'data-wire-notes': 'true' }, ...notes.map((note) => h('li', {}, note)))]
      : []),
  ];
}

/** A count, or "not counted" with its reason as the title when the row has one. */
function figureCell(figure: string, row: WireRow, text: string | undefined): HTMLElement {
  const reasonKey = figure.startsWith('bytes') ? 'bytes' : figure;
  const why = row.unmeasured?.[reasonKey as keyof NonNullable<WireRow['unmeasured']>];
  if (text !== undefined) return h('td', { class: 'num', 'data-wire': figure }, text);
  return h(
    'td',
    { class: 'num muted', 'data-wire': figure, ...(why ? { 'data-unmeasured': 'true', title: why } : {}) },
    why ? 'not counted' : '-',
  );
}

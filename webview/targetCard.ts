/**
 * A target's card: its name (cut with an ellipsis, whole in the tooltip), driver and endpoint, and
 * p50/p95/p99 per kind as a small table, so ten targets x three kinds stay one line per kind.
 */
import type { RunViewModel } from '../src/shared/viewModel';
import { N_TOO_SMALL, N_TOO_SMALL_NOTE } from '../src/shared/percentileSupport';
import { ms } from '../src/shared/units';
import { h } from './dom';

type Card = RunViewModel['cards'][number];

export function targetCard(card: Card): HTMLElement {
  const errors = card.kinds.some((k) => k.errors > 0);
  const where = `${card.driver} · ${card.transport}${card.endpoint ? ` · ${card.endpoint}` : ''}`;
  return h(
    'article',
    { class: 'card', 'data-target': card.target },
    h('h3', { class: 'name', title: card.target }, card.target),
    h('p', { class: 'muted name', title: where }, where),
    card.tlsInsecure ? h('p', { class: 'errors', 'data-tls': 'insecure' }, 'TLS not verified') : undefined,
    h(
      'table',
      { class: 'card-figures', 'aria-label': `${card.target}: percentiles per kind, ms` },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'ms'),
          h('th', { scope: 'col', class: 'num' }, 'p50'),
          h('th', { scope: 'col', class: 'num' }, 'p95'),
          h('th', { scope: 'col', class: 'num' }, 'p99'),
          errors ? h('th', { scope: 'col', class: 'num' }, 'errors') : undefined,
        ),
      ),
      h('tbody', {}, ...card.kinds.map((k) => kindRow(k, errors))),
    ),
    ...card.kinds.map(failureNote),
  );
}

/** A kind with no successful sample says why under the figures: class, first message (redacted), hint. */
function failureNote(k: Card['kinds'][number]): HTMLElement | undefined {
  if (!k.failure) return undefined;
  return h(
    'p',
    { class: 'errors card-failure', 'data-failure-kind': k.kind, 'data-error-class': k.failure.errorClass },
    h('b', {}, `${k.kind}: ${k.failure.errorClass}`),
    `: ${k.failure.message}`,
    k.failure.hint ? h('span', { class: 'muted' }, ` ${k.failure.hint}`) : undefined,
  );
}

function kindRow(k: Card['kinds'][number], errorsColumn: boolean): HTMLElement {
  return h(
    'tr',
    { class: 'card-kind', 'data-kind': k.kind },
    // Open-model load and schedules are timed from each intended start: the card names it.
    k.corrected
      ? h(
          'th',
          { scope: 'row', class: 'kind', title: 'corrected: timed from each intended start' },
          `${k.kind} (corrected)`,
        )
      : h('th', { scope: 'row', class: 'kind' }, k.kind),
    ...(k.count === 0
      ? [h('td', { class: 'failed', colspan: '3' }, 'no successful sample')]
      : [
          h('td', { class: 'num figures' }, h('b', {}, ms(k.p50Us))),
          h('td', { class: 'num' }, ms(k.p95Us)),
          k.p99Us === undefined
            ? h(
                'td',
                { class: 'num muted', 'data-withheld': N_TOO_SMALL, title: N_TOO_SMALL_NOTE },
                N_TOO_SMALL,
              )
            : h('td', { class: 'num' }, ms(k.p99Us)),
        ]),
    errorsColumn ? h('td', { class: k.errors > 0 ? 'num errors' : 'num' }, k.errors) : undefined,
  );
}

/**
 * A target's card: its colour (the one every chart gives it), name (cut with an ellipsis, whole in the
 * tooltip), driver and endpoint on one line, then per kind the p50 and p99 measured here and, when the
 * app's RTT is known, projected to it: the figures a reader decides with, in a few lines per target.
 * A p99 the samples cannot support is left out; the cards' section says so once (cardsNotes).
 */
import type { RunViewModel } from '../src/shared/viewModel';
import { MIN_SAMPLES_FOR } from '../src/shared/percentileSupport';
import { shortMs } from '../src/shared/judgement/shortMs';
import { h } from './dom';

type Card = RunViewModel['cards'][number];
type Kind = Card['kinds'][number];

/** Which columns the cards of a run show: every card the same, so the figures line up. */
export interface CardColumns {
  p99: boolean;
  /** The app's RTT in ms, when the run's cards have figures there. */
  appRttMs?: number;
  errors: boolean;
}

export function cardColumns(model: RunViewModel): CardColumns {
  const kinds = model.cards.flatMap((c) => c.kinds);
  const app = model.appRttMs;
  return {
    p99: kinds.some((k) => k.count > 0 && k.p99Us !== undefined),
    ...(app !== undefined && kinds.some((k) => k.app) ? { appRttMs: app } : {}),
    errors: kinds.some((k) => k.errors > 0),
  };
}

/** The notes under the cards, each once for all of them (never a "n too small" in every row). */
export function cardsNotes(model: RunViewModel, columns: CardColumns): HTMLElement[] {
  const notes: HTMLElement[] = [];
  const kinds = model.cards.flatMap((c) => c.kinds).filter((k) => k.count > 0);
  const without = kinds.filter((k) => k.p99Us === undefined);
  if (without.length > 0) {
    const most = Math.max(...without.map((k) => k.count));
    notes.push(
      h(
        'p',
        { class: 'muted', 'data-note': 'p99' },
        `p99 ${columns.p99 ? 'is left out where' : 'is not shown:'} a kind has fewer than ${MIN_SAMPLES_FOR.p99Us} successful samples (${without.length === kinds.length ? `this run took ${most}` : `${without.length} of ${kinds.length} kinds here`}); with fewer it is the largest sample under another name. Raise the iterations to see it.`,
      ),
    );
  }
  if (model.appRttMs === undefined && model.appPlace === undefined && kinds.length > 0) {
    notes.push(
      h(
        'p',
        { class: 'muted', 'data-note': 'app-rtt' },
        'Set dbprobe.appRttMs (the RTT from where your app runs to the database) to see each figure from there too.',
      ),
    );
  } else if (model.appPlace !== undefined) {
    notes.push(
      h(
        'p',
        { class: 'muted', 'data-note': 'app-rtt' },
        `dbprobe.appLocation is the runner place ${model.appPlace}: each target has its own RTT from there (the CodeLens shows it); the panel projects to one RTT, dbprobe.appRttMs, which that setting replaces.`,
      ),
    );
  } else if (columns.appRttMs !== undefined) {
    notes.push(
      h(
        'p',
        { class: 'muted', 'data-note': 'app-rtt' },
        `≈: from your app, ${columns.appRttMs} ms RTT away (dbprobe.appRttMs): the local part measured here + the round trips counted × that RTT. Figures in ms, as the verdict rounds them; the Statistics have every digit.`,
      ),
    );
  }
  return notes;
}

/** `load`: the judgement's statement of the target's load levels, said on the card in their place. */
export function targetCard(card: Card, columns: CardColumns, colour?: string, load?: string): HTMLElement {
  const where = `${card.driver} · ${card.transport}${card.endpoint ? ` · ${card.endpoint}` : ''}`;
  const swatch = h('span', { class: 'swatch', 'aria-hidden': 'true' });
  if (colour) swatch.style.setProperty('background', colour);
  const article = h(
    'article',
    { class: 'card', 'data-target': card.target },
    h(
      'div',
      { class: 'card-head' },
      h('h3', { class: 'name', title: card.target }, swatch, card.target),
      // Its place in the ranking the cards are sorted by (verdictView.ts fills it in).
      h('span', { class: 'card-place' }),
      h('span', { class: 'muted card-where', title: where }, where),
    ),
    card.tlsInsecure ? h('p', { class: 'errors', 'data-tls': 'insecure' }, 'TLS not verified') : undefined,
    card.kinds.length > 0 ? figuresTable(card, columns) : undefined,
    card.loadLevels
      ? h(
          'p',
          { class: 'muted card-load', 'data-load-levels': String(card.loadLevels) },
          load ??
            `load: ${card.loadLevels} level${card.loadLevels === 1 ? '' : 's'}, each with its own figures (Load, below)`,
        )
      : undefined,
    ...card.kinds.map(failureNote),
  );
  if (colour) article.style.setProperty('--target-colour', colour);
  return article;
}

function figuresTable(card: Card, columns: CardColumns): HTMLElement {
  const app = columns.appRttMs;
  const head = (text: string, title?: string) => h('th', { scope: 'col', class: 'num', title }, text);
  return h(
    'table',
    {
      class: 'card-figures',
      'aria-label': `${card.target}: p50 and p99 per kind, ms${app !== undefined ? `, here and at ${app} ms RTT` : ''}`,
    },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { scope: 'col' }, 'ms'),
        head('p50', 'p50 measured here'),
        columns.p99 ? head('p99', 'p99 measured here') : undefined,
        app !== undefined ? head('≈ p50', `p50 projected to ${app} ms RTT (your app)`) : undefined,
        app !== undefined && columns.p99
          ? head('≈ p99', `p99 projected to ${app} ms RTT (your app)`)
          : undefined,
        columns.errors ? head('errors') : undefined,
      ),
    ),
    h('tbody', {}, ...card.kinds.map((k) => kindRow(k, columns))),
  );
}

/** A kind with no successful sample says why under the figures: class, first message (redacted), hint. */
function failureNote(k: Kind): HTMLElement | undefined {
  if (!k.failure) return undefined;
  return h(
    'p',
    { class: 'errors card-failure', 'data-failure-kind': k.kind, 'data-error-class': k.failure.errorClass },
    h('b', {}, `${k.kind}: ${k.failure.errorClass}`),
    `: ${k.failure.message}`,
    k.failure.hint ? h('span', { class: 'muted' }, ` ${k.failure.hint}`) : undefined,
  );
}

function kindRow(k: Kind, columns: CardColumns): HTMLElement {
  const app = columns.appRttMs !== undefined;
  const figureCount = 1 + (columns.p99 ? 1 : 0) + (app ? 1 + (columns.p99 ? 1 : 0) : 0);
  // A lower bound says so in its cell; the column's head says the rest are projections (≈).
  const approx = k.app?.lowerBound ? '≥ ' : '';
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
      ? [h('td', { class: 'failed', colspan: String(figureCount) }, 'no successful sample')]
      : [
          h('td', { class: 'num figures', 'data-stat': 'p50' }, h('b', {}, shortMs(k.p50Us))),
          columns.p99
            ? h('td', { class: 'num', 'data-stat': 'p99' }, k.p99Us === undefined ? '' : shortMs(k.p99Us))
            : undefined,
          app
            ? h(
                'td',
                { class: 'num figures app', 'data-stat': 'app p50', title: turnsTitle(k) },
                k.app ? h('b', {}, `${approx}${shortMs(k.app.p50Us)}`) : '',
              )
            : undefined,
          app && columns.p99
            ? h(
                'td',
                { class: 'num app', 'data-stat': 'app p99', title: turnsTitle(k) },
                k.app?.p99Us !== undefined ? `${approx}${shortMs(k.app.p99Us)}` : '',
              )
            : undefined,
        ]),
    columns.errors ? h('td', { class: k.errors > 0 ? 'num errors' : 'num' }, k.errors) : undefined,
  );
}

function turnsTitle(k: Kind): string | undefined {
  if (!k.app) return 'not projected: no round trips counted for this kind';
  return `${k.app.turns} round trip${k.app.turns === 1 ? '' : 's'} (with TCP handshakes) × the RTT, plus the local part measured here${k.app.lowerBound ? '; a lower bound: the answers exceed one TCP congestion window' : ''}`;
}

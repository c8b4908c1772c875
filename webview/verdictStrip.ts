/**
 * The verdict strip at the top of a run panel: the run's one judgement (src/shared/judgement), in its
 * own words and order, before any figure. Each ranking's line can be picked to sort the cards by it;
 * its why (round trips, phases, TLS, client CPU) opens under it with one click, and a link from there
 * opens the phases and round-trips section. Until the judgement arrives (it resamples the run, so it
 * follows the first paint in the evidence message) the strip says it is being formed.
 */
import type { Ranking, RunJudgement } from '../src/shared/judgement/judgeRun';
import { rankingTables, type RankingTable } from '../src/shared/judgement/rankingTable';
import type { RunViewModel } from '../src/shared/viewModel';
import { h } from './dom';

export const VERDICT_ID = 'verdict';

export interface VerdictHooks {
  /** The reader picked another ranking to sort the cards by. */
  onPick(index: number): void;
  /** Open and show the section with the phases and round trips. */
  onShowPhases(): void;
}

export function verdictStrip(model: RunViewModel, picked: number, hooks: VerdictHooks): HTMLElement {
  const judgement = model.judgement;
  if (!judgement) {
    return h(
      'section',
      { id: VERDICT_ID, class: 'verdict', 'aria-label': 'Verdict' },
      model.cards.length > 1
        ? h(
            'p',
            { class: 'muted', role: 'status', 'data-pending': '' },
            'Ranking the targets against the run’s own samples…',
          )
        : undefined,
    );
  }
  // Every line of the judgement, in its order (the Markdown's and the CLI's), folded under the table.
  const list = h(
    'ol',
    { class: 'verdict-lines' },
    ...judgement.lines.map((line, i) => {
      const index = judgement.rankings.findIndex((r) => r.sentence === line);
      const item =
        index >= 0
          ? rankingItem(judgement.rankings[index]!, index, index === picked, hooks)
          : h('li', {}, h('span', {}, line));
      item.dataset.verdictLine = String(i);
      return item;
    }),
  );
  const first = judgement.lines[0];
  const tables = rankingTables(judgement);
  const why = firstWhy(judgement);
  return h(
    'section',
    { id: VERDICT_ID, class: 'verdict', 'aria-label': 'Verdict' },
    h('h2', { class: 'verdict-title' }, 'Verdict'),
    // The answer in one line, then the table that holds every ranking; nothing said (every sample
    // failed): the judgement's notes say why.
    first !== undefined ? h('p', { class: 'verdict-first', 'data-verdict-first': '' }, first) : undefined,
    ...tables.map((table) => rankingTableView(table, tables.length > 1)),
    why.length > 0 ? h('ul', { class: 'verdict-gaps' }, ...why.map((line) => h('li', {}, line))) : undefined,
    list.childElementCount > 0 || judgement.notes.length > 0
      ? h(
          'details',
          { class: 'verdict-more' },
          h('summary', {}, 'Every verdict line, why and notes'),
          list.childElementCount > 0 ? list : undefined,
          judgement.notes.length > 0
            ? h('ul', { class: 'verdict-notes muted' }, ...judgement.notes.map((note) => h('li', {}, note)))
            : undefined,
        )
      : undefined,
  );
}

/** One line of why per established gap, of the first question's ranking at the app (else here). */
function firstWhy(judgement: RunJudgement): string[] {
  const app = judgement.rankings.find((r) => r.at === 'app');
  const first = app ?? judgement.rankings[0];
  return first ? first.why : [];
}

/**
 * The ranking table: a row per target, a column per question, each cell the target's place and
 * figure (at the app's RTT, with here beside it). Its cells are rankingTable.ts's, as the Markdown's
 * are; a narrow panel lays each row out as labelled figures, so no number is cut.
 */
function rankingTableView(table: RankingTable, named: boolean): HTMLElement {
  return h(
    'div',
    { class: 'ranking', 'data-workload': table.workload },
    h(
      'table',
      { class: 'ranking-table', 'data-at': table.at },
      h(
        'caption',
        { class: 'muted' },
        `${named ? `${table.workload}: ` : ''}p50 ${table.at === 'app' ? `at ${table.rttMs} ms RTT (≈, projected) · here` : 'here'}`,
      ),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'Target'),
          ...table.columns.map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      h(
        'tbody',
        {},
        ...table.rows.map((row) =>
          h(
            'tr',
            { 'data-target': row.target },
            h('th', { class: 'name', scope: 'row', title: row.target }, row.target),
            ...row.cells.map((cell, i) =>
              h(
                'td',
                {
                  'data-question': table.columns[i],
                  'data-label': `${table.columns[i]?.toLowerCase()}${table.at === 'app' ? ` at ${table.rttMs} ms RTT` : ''}`,
                  'data-place': cell.place,
                  ...(cell.tied ? { 'data-tied': '' } : {}),
                },
                cell.place ? h('span', { class: 'rank-place' }, cell.place) : undefined,
                cell.figure ? h('span', { class: 'rank-figure' }, cell.figure) : undefined,
                cell.here ? h('span', { class: 'rank-here muted' }, cell.here) : undefined,
                !cell.place && !cell.figure && !cell.here ? '–' : undefined,
              ),
            ),
          ),
        ),
      ),
    ),
  );
}

function rankingItem(ranking: Ranking, index: number, picked: boolean, hooks: VerdictHooks): HTMLElement {
  // A link-like control, so the sentence wraps as text does; Enter and Space pick it.
  const pick = h(
    'a',
    {
      href: '#cards',
      role: 'button',
      class: 'verdict-pick',
      'aria-pressed': String(picked),
      title: 'Sort the cards by this ranking',
    },
    ranking.sentence,
  );
  pick.addEventListener('click', (event) => {
    event.preventDefault();
    hooks.onPick(index);
  });
  pick.addEventListener('keydown', (event) => {
    if (event.key !== ' ') return;
    event.preventDefault();
    hooks.onPick(index);
  });
  if (ranking.why.length === 0)
    return h(
      'li',
      { 'data-ranking': String(index), 'data-question': ranking.question, 'data-at': ranking.at },
      pick,
    );
  // The why opens under the line with one click; the line itself stays one button.
  const reasons = h(
    'div',
    { class: 'verdict-why', id: `why-${index}`, 'data-why': String(index), hidden: '' },
    h('ul', {}, ...ranking.why.map((line) => h('li', {}, line))),
    phasesLink(hooks),
  );
  const toggle = h(
    'button',
    {
      type: 'button',
      class: 'verdict-why-toggle',
      'aria-expanded': 'false',
      'aria-controls': `why-${index}`,
      title: 'Why: the round trips, phases, TLS and client CPU the run counted',
    },
    'why',
  );
  toggle.addEventListener('click', () => {
    const open = reasons.hidden;
    reasons.hidden = !open;
    toggle.setAttribute('aria-expanded', String(open));
  });
  return h(
    'li',
    { 'data-ranking': String(index), 'data-question': ranking.question, 'data-at': ranking.at },
    pick,
    ' ',
    toggle,
    reasons,
  );
}

function phasesLink(hooks: VerdictHooks): HTMLElement {
  const link = h('a', { href: '#phases' }, 'phases and round trips of every target');
  link.addEventListener('click', (event) => {
    event.preventDefault();
    hooks.onShowPhases();
  });
  return h('p', {}, link);
}

/**
 * The verdict strip at the top of a run panel: the run's one judgement (src/shared/judgement), in its
 * own words and order, before any figure. Each ranking's line can be picked to sort the cards by it;
 * its why (round trips, phases, TLS, client CPU) opens under it with one click, and a link from there
 * opens the phases and round-trips section. Until the judgement arrives (it resamples the run, so it
 * follows the first paint in the evidence message) the strip says it is being formed.
 */
import type { Ranking } from '../src/shared/judgement/judgeRun';
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
  const list = h(
    'ol',
    { class: 'verdict-lines' },
    ...judgement.rankings.map((ranking, index) => rankingItem(ranking, index, index === picked, hooks)),
    ...judgement.alone.map((a) => h('li', { 'data-alone': a.target }, h('span', {}, a.sentence))),
    ...judgement.load.map((l) => h('li', { 'data-load-verdict': l.target }, h('span', {}, l.sentence))),
  );
  // A line of the judgement that is none of these (an ORM layer's overhead) is still said.
  const said = new Set([
    ...judgement.rankings.map((r) => r.sentence),
    ...judgement.alone.map((a) => a.sentence),
    ...judgement.load.map((l) => l.sentence),
  ]);
  const rest = judgement.lines.filter((line) => !said.has(line));
  return h(
    'section',
    { id: VERDICT_ID, class: 'verdict', 'aria-label': 'Verdict' },
    h('h2', { class: 'verdict-title' }, 'Verdict'),
    // Nothing said (every sample failed): the judgement's notes say why.
    list.childElementCount > 0 ? list : undefined,
    ...rest.map((line) => h('p', {}, line)),
    judgement.notes.length > 0
      ? h('ul', { class: 'verdict-notes muted' }, ...judgement.notes.map((note) => h('li', {}, note)))
      : undefined,
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

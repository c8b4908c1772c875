/**
 * The verdict strip in place, and the cards in the order of the ranking the reader picked (the app's
 * of the first question by default). Kept per run, so the evidence message and a redraw for a theme
 * change keep the reader's pick.
 */
import type { RunViewModel } from '../src/shared/viewModel';
import { cardOrder, defaultRanking } from './cardOrder';
import { verdictStrip, VERDICT_ID } from './verdictStrip';

const picks = new Map<string, number>();

function pickedOf(model: RunViewModel): number {
  const judgement = model.judgement;
  if (!judgement) return 0;
  const kept = picks.get(model.runId);
  return kept !== undefined && kept < judgement.rankings.length ? kept : defaultRanking(judgement);
}

/** The strip for `model`, its hooks bound to `root` (where the cards and the phases section are). */
export function verdictFor(root: HTMLElement, model: RunViewModel): HTMLElement {
  return verdictStrip(model, pickedOf(model), {
    onPick: (index) => {
      picks.set(model.runId, index);
      showVerdict(root, model);
      root.querySelector<HTMLElement>(`#${VERDICT_ID} [data-ranking="${index}"] .verdict-pick`)?.focus();
    },
    onShowPhases: () => {
      const phases = root.querySelector<HTMLElement>('#phases');
      const details = phases?.querySelector('details');
      if (details) details.open = true;
      phases?.scrollIntoView({ block: 'start' });
    },
  });
}

/** Puts the strip for `model` in place of the one shown, and orders the cards by its pick. */
export function showVerdict(root: HTMLElement, model: RunViewModel): void {
  root.querySelector(`#${VERDICT_ID}`)?.replaceWith(verdictFor(root, model));
  arrangeCards(root, model);
}

/** Moves the cards into the picked ranking's order and names each one's place in it. */
export function arrangeCards(root: HTMLElement, model: RunViewModel): void {
  const ranking = model.judgement?.rankings[pickedOf(model)];
  const container = root.querySelector('#cards .cards');
  if (!container) return;
  for (const { target, place } of cardOrder(model, ranking)) {
    const card = [...container.querySelectorAll<HTMLElement>(':scope > .card')].find(
      (c) => c.dataset.target === target,
    );
    if (!card) continue;
    const badge = card.querySelector('.card-place');
    if (badge) badge.textContent = place ?? '';
    container.append(card);
  }
}

/**
 * The run panel's "Differences between targets" section. A run panel gets its Differences in a message
 * after the rest of the view (src/extension/model/panelDelivery.ts): until then the section says they
 * are being computed, and once they arrive it is replaced after the first frame, never in it.
 */
import type { RunViewModel } from '../src/shared/viewModel';
import { differencesTable } from './differencesTable';
import { h, section } from './dom';

const SECTION_ID = 'differences';

/** The section for `model`: the table, a placeholder while the Differences are on their way, or none. */
export function differencesSection(model: RunViewModel): HTMLElement | undefined {
  const { differences } = model;
  if (!differences) {
    // Pairs need two targets: a one-target run gets no table, so no placeholder either.
    return model.cards.length > 1
      ? section(
          'Differences between targets',
          SECTION_ID,
          h(
            'p',
            { class: 'muted', role: 'status', 'data-pending': '' },
            'Resampling the kept samples for the 95% intervals of every pair…',
          ),
        )
      : undefined;
  }
  if (differences.comparisons.length === 0) return undefined;
  return section(
    'Differences between targets',
    SECTION_ID,
    h(
      'p',
      { class: 'muted' },
      'B − A in ms with a 95% bootstrap interval from the kept samples (seeded: reopening the run gives the same figures). An interval that contains 0 establishes no difference.',
    ),
    differencesTable(differences.comparisons, 'differences-table'),
    differences.skipped.length > 0
      ? h(
          'p',
          { class: 'muted' },
          `Not compared: ${differences.skipped.map((s) => `${s.target} ${s.kind} (${s.reason})`).join('; ')}.`,
        )
      : undefined,
  );
}

/** Puts `model`'s section in place of the one shown (the placeholder), where renderRun would put it. */
export function replaceDifferences(root: HTMLElement, model: RunViewModel): void {
  const next = differencesSection(model);
  const shown = root.querySelector(`:scope > #${SECTION_ID}`);
  if (shown) {
    if (next) shown.replaceWith(next);
    else shown.remove();
    return;
  }
  if (!next) return;
  // After every section but the errors and the footer (renderRun's order).
  const after = root.querySelector(':scope > #errors') ?? root.querySelector(':scope > footer');
  if (after) after.before(next);
  else root.append(next);
}

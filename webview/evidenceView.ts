/**
 * The parts of the run panel drawn from its evidence (bootstrap intervals over the run's samples): the
 * crossovers under the expected-latency chart and the "Differences between targets" section. A run
 * panel gets the evidence in a message after the rest of its view (src/extension/model/panelDelivery.ts):
 * until then each part says it is being computed, and once it arrives each is replaced after the first
 * frame, never in it.
 */
import type { RunViewModel } from '../src/shared/viewModel';
import { differencesTable } from './differencesTable';
import { h, section } from './dom';

const DIFFERENCES_ID = 'differences';
const CLAIMS_ID = 'expected-claims';

/** What the expected-latency lines establish: the crossovers, the pairs within noise, or none. */
export function expectedClaims(model: RunViewModel): HTMLElement {
  const { crossovers, withinNoise, lines } = model.expected;
  if (!crossovers) {
    return h(
      'div',
      { id: CLAIMS_ID },
      lines.length > 1
        ? h(
            'p',
            { class: 'muted', role: 'status', 'data-pending': '' },
            'Checking where the lines cross against the run’s own samples…',
          )
        : undefined,
    );
  }
  return h(
    'div',
    { id: CLAIMS_ID },
    ...crossovers.map((c) => h('p', { class: 'crossover', 'data-crossover': String(c.fromQueries) }, c.text)),
    // Older saved view models have no withinNoise.
    ...(withinNoise ?? []).map((text) => h('p', { class: 'muted', 'data-within-noise': '' }, text)),
    crossovers.length === 0 && lines.length > 1
      ? h(
          'p',
          { class: 'muted' },
          'No crossover established within these query counts: a crossover is named only when the 95% intervals of the difference exclude zero on both sides of it.',
        )
      : undefined,
  );
}

/** The section for `model`: the table, a placeholder while the evidence is on its way, or none. */
export function differencesSection(model: RunViewModel): HTMLElement | undefined {
  const { differences } = model;
  if (!differences) {
    // Pairs need two targets: a one-target run gets no table, so no placeholder either.
    return model.cards.length > 1
      ? section(
          'Differences between targets',
          DIFFERENCES_ID,
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
    DIFFERENCES_ID,
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

/** Puts `model`'s evidence in place of what is shown (the placeholders), where renderRun puts it. */
export function replaceEvidence(root: HTMLElement, model: RunViewModel): void {
  root.querySelector(`#${CLAIMS_ID}`)?.replaceWith(expectedClaims(model));
  const next = differencesSection(model);
  const shown = root.querySelector(`:scope > #${DIFFERENCES_ID}`);
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

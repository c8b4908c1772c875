/**
 * The parts of the run panel drawn from its evidence (bootstrap intervals over the run's samples): the
 * crossovers under the expected-latency chart and the "Differences between targets" section. A run
 * panel gets the evidence in a message after the rest of its view (src/extension/model/panelDelivery.ts):
 * until then each part says it is being computed, and once it arrives each is replaced after the first
 * frame, never in it.
 */
import { reflowTables } from './reflowTables';
import type { RunViewModel } from '../src/shared/viewModel';
import { pairsNote, pairsTable } from './differencesTable';
import { foldSection, h } from './dom';
import { showVerdict } from './verdictView';
import { workloadClassOf } from '../src/shared/judgement/workloadClass';

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
          'No crossover established within these query counts: one is named only where the rule the verdict ranks a request by puts each target ahead on its side of it.',
        )
      : undefined,
  );
}

/** The section for `model`: the table, a placeholder while the evidence is on its way, or none. */
export function differencesSection(model: RunViewModel, open = false): HTMLElement | undefined {
  const { differences } = model;
  if (!differences) {
    // Pairs need two targets: a one-target run gets no table, so no placeholder either.
    return model.cards.length > 1
      ? foldSection(
          'Differences between targets',
          DIFFERENCES_ID,
          open,
          h(
            'p',
            { class: 'muted', role: 'status', 'data-pending': '' },
            'Resampling the kept samples for the 95% intervals of every pair…',
          ),
        )
      : undefined;
  }
  const groups = workloadGroups(model);
  if (differences.comparisons.length === 0 && groups.length < 2) return undefined;
  const note = pairsNote(differences.comparisons);
  return foldSection(
    'Differences between targets',
    DIFFERENCES_ID,
    open,
    h(
      'p',
      { class: 'muted' },
      'Pairs of targets that ran the same workload, per kind: what a 95% bootstrap interval of the difference from the kept samples establishes (seeded: reopening the run gives the same figures). Hover a row for the figures.',
    ),
    differences.comparisons.length > 0 ? pairsTable(differences.comparisons, 'differences-table') : undefined,
    note ? h('p', { class: 'muted', 'data-note': 'thin-tail' }, note) : undefined,
    groups.length > 1
      ? h(
          'p',
          { class: 'muted', 'data-note': 'workloads' },
          `Targets with different workloads are not compared: ${groups.map((g) => `${g.workload || 'driver default'} (${g.targets.join(', ')})`).join('; ')}.`,
        )
      : undefined,
    differences.skipped.length > 0
      ? h(
          'p',
          { class: 'muted' },
          `Not compared: ${differences.skipped.map((s) => `${s.target} ${s.kind} (${s.reason})`).join('; ')}.`,
        )
      : undefined,
  );
}

/**
 * The run's targets by the workload class they ran (judgement/workloadClass.ts), as the judgement
 * groups them; the targets alone in theirs are said once, above (model.apart), not again here.
 */
function workloadGroups(model: RunViewModel): { workload: string; targets: string[] }[] {
  const groups = new Map<string, { workload: string; targets: string[] }>();
  const apart = model.apart?.targets ?? [];
  for (const row of model.stats) {
    if (apart.includes(row.target)) continue;
    const workload = workloadClassOf({ query: row.workload ?? '' });
    const group = groups.get(workload.key) ?? { workload: row.workload ? workload.label : '', targets: [] };
    if (!group.targets.includes(row.target)) group.targets.push(row.target);
    groups.set(workload.key, group);
  }
  return [...groups.values()];
}

/** Puts `model`'s evidence in place of what is shown (the placeholders), where renderRun puts it. */
export function replaceEvidence(root: HTMLElement, model: RunViewModel): void {
  showVerdict(root, model);
  root.querySelector(`#${CLAIMS_ID}`)?.replaceWith(expectedClaims(model));
  const shown = root.querySelector(`:scope > #${DIFFERENCES_ID}`);
  // A section the reader opened while its evidence was on its way stays open.
  const next = differencesSection(model, shown?.querySelector('details')?.open ?? false);
  if (shown) {
    if (next) shown.replaceWith(next);
    else shown.remove();
  } else if (next) {
    // After every section but the errors and the footer (renderRun's order).
    const after = root.querySelector(':scope > #errors') ?? root.querySelector(':scope > footer');
    if (after) after.before(next);
    else root.append(next);
  }
  reflowTables(root);
}

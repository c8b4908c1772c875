/**
 * What the percentiles chart draws, kept free of the page so its label and its bars come from the
 * same rows: each target's kinds that have samples, and the percentiles at least one row supports.
 */
import type { RunViewModel } from '../src/shared/viewModel';

export const PERCENTILES = [
  { key: 'p50Us', label: 'p50', strength: 100 },
  { key: 'p95Us', label: 'p95', strength: 65 },
  { key: 'p99Us', label: 'p99', strength: 35 },
] as const;

export type PercentileBar = (typeof PERCENTILES)[number];

/** The chart's rows: each target's kinds that have samples. */
export function percentileRows(model: RunViewModel) {
  return model.cards.flatMap((card) =>
    card.kinds.filter((k) => k.count > 0).map((k) => ({ target: card.target, figures: k })),
  );
}

/** The percentiles drawn: one that no row can support (too few samples) has no bars and no legend entry. */
export function shownPercentiles(model: RunViewModel): readonly PercentileBar[] {
  const rows = percentileRows(model);
  return PERCENTILES.filter((p) => rows.some(({ figures }) => figures[p.key] !== undefined));
}

/** The chart's accessible label: "Bar chart of p50 and p95 per target and probe kind". */
export function percentilesLabel(model: RunViewModel): string {
  const labels = shownPercentiles(model).map((p) => p.label);
  const words =
    labels.length <= 1 ? (labels[0] ?? '') : `${labels.slice(0, -1).join(', ')} and ${labels.at(-1)}`;
  return `Bar chart of ${words} per target and probe kind`;
}

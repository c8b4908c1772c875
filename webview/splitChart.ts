/**
 * Where a query's time goes, drawn: a stacked bar per target and kind of its p50's parts (database,
 * distance, client, rest), one colour per part as in every chart of a split (SPLIT_PART_COLOURS),
 * the bars at the app's RTT under them when one is set. A part not given has no segment (never a
 * zero one): its time is in the rest, and the table says why.
 */
import type { ChartConfiguration } from 'chart.js';
import { SPLIT_PART_LABELS, SPLIT_PARTS, type QuerySplit } from '../src/shared/querySplit';
import type { RunViewModel } from '../src/shared/viewModel';

/** What this chart needs of the theme, passed in (this file stays loadable in Node for its test). */
export interface SplitLook {
  foreground: string;
  background: string;
  highContrast: boolean;
  /** A part's colour: SPLIT_PART_COLOURS resolved in the current theme. */
  partColour(part: (typeof SPLIT_PARTS)[number]): string;
}

/** The bars' rows: here, then at the app's RTT. */
export function splitRows(model: RunViewModel): { label: string; split: QuerySplit }[] {
  const here = model.split?.here ?? [];
  const atApp = model.split?.atApp ?? [];
  return [
    ...here.map((split) => ({ label: `${split.target} ${split.kind}`, split })),
    ...atApp.map((split) => ({
      label: `${split.target} ${split.kind} at ${(split.rttUs ?? 0) / 1000} ms RTT`,
      split,
    })),
  ];
}

export function splitChart(model: RunViewModel, look: SplitLook): ChartConfiguration {
  const rows = splitRows(model);
  return {
    type: 'bar',
    data: {
      labels: rows.map((row) => row.label),
      datasets: SPLIT_PARTS.map((part) => ({
        label: SPLIT_PART_LABELS[part],
        stack: 'split',
        data: rows.map((row) => {
          const us = row.split.parts[part];
          return us === undefined ? null : us / 1000;
        }),
        backgroundColor: look.partColour(part),
        borderColor: look.highContrast ? look.foreground : look.background,
        borderWidth: 1,
      })),
    },
    options: {
      indexAxis: 'y',
      scales: {
        x: { stacked: true, title: { display: true, text: 'ms (p50)', color: look.foreground } },
        y: { stacked: true },
      },
      plugins: { legend: { labels: { color: look.foreground } } },
    },
  };
}

/**
 * Every chart of the run panel, defined in one place: what it draws (its chart.js configuration),
 * its accessible label, how long its legend runs (a long legend gets a taller chart) and the table
 * that holds the figures it draws (its text alternative). Adding a chart is one entry here. Every
 * chart draws one run, but for `places`, the side-by-side chart of a run group.
 */
import type { Chart, ChartConfiguration } from 'chart.js';
import type { GroupViewModel, RunViewModel } from '../src/shared/viewModel';
import {
  draw,
  expectedChart,
  histogramChart,
  latencyAxis,
  look,
  percentilesChart,
  seriesChart,
  targetColour,
} from './charts';
import {
  expectedTable,
  histogramTable,
  ownTable,
  projectionTable,
  seriesTable,
  type ChartAlternative,
} from './chartTables';
import { loadChart, loadLatencyChart, scheduleChart } from './loadView';
import { coldChart, phasesChart } from './phasesChart';
import { percentilesLabel } from './percentileBars';
import { placesChart } from './placesChart';
import { projectionChart } from './projectionChart';
import { resolveColour, type ChartTheme } from './theme';
import { SPLIT_PART_COLOURS } from '../src/shared/querySplit';
import { splitChart, splitRows } from './splitChart';

export interface ChartDefinition<Model = RunViewModel> {
  /** The canvas's accessible name: what the picture shows. */
  label(model: Model): string;
  configure(model: Model, theme: ChartTheme): ChartConfiguration;
  /** How many entries its legend holds. */
  legendEntries(model: Model): number;
  /** The table of the figures it draws: one the panel shows anyway, or its own under the chart. */
  alternative(model: Model): ChartAlternative;
}

/** A table the panel shows anyway, by its id. */
const shownTable = (tableId: string) => (): ChartAlternative => ({ tableId });

const fixed = (label: string) => () => label;

const RUN_CHARTS = {
  percentiles: {
    label: percentilesLabel,
    configure: percentilesChart,
    // Bars per target group, and the groups' names under them.
    legendEntries: (model) => Math.max(model.kinds.length * 3, model.cards.length),
    alternative: shownTable('stats-table'),
  },
  expected: {
    label: fixed('Line chart of expected latency by number of sequential queries'),
    configure: expectedChart,
    legendEntries: (model) => model.expected.lines.length,
    alternative: (model) => ownTable(expectedTable(model)),
  },
  projection: {
    label: fixed(
      'Line chart of each target’s projected p50 against the RTT from your app to the database, initial solid and subsequent dashed, log scales, the app’s RTT marked; the table below has the figures',
    ),
    configure: (model, theme) => projectionChart(model, look(theme, model)),
    legendEntries: (model) => model.projection?.lines.length ?? 0,
    alternative: (model) => ownTable(projectionTable(model)),
  },
  histogram: {
    label: fixed('Histogram of sample latencies'),
    configure: histogramChart,
    legendEntries: (model) => model.histograms.length,
    alternative: (model) => ownTable(histogramTable(model)),
  },
  series: {
    label: fixed('Scatter chart of each sample latency over the run'),
    configure: seriesChart,
    legendEntries: (model) => model.series.length,
    alternative: (model) => ownTable(seriesTable(model)),
  },
  schedule: {
    label: fixed('Bar chart of p50 per query position and per request, with the model as a marker'),
    configure: (model, theme) => scheduleChart(model, targetColour(theme, model)),
    legendEntries: (model) => (model.schedules?.length ?? 0) * 2,
    alternative: shownTable('schedule-table'),
  },
  load: {
    label: fixed('Line chart of throughput per level and target, log scale'),
    configure: (model, theme) => loadChart(model, look(theme, model)),
    legendEntries: (model) => model.load?.length ?? 0,
    alternative: shownTable('load-table'),
  },
  loadLatency: {
    label: fixed('Line chart of p50 and p99 per level and target, log scale'),
    configure: (model, theme) => loadLatencyChart(model, look(theme, model)),
    legendEntries: (model) => (model.load?.length ?? 0) * 3,
    alternative: shownTable('load-table'),
  },
  phases: {
    label: fixed(
      'Stacked bar chart of the p50 of each step of a new connection per target, with the network floor (TCP p50) as a marker; the table below has the figures',
    ),
    configure: (model, theme) => phasesChart(model, look(theme, model)),
    // A bar per target; the legend has the five steps and the floor marker.
    legendEntries: (model) => Math.max(6, model.anatomy?.length ?? 0),
    alternative: shownTable('phases-table'),
  },
  split: {
    label: fixed(
      'Stacked bar chart of each target’s p50 split into database, distance, client and rest, per kind; the table below has the figures',
    ),
    configure: (model, theme) =>
      splitChart(model, {
        ...theme,
        partColour: (part) => resolveColour(SPLIT_PART_COLOURS[part]),
      }),
    legendEntries: (model) => Math.max(4, splitRows(model).length),
    alternative: shownTable('split-table'),
  },
  cold: {
    label: fixed('Bar chart of cold and hot p50 side by side per target; the table below has the figures'),
    configure: (model, theme) => coldChart(model, look(theme, model), latencyAxis),
    legendEntries: (model) => Math.max(4, model.cold?.length ?? 0),
    alternative: shownTable('cold-table'),
  },
} as const satisfies Record<string, ChartDefinition>;

const GROUP_CHARTS = {
  places: {
    label: fixed('Bar chart of p50 and p95 per target and kind, one colour per place'),
    configure: placesChart,
    // A p50 and a p95 entry per place.
    legendEntries: (model) => model.places.length * 2,
    // The side-by-side table holds the same figures.
    alternative: shownTable('across-table'),
  },
} as const satisfies Record<string, ChartDefinition<GroupViewModel>>;

export const CHARTS = { ...RUN_CHARTS, ...GROUP_CHARTS };

/** A chart of one run (the charts of a run panel, and of each place's details in a group). */
export type ChartKind = keyof typeof RUN_CHARTS;
export type GroupChartKind = keyof typeof GROUP_CHARTS;

/** The canvas class that gives a long legend room: a taller chart. */
export function chartSize(legendEntries: number): string {
  return legendEntries > 24 ? ' taller' : legendEntries > 8 ? ' tall' : '';
}

export function drawChart(canvas: HTMLCanvasElement, kind: ChartKind, model: RunViewModel): Chart {
  const definition: ChartDefinition = CHARTS[kind];
  return draw(canvas, (theme) => definition.configure(model, theme));
}

export function drawGroupChart(
  canvas: HTMLCanvasElement,
  kind: GroupChartKind,
  model: GroupViewModel,
): Chart {
  const definition: ChartDefinition<GroupViewModel> = CHARTS[kind];
  return draw(canvas, (theme) => definition.configure(model, theme));
}

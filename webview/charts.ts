/**
 * The run panel's chart look (chart.js, bundled: theme colours, legends, axes, target colours) and the
 * configurations of the percentiles, expected-latency, distribution and time-series charts. Which
 * chart shows what, under which label and with which table, is chartDefinitions.ts.
 */
import {
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  LogarithmicScale,
  PointElement,
  ScatterController,
  Tooltip,
  type ChartConfiguration,
  type LegendItem,
  type PointStyle,
} from 'chart.js';
import type { RunViewModel } from '../src/shared/viewModel';
import { percentileRows, shownPercentiles } from './percentileBars';
import { AXIS_LABEL_MAX, LEGEND_LABEL_MAX, LOG_TICKS, shorten } from './labels';
import type { ChartLook } from './phasesChart';
import { targetSlots } from './targetColours';
import { readTheme, shade, type ChartTheme } from './theme';

Chart.register(
  BarController,
  BarElement,
  CategoryScale,
  LinearScale,
  LogarithmicScale,
  LineController,
  LineElement,
  PointElement,
  ScatterController,
  Legend,
  Tooltip,
);

/** A horizontal chart's row names ("target · kind") have the width of the panel's left side. */
const ROW_LABEL_MAX = 30;

/** Draws a chart with the theme's colours and the panel's common options. */
export function draw(canvas: HTMLCanvasElement, configure: (theme: ChartTheme) => ChartConfiguration): Chart {
  const theme = readTheme();
  Chart.defaults.color = theme.foreground;
  Chart.defaults.borderColor = theme.grid;
  Chart.defaults.font.family = theme.font;
  const config = configure(theme);
  const options = config.options ?? {};
  // Charts appear at once: animation would only delay reading the figures.
  config.options = {
    animation: false,
    responsive: true,
    maintainAspectRatio: false,
    ...options,
    plugins: {
      ...options.plugins,
      // Ten targets x three kinds make a long legend: small boxes and cut names keep the plot readable;
      // tooltips and the tables give the full names.
      legend: {
        ...options.plugins?.legend,
        labels: {
          boxWidth: 12,
          boxHeight: 12,
          generateLabels: (chart: Chart): LegendItem[] =>
            Chart.defaults.plugins.legend.labels
              .generateLabels(chart)
              .map((item) => ({ ...item, text: shorten(item.text, LEGEND_LABEL_MAX) })),
          ...options.plugins?.legend?.labels,
        },
      },
    },
  };
  return new Chart(canvas, config);
}

/** A category axis whose long target names are cut; the tooltip's title keeps the whole name. */
export function targetAxis(max = AXIS_LABEL_MAX) {
  return {
    ticks: {
      autoSkip: false,
      maxRotation: 45,
      callback(this: { getLabelForValue(value: number): string }, value: string | number): string {
        return shorten(this.getLabelForValue(Number(value)), max);
      },
    },
  };
}

/** How each kind is told apart where colour means the target: line dash and point shape. */
const KIND_DASH: number[][] = [[], [6, 3], [2, 2], [8, 3, 2, 3]];
const KIND_POINT: PointStyle[] = ['circle', 'triangle', 'rect', 'rectRot', 'star'];

function kindIndex(model: RunViewModel, kind: string): number {
  return Math.max(0, (model.kinds as string[]).indexOf(kind));
}

/** A bar chart's y axis: logarithmic when the bars span more than 20x, so the short ones stay visible. */
export function latencyAxis(values: (number | null)[]) {
  const positive = values.filter((v): v is number => v !== null && v > 0);
  const spread = positive.length > 0 ? Math.max(...positive) / Math.min(...positive) : 1;
  return spread > 20
    ? { type: 'logarithmic' as const, title: { display: true, text: 'ms (log scale)' }, ticks: LOG_TICKS }
    : { title: { display: true, text: 'ms' }, beginAtZero: true };
}

/** One bar per shown percentile for each target and kind (see `shownPercentiles`). */
export function percentilesChart(model: RunViewModel, theme: ChartTheme): ChartConfiguration {
  // One row per target and kind, in the target's colour; the shade says the percentile. Horizontal,
  // so the names stay readable beside their bars in a narrow panel.
  const colour = targetColour(theme, model);
  const rows = percentileRows(model);
  const shown = shownPercentiles(model);
  const datasets = shown.map((p) => ({
    label: p.label,
    data: rows.map(({ figures }) => {
      const value = figures[p.key];
      // An absent p99 is withheld (too few samples): no bar rather than a figure without support.
      return value === undefined ? null : value / 1000;
    }),
    backgroundColor: rows.map((r) =>
      p.strength === 100 ? colour(r.target) : shade(colour(r.target), p.strength),
    ),
    borderColor: rows.map((r) => colour(r.target)),
    // High contrast: every bar outlined in its full colour, so the lighter p95/p99 fills still
    // stand out from the background.
    borderWidth: theme.highContrast ? 2 : 0,
  }));
  // A new TLS connection can cost 100x a warm query: on a linear axis the warm bars vanish.
  return {
    type: 'bar',
    data: { labels: rows.map((r) => `${r.target} · ${r.figures.kind}`), datasets },
    options: {
      indexAxis: 'y',
      plugins: { legend: { labels: { generateLabels: () => shadeLegend(theme, shown) } } },
      scales: { y: targetAxis(ROW_LABEL_MAX), x: latencyAxis(datasets.flatMap((d) => d.data)) },
    },
  };
}

export function expectedChart(model: RunViewModel, theme: ChartTheme): ChartConfiguration {
  return {
    type: 'line',
    data: {
      labels: Array.from({ length: model.expected.maxQueries }, (_, i) => String(i + 1)),
      datasets: model.expected.lines.map((line) => ({
        label: `${line.target} (${line.transport})`,
        data: line.totalsUs.map((us) => us / 1000),
        borderColor: targetColour(theme, model)(line.target),
        backgroundColor: targetColour(theme, model)(line.target),
        tension: 0,
      })),
    },
    options: {
      scales: {
        x: { title: { display: true, text: 'sequential queries per request' } },
        y: { title: { display: true, text: 'expected ms (p50)' }, beginAtZero: true },
      },
    },
  };
}

export function histogramChart(model: RunViewModel, theme: ChartTheme): ChartConfiguration {
  // Shared log-spaced buckets would need re-binning here; instead each series is drawn at its own
  // bucket midpoints on a logarithmic x axis, so every target keeps its exact bins.
  return {
    type: 'line',
    data: {
      // Colour names the target (as in the other charts), the dash names the kind.
      datasets: model.histograms.map((h) => ({
        label: `${h.target} ${h.kind}`,
        data: h.counts.map((count, b) => ({ x: midpoint(h.edgesUs, b) / 1000, y: count })),
        borderColor: targetColour(theme, model)(h.target),
        backgroundColor: shade(targetColour(theme, model)(h.target), 25),
        borderDash: KIND_DASH[kindIndex(model, h.kind) % KIND_DASH.length],
        // Many series filled on top of each other hide one another: fill only a few.
        fill: model.histograms.length <= 4,
        stepped: 'middle' as const,
        pointRadius: 0,
      })),
    },
    options: {
      scales: {
        x: {
          type: 'logarithmic',
          title: { display: true, text: 'latency ms (log scale)' },
          grid: { display: false },
          ticks: { ...LOG_TICKS, maxRotation: 0 },
        },
        y: { title: { display: true, text: 'samples' }, beginAtZero: true },
      },
    },
  };
}

export function seriesChart(model: RunViewModel, theme: ChartTheme): ChartConfiguration {
  return {
    type: 'scatter',
    data: {
      // Colour names the target, the point's shape the kind.
      datasets: model.series.map((s) => ({
        label: `${s.target} ${s.kind}${s.thinnedFrom ? ` (every ${Math.ceil(s.thinnedFrom / s.points.length)}th of ${s.thinnedFrom})` : ''}`,
        data: s.points.map(([x, y]) => ({ x, y })),
        borderColor: targetColour(theme, model)(s.target),
        backgroundColor: targetColour(theme, model)(s.target),
        pointStyle: KIND_POINT[kindIndex(model, s.kind) % KIND_POINT.length],
        pointRadius: 2,
      })),
    },
    options: {
      plugins: { legend: { labels: { usePointStyle: true } } },
      scales: {
        x: { type: 'linear', title: { display: true, text: 'seconds since start' } },
        y: {
          type: 'logarithmic',
          title: { display: true, text: 'latency ms (log scale)' },
          ticks: LOG_TICKS,
        },
      },
    },
  };
}

export function look(theme: ChartTheme, model: RunViewModel): ChartLook {
  return { ...theme, colourOf: targetColour(theme, model), shade };
}

/**
 * The colour of each target of `model`: its slot from its name (targetColours.ts), so a target has
 * one colour in every chart of the panel and in every run.
 */
export function targetColour(
  theme: ChartTheme,
  model: Pick<RunViewModel, 'cards'>,
): (target: string) => string {
  // The theme's series is six hues, then the same six mixed with the text colour (theme.ts).
  const slots = targetSlots(
    model.cards.map((c) => c.target),
    theme.series.length,
    Math.min(theme.series.length, 6),
  );
  return (target) => colourOf(theme, slots.get(target) ?? 0);
}

/** Legend entries for shades of one colour (percentiles, steps): drawn in the text colour's shades. */
export function shadeLegend(
  theme: ChartTheme,
  entries: readonly { label: string; strength: number }[],
): LegendItem[] {
  return entries.map((e, i) => {
    const fill = e.strength === 100 ? theme.foreground : shade(theme.foreground, e.strength);
    return {
      text: e.label,
      fillStyle: fill,
      strokeStyle: theme.foreground,
      lineWidth: theme.highContrast ? 1 : 0,
      datasetIndex: i,
      hidden: false,
    };
  });
}

export function colourOf(theme: ChartTheme, index: number): string {
  return theme.series[index % theme.series.length] ?? theme.foreground;
}

function midpoint(edges: number[], bin: number): number {
  const low = edges[bin] ?? 0;
  const high = edges[bin + 1] ?? low;
  return Math.max(1, Math.sqrt(Math.max(1, low) * Math.max(1, high)));
}

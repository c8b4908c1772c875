/**
 * Two charts of the run panel that read the connect anatomy: a stacked bar per target of the steps'
 * p50 (DNS, TCP, TLS, handshake, first query) with the network floor as a marker, and cold vs hot
 * side by side per target. Steps that could not be measured get no bar segment (never a zero one):
 * the panel names them under the chart, and the tables beside the charts hold the same figures.
 */
import type { ChartConfiguration } from 'chart.js';
import { PHASE_LABELS, PHASE_STEPS } from '../src/shared/connectPhases';
import type { RunViewModel } from '../src/shared/viewModel';

/**
 * What these charts need of the theme, passed in by charts.ts: ./theme reads the DOM, and this file
 * stays loadable in Node so its unit test can check what is drawn.
 */
export interface ChartLook {
  foreground: string;
  highContrast: boolean;
  colourOf(index: number): string;
  /** A lighter shade of a series colour (theme.ts `shade`). */
  shade(colour: string, percent: number): string;
}

export function phasesChart(model: RunViewModel, theme: ChartLook): ChartConfiguration {
  const rows = model.anatomy ?? [];
  const steps = PHASE_STEPS.filter((step) =>
    rows.some((row) => row.steps.some((s) => s.step === step && s.p50Us !== undefined)),
  );
  const bars = steps.map((step) => {
    const colour = theme.colourOf(PHASE_STEPS.indexOf(step));
    return {
      type: 'bar' as const,
      label: `${PHASE_LABELS[step]} p50`,
      stack: 'phases',
      data: rows.map((row) => {
        const us = row.steps.find((s) => s.step === step)?.p50Us;
        return us === undefined ? null : us / 1000;
      }),
      backgroundColor: colour,
      borderColor: theme.foreground,
      borderWidth: theme.highContrast ? 1 : 0,
    };
  });
  // The floor sits on the same time axis as the bars: what lies right of it is more than distance.
  const floor = {
    type: 'line' as const,
    label: 'network floor (TCP p50)',
    stack: 'floor',
    // chart.js draws lower `order` last: the marker stays on top of the bars it crosses.
    order: -1,
    data: rows.map((row) => (row.floorUs === undefined ? null : row.floorUs / 1000)),
    showLine: false,
    pointStyle: 'line' as const,
    rotation: 90,
    // A tick across most of a bar's height (chart.js draws the `line` style 2 x radius long).
    pointRadius: 20,
    pointHoverRadius: 22,
    pointBorderWidth: 4,
    borderColor: theme.foreground,
    backgroundColor: theme.foreground,
  };
  return {
    type: 'bar',
    data: { labels: rows.map((row) => row.target), datasets: [...bars, floor] },
    options: {
      indexAxis: 'y',
      scales: {
        x: { stacked: true, beginAtZero: true, title: { display: true, text: 'p50 ms (stacked steps)' } },
        y: { stacked: true },
      },
    },
  };
}

export function coldChart(
  model: RunViewModel,
  theme: ChartLook,
  axis: (values: (number | null)[]) => object,
): ChartConfiguration {
  const rows = model.cold ?? [];
  const ms = (us: number | undefined) => (us === undefined ? null : us / 1000);
  const series: { label: string; values: (number | null)[]; colour: number; light: boolean }[] = [
    {
      label: 'cold p50 (connect + first query)',
      values: rows.map((r) => ms(r.coldP50Us)),
      colour: 0,
      light: false,
    },
    {
      label: 'hot p50 (connect + first query)',
      values: rows.map((r) => ms(r.hotP50Us)),
      colour: 1,
      light: false,
    },
  ];
  if (rows.some((r) => r.coldConnectP50Us !== undefined || r.hotConnectP50Us !== undefined)) {
    series.push(
      { label: 'cold connect p50', values: rows.map((r) => ms(r.coldConnectP50Us)), colour: 0, light: true },
      { label: 'hot connect p50', values: rows.map((r) => ms(r.hotConnectP50Us)), colour: 1, light: true },
    );
  }
  const datasets = series.map((s) => ({
    label: s.label,
    data: s.values,
    // The connect bars are outlined with a light fill: they read as the part of the bar beside them.
    backgroundColor: s.light ? theme.shade(theme.colourOf(s.colour), 40) : theme.colourOf(s.colour),
    borderColor: theme.colourOf(s.colour),
    borderWidth: s.light || theme.highContrast ? 1 : 0,
  }));
  return {
    type: 'bar',
    data: { labels: rows.map((r) => r.target), datasets },
    options: { scales: { y: axis(datasets.flatMap((d) => d.data)) } },
  };
}

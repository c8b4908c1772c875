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
  /** The editor's background: the thin gap between a bar's stacked steps. */
  background: string;
  highContrast: boolean;
  /** The target's colour, the same in every chart (charts.ts targetColour). */
  colourOf(target: string): string;
  /** A lighter shade of a series colour (theme.ts `shade`). */
  shade(colour: string, percent: number): string;
}

export function phasesChart(model: RunViewModel, theme: ChartLook): ChartConfiguration {
  const rows = model.anatomy ?? [];
  const steps = PHASE_STEPS.filter((step) =>
    rows.some((row) => row.steps.some((s) => s.step === step && s.p50Us !== undefined)),
  );
  // Colour names the target, as in every chart of the panel; the shade names the step (the legend
  // shows the steps' shades in the text colour).
  const bars = steps.map((step) => {
    const strength = stepStrength(PHASE_STEPS.indexOf(step));
    return {
      type: 'bar' as const,
      label: `${PHASE_LABELS[step]} p50`,
      stack: 'phases',
      data: rows.map((row) => {
        const us = row.steps.find((s) => s.step === step)?.p50Us;
        return us === undefined ? null : us / 1000;
      }),
      backgroundColor: rows.map((row) =>
        strength === 100 ? theme.colourOf(row.target) : theme.shade(theme.colourOf(row.target), strength),
      ),
      borderColor: theme.highContrast ? theme.foreground : theme.background,
      borderWidth: 1,
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
      plugins: {
        legend: {
          labels: {
            generateLabels: () => [
              ...steps.map((step, i) => {
                const strength = stepStrength(PHASE_STEPS.indexOf(step));
                return {
                  text: `${PHASE_LABELS[step]} p50`,
                  fillStyle: strength === 100 ? theme.foreground : theme.shade(theme.foreground, strength),
                  strokeStyle: theme.foreground,
                  lineWidth: 1,
                  datasetIndex: i,
                  hidden: false,
                };
              }),
              {
                text: floor.label,
                fillStyle: theme.foreground,
                strokeStyle: theme.foreground,
                lineWidth: 3,
                pointStyle: 'line' as const,
                datasetIndex: steps.length,
                hidden: false,
              },
            ],
          },
        },
      },
      scales: {
        x: { stacked: true, beginAtZero: true, title: { display: true, text: 'p50 ms (stacked steps)' } },
        y: { stacked: true },
      },
    },
  };
}

/** How strong a step's shade of its target's colour is: the first step full, each next lighter. */
function stepStrength(index: number): number {
  return [100, 80, 62, 45, 30, 18][index] ?? 18;
}

export function coldChart(
  model: RunViewModel,
  theme: ChartLook,
  axis: (values: (number | null)[]) => object,
): ChartConfiguration {
  const rows = model.cold ?? [];
  const ms = (us: number | undefined) => (us === undefined ? null : us / 1000);
  // Colour names the target (as in every chart); the shade says which figure: cold full, hot lighter,
  // the connect-only bars lighter still.
  const series: { label: string; values: (number | null)[]; strength: number }[] = [
    { label: 'cold p50 (connect + first query)', values: rows.map((r) => ms(r.coldP50Us)), strength: 100 },
    { label: 'hot p50 (connect + first query)', values: rows.map((r) => ms(r.hotP50Us)), strength: 55 },
  ];
  if (rows.some((r) => r.coldConnectP50Us !== undefined || r.hotConnectP50Us !== undefined)) {
    series.push(
      { label: 'cold connect p50', values: rows.map((r) => ms(r.coldConnectP50Us)), strength: 40 },
      { label: 'hot connect p50', values: rows.map((r) => ms(r.hotConnectP50Us)), strength: 20 },
    );
  }
  const fill = (colour: string, strength: number) =>
    strength === 100 ? colour : theme.shade(colour, strength);
  const datasets = series.map((s) => ({
    label: s.label,
    data: s.values,
    backgroundColor: rows.map((r) => fill(theme.colourOf(r.target), s.strength)),
    borderColor: rows.map((r) => theme.colourOf(r.target)),
    borderWidth: s.strength < 55 || theme.highContrast ? 1 : 0,
  }));
  const legend = series.map((s, i) => ({
    text: s.label,
    fillStyle: fill(theme.foreground, s.strength),
    strokeStyle: theme.foreground,
    lineWidth: 1,
    datasetIndex: i,
    hidden: false,
  }));
  return {
    type: 'bar',
    data: { labels: rows.map((r) => r.target), datasets },
    options: {
      plugins: { legend: { labels: { generateLabels: () => legend } } },
      scales: { y: axis(datasets.flatMap((d) => d.data)) },
    },
  };
}

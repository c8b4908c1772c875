/**
 * The "From where your app runs" chart: each target's projected p50 against the RTT to the database,
 * a line per target and kind (colour: the target, as in every chart; dash: the kind; point shape: the
 * target again, so lines drawn on top of each other still show every target's marks), on log axes:
 * the same region (1-10 ms) gets as much room as a continent away. The app's RTT is a vertical mark.
 * The lines come from the view model, which the host built with the projectAt the Markdown uses.
 */
import type { ChartConfiguration, PointStyle } from 'chart.js';
import type { ProjectedKind } from '../src/shared/projection';
import type { ProjectionLine } from '../src/shared/projectionLines';
import type { RunViewModel } from '../src/shared/viewModel';
import { LOG_TICKS } from './labels';
import type { ChartLook } from './phasesChart';

const KIND_DASH: Record<ProjectedKind, number[]> = { initial: [], subsequent: [6, 3] };
const TARGET_POINT: PointStyle[] = ['circle', 'triangle', 'rect', 'rectRot', 'star', 'crossRot', 'cross'];

export function projectionChart(model: RunViewModel, look: ChartLook): ChartConfiguration {
  const projection = model.projection;
  const lines = projection?.lines ?? [];
  const rtts = projection?.rttsMs ?? [];
  const targets = [...new Set(lines.map((l) => l.target))];
  // A log axis has no 0: an RTT of 0 stays in the table only.
  const shown = rtts.map((r, i) => ({ r, i })).filter(({ r }) => r > 0);
  const datasets: ChartConfiguration<'line'>['data']['datasets'] = lines.map((line, n) => {
    const colour = look.colourOf(line.target);
    return {
      label: `${line.target} ${line.kind}${line.lowerBound ? ' (lower bound)' : ''}`,
      data: shown.map(({ r, i }) => ({ x: r, y: (line.pointsUs[i] ?? 0) / 1000 })),
      borderColor: colour,
      backgroundColor: colour,
      borderDash: KIND_DASH[line.kind],
      pointStyle: TARGET_POINT[targets.indexOf(line.target) % TARGET_POINT.length],
      pointRadius: 4,
      // Lines drawn later are a little thinner: one lying exactly on another leaves its edges showing.
      borderWidth: Math.max(1.5, 3.5 - (n * 2) / Math.max(1, lines.length)),
      tension: 0,
    };
  });
  const app = projection?.appRttMs;
  if (app !== undefined && app > 0 && lines.length > 0) {
    const values = datasets.flatMap((d) => (d.data as { y: number }[]).map((p) => p.y)).filter((y) => y > 0);
    datasets.push({
      label: `your app: ${app} ms RTT (dbprobe.appRttMs)`,
      data: [
        { x: app, y: Math.min(...values) },
        { x: app, y: Math.max(...values) },
      ],
      borderColor: look.foreground,
      backgroundColor: look.foreground,
      borderDash: [2, 2],
      borderWidth: 2,
      pointRadius: 0,
      tension: 0,
    });
  }
  return {
    type: 'line',
    data: { datasets },
    options: {
      interaction: { mode: 'nearest', axis: 'x', intersect: false },
      plugins: {
        tooltip: { mode: 'x', intersect: false },
        // Each entry with its target's point shape and its kind's dash, as drawn.
        legend: { labels: { usePointStyle: true } },
      },
      scales: {
        x: {
          type: 'logarithmic',
          title: { display: true, text: 'RTT from your app to the database (ms, log scale)' },
          min: shown[0]?.r,
          max: shown[shown.length - 1]?.r,
          // Ticks at exactly the RTTs of the table (and the app's), labelled as such.
          afterBuildTicks: (axis) => {
            axis.ticks = shown.filter(({ r }) => !crowds(r, app, rtts)).map(({ r }) => ({ value: r }));
          },
          ticks: { autoSkip: false, maxRotation: 0, callback: (value) => String(Number(value)) },
        },
        y: {
          type: 'logarithmic',
          title: { display: true, text: 'projected p50 (ms, log scale)' },
          ticks: LOG_TICKS,
        },
      },
    },
  };
}

/**
 * The app's RTT, when it is not one of the asked RTTs and sits within 40% of one: its tick label would
 * run into that one's ("1012"); the marker's legend entry names it.
 */
function crowds(r: number, app: number | undefined, rtts: readonly number[]): boolean {
  if (r !== app) return false;
  return rtts.some((other) => other !== r && other > 0 && Math.max(other, r) / Math.min(other, r) < 1.4);
}

/**
 * Lines the eye cannot tell apart: pairs whose projected p50 is within `share` of each other at every
 * RTT (the chart draws them on top of one another, so the section names them).
 */
export function coincidingLines(lines: readonly ProjectionLine[], share = 0.03): string[][] {
  const groups: ProjectionLine[][] = [];
  for (const line of lines) {
    const group = groups.find((g) => g[0]?.kind === line.kind && close(g[0], line, share));
    if (group) group.push(line);
    else groups.push([line]);
  }
  return groups.filter((g) => g.length > 1).map((g) => g.map((l) => `${l.target} ${l.kind}`));
}

function close(a: ProjectionLine, b: ProjectionLine, share: number): boolean {
  return a.pointsUs.every((us, i) => {
    const other = b.pointsUs[i];
    return other !== undefined && Math.abs(us - other) <= share * Math.max(us, other);
  });
}

/**
 * The "From where your app runs" chart: each target's projected p50 against the RTT to the database,
 * a line per target and kind (colour: the target; dash: the kind), from the view model's lines, which
 * the host built with the same projectAt the Markdown table uses.
 */
import type { ChartConfiguration } from 'chart.js';
import type { ProjectedKind } from '../src/shared/projection';
import type { RunViewModel } from '../src/shared/viewModel';

const KIND_DASH: Record<ProjectedKind, number[]> = { initial: [], subsequent: [6, 3] };

export function projectionChart(
  model: RunViewModel,
  colourOf: (index: number) => string,
): ChartConfiguration {
  const projection = model.projection;
  const targets = [...new Set((projection?.lines ?? []).map((l) => l.target))];
  return {
    type: 'line',
    data: {
      datasets: (projection?.lines ?? []).map((line) => {
        const colour = colourOf(Math.max(0, targets.indexOf(line.target)));
        return {
          label: `${line.target} ${line.kind}${line.lowerBound ? ' (lower bound)' : ''}`,
          data: line.pointsUs.map((us, i) => ({ x: projection?.rttsMs[i] ?? 0, y: us / 1000 })),
          borderColor: colour,
          backgroundColor: colour,
          borderDash: KIND_DASH[line.kind],
          tension: 0,
        };
      }),
    },
    options: {
      scales: {
        x: {
          type: 'linear',
          title: { display: true, text: 'RTT from your app to the database (ms)' },
          min: 0,
        },
        y: { title: { display: true, text: 'projected p50 (ms)' }, beginAtZero: true },
      },
    },
  };
}

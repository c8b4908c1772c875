/**
 * The side-by-side chart of a run group: for each target and kind, one bar per place (p50 solid,
 * p95 a lighter shade behind it in the legend order), each place in its own theme colour, the same
 * colour as its swatch in the table.
 */
import type { ChartConfiguration } from 'chart.js';
import type { GroupViewModel } from '../src/shared/viewModel';
import { colourOf, latencyAxis, targetAxis } from './charts';
import { shade, type ChartTheme } from './theme';

export function placesChart(model: GroupViewModel, theme: ChartTheme): ChartConfiguration {
  const datasets = model.places.flatMap((place, i) => {
    const colour = colourOf(theme, i);
    const series = (key: 'p50Us' | 'p95Us') =>
      model.rows.map((row) => {
        const cell = row.cells[i];
        return cell && cell.count > 0 ? cell[key] / 1000 : null;
      });
    return [
      {
        label: `${place.label} p50`,
        data: series('p50Us'),
        backgroundColor: colour,
        borderColor: colour,
        borderWidth: theme.highContrast ? 1 : 0,
      },
      {
        label: `${place.label} p95`,
        data: series('p95Us'),
        backgroundColor: shade(colour, 45),
        borderColor: colour,
        borderWidth: theme.highContrast ? 1 : 0,
      },
    ];
  });
  return {
    type: 'bar',
    data: { labels: model.rows.map((r) => `${r.target} · ${r.kind}`), datasets },
    options: { scales: { x: targetAxis(), y: latencyAxis(datasets.flatMap((d) => d.data)) } },
  };
}

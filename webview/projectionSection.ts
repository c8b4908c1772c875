/** The run panel's "From where your app runs" section: the sentences, the chart and its figures. */
import { ms } from '../src/shared/units';
import type { RunViewModel } from '../src/shared/viewModel';
import { h, section } from './dom';

export const PROJECTION_CHART_LABEL =
  'Line chart of each target’s projected p50 against the RTT from your app to the database, initial solid and subsequent dashed; the table below has the figures';

/** Undefined when the run has no projection (no round trips counted). */
export function projectionSection(model: RunViewModel, chart: HTMLElement): HTMLElement | undefined {
  const projection = model.projection;
  if (!projection || projection.lines.length === 0) return undefined;
  return section(
    'From where your app runs',
    'projection',
    h(
      'p',
      { class: 'muted' },
      'Projected p50 at each round-trip time (RTT) between your app and the database: the local part measured here (p50 − turns × this run’s floor) + turns × RTT, turns being the round trips counted on the driver’s socket plus its TCP handshakes. Set the RTTs with dbprobe.projection.rtts.',
    ),
    ...projection.overtakes.map((text) => h('p', { class: 'crossover', 'data-overtake': '' }, text)),
    ...projection.withinNoise.map((text) => h('p', { class: 'muted', 'data-within-noise': '' }, text)),
    projection.lines.some((l) => l.lowerBound)
      ? h(
          'p',
          { class: 'muted' },
          'Lines marked "lower bound" received more than a TCP initial congestion window (~14 KB) per sample: far away, such a response needs more than one flight.',
        )
      : undefined,
    chart,
    h(
      'p',
      { class: 'muted' },
      `Floors: ${projection.floors.map((f) => `${f.target} ${ms(f.floorUs)} ms (${f.sourceText})`).join('; ')}.`,
    ),
    projection.skipped.length > 0
      ? h('p', { class: 'muted' }, `Not projected: ${projection.skipped.join('; ')}.`)
      : undefined,
  );
}

/** The run panel's "From where your app runs" section: the sentences, the chart and its figures. */
import { ms } from '../src/shared/units';
import type { RunViewModel } from '../src/shared/viewModel';
import { h, section } from './dom';
import { coincidingLines } from './projectionChart';

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
      'Projected p50 at each round-trip time (RTT) between your app and the database: the local part measured here (p50 − turns × this run’s floor) + turns × RTT, turns being the round trips counted on the driver’s socket plus its TCP handshakes.',
    ),
    h(
      'p',
      {
        class: 'muted',
        'data-app-rtt': projection.appRttMs === undefined ? undefined : String(projection.appRttMs),
      },
      projection.appRttMs === undefined
        ? 'Your app’s RTT is not set: set dbprobe.appRttMs and the chart marks it (the CodeLens and the heartbeat use it too). The other RTTs come from dbprobe.projection.rtts.'
        : `Your app: ${projection.appRttMs} ms RTT (dbprobe.appRttMs, as the CodeLens and the heartbeat use), marked on the chart; the other RTTs come from dbprobe.projection.rtts.`,
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
    ...coincidingLines(projection.lines).map((group) =>
      h(
        'p',
        { class: 'muted', 'data-coinciding': '' },
        `Drawn on top of each other (within 3% at every RTT): ${group.join(', ')}; their point shapes differ.`,
      ),
    ),
    h('p', { class: 'muted' }, `Floors: ${floorGroups(projection.floors)}.`),
    projection.skipped.length > 0
      ? h('p', { class: 'muted' }, `Not projected: ${projection.skipped.join('; ')}.`)
      : undefined,
  );
}

/** The floors by where each came from, each source said once. */
function floorGroups(floors: NonNullable<RunViewModel['projection']>['floors']): string {
  const bySource = new Map<string, string[]>();
  for (const f of floors)
    bySource.set(f.sourceText, [...(bySource.get(f.sourceText) ?? []), `${f.target} ${ms(f.floorUs)} ms`]);
  return [...bySource].map(([source, list]) => `${list.join(', ')} (${source})`).join('; ');
}

/**
 * Renders a run group: the same plan from several places side by side ("from this machine" vs "from
 * us-east-1"): what failed or was skipped where, a table with a column group per place, a chart with
 * one colour per place, and below, one place at a time in full (a tab per place).
 */
import type { ExportFormat } from '../src/shared/formats';
import type { GroupViewModel, PlaceColumn, PlaceFigures } from '../src/shared/viewModel';
import { CHARTS, chartSize, type ChartDefinition, type ChartKind } from './chartDefinitions';
import { ms } from '../src/shared/units';
import { h, section } from './dom';
import { panelHeader } from './panelHeader';
import { reflowTables } from './reflowTables';
import { renderRun } from './runView';

export interface GroupViewHooks {
  onExport(format: ExportFormat): void;
  onCopy(): void;
  onOpen(runId: string): void;
  placesChart(canvas: HTMLCanvasElement): void;
  /** Draws a chart of place `place`'s details. */
  detailChart(canvas: HTMLCanvasElement, kind: ChartKind, place: number): void;
  /** Called before a place's details are redrawn, so its old charts can be released. */
  clearDetails(): void;
}

/** The place whose details show first: the first with a result. */
export function firstPlaceWithDetails(model: GroupViewModel): number {
  return Math.max(
    0,
    model.details.findIndex((d) => d !== null),
  );
}

export function renderGroup(
  root: HTMLElement,
  model: GroupViewModel,
  hooks: GroupViewHooks,
  selected: number,
  onSelect: (place: number) => void,
): void {
  // Label, legend and the table of the figures it draws: the chart's one definition.
  const places: ChartDefinition<GroupViewModel> = CHARTS.places;
  const chart = h('canvas', {
    role: 'img',
    'aria-label': places.label(model),
    'aria-describedby': places.alternative(model).tableId,
    'data-chart': 'places',
  });
  const detail = h('div', { id: 'place-detail', role: 'tabpanel' });
  root.replaceChildren(
    header(model, hooks),
    ...banners(model),
    section(
      'Side by side (ms)',
      'across',
      h('div', { class: 'table-wrap' }, acrossTable(model)),
      h(
        'p',
        { class: 'muted' },
        'Each place ran the same plan at the same time. A difference between places is the network path (and client) from each place to the database.',
      ),
      model.rows.some((r) => r.cells.some((c) => c && c.count > 0))
        ? h('div', { class: `chart${chartSize(places.legendEntries(model))}` }, chart)
        : undefined,
    ),
    section(
      'Each place in full',
      'places',
      tabs(model, selected, (place, all) => {
        for (const tab of all) {
          const on = tab.dataset.place === String(place);
          tab.setAttribute('aria-selected', String(on));
          tab.tabIndex = on ? 0 : -1;
        }
        renderDetail(detail, model, place, hooks);
        onSelect(place);
      }),
      detail,
    ),
  );
  reflowTables(root);
  if (chart.isConnected) hooks.placesChart(chart);
  renderDetail(detail, model, selected, hooks);
}

function header(model: GroupViewModel, hooks: GroupViewHooks): HTMLElement {
  return panelHeader(
    model.title,
    `${new Date(model.startedAt).toLocaleString()} · ${model.places.length} places · ${model.kinds.join(' + ')}`,
    {
      markdown: 'Save the places side by side, and each in full with mermaid charts, as a .md file',
      json: "Save every place's full result as JSON",
      csv: 'Save every kept sample of every place as CSV',
    },
    hooks,
  );
}

function banners(model: GroupViewModel): HTMLElement[] {
  return model.places.flatMap((place, i) => {
    const notes: HTMLElement[] = [];
    if (place.error) {
      notes.push(
        h(
          'p',
          { class: 'banner error', 'data-place': String(i), role: 'alert' },
          h('b', {}, `${place.label}: `),
          sentence(place.error),
          place.runId ? ' The figures from there below hold what arrived.' : ' No figures from there.',
        ),
      );
    } else if (place.state && place.state !== 'completed') {
      notes.push(
        h(
          'p',
          { class: 'banner warning', 'data-place': String(i), 'data-state': place.state },
          h('b', {}, `${place.label}: `),
          `partial run: ${place.stopReason ?? place.state}.`,
        ),
      );
    }
    for (const skip of place.skipped) {
      notes.push(
        h(
          'p',
          { class: 'banner info', 'data-place': String(i), 'data-skipped': skip.target },
          h('b', {}, `${place.label} skipped ${skip.target}: `),
          skip.reason,
        ),
      );
    }
    return notes;
  });
}

function sentence(text: string): string {
  return /[.!?]$/.test(text.trim()) ? text.trim() : `${text.trim()}.`;
}

function acrossTable(model: GroupViewModel): HTMLElement {
  const placeHead = (place: PlaceColumn, i: number) =>
    h(
      'th',
      // Its name without the detail line: what a narrow panel writes before each of its figures.
      {
        colspan: '3',
        class: 'place-head',
        'data-place': String(i),
        'data-label': `from ${place.label}`,
        scope: 'colgroup',
      },
      h('span', { class: `swatch place-${i % 6}`, 'aria-hidden': 'true' }),
      `from ${place.label}`,
      h('div', { class: 'muted place-detail' }, place.detail),
    );
  return h(
    'table',
    { id: 'across-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', { rowspan: '2' }, 'target'),
        h('th', { rowspan: '2' }, 'kind'),
        ...model.places.map(placeHead),
      ),
      h(
        'tr',
        {},
        ...model.places.flatMap((_, i) =>
          ['p50', 'p95', 'p99'].map((label) =>
            h(
              'th',
              {
                class: `num${label === 'p50' ? ' place-start' : ''}`,
                'data-place': String(i),
                'data-unit': 'ms',
              },
              label,
            ),
          ),
        ),
      ),
    ),
    h(
      'tbody',
      {},
      ...model.rows.map((row) =>
        h(
          'tr',
          { 'data-target': row.target, 'data-kind': row.kind },
          h('td', {}, row.target),
          h('td', { class: 'kind-cell' }, row.kind),
          ...row.cells.flatMap((cell, i) => cells(cell, i)),
        ),
      ),
    ),
  );
}

function cells(cell: PlaceFigures | null, place: number): HTMLElement[] {
  const attrs = (stat: string, extra = '') => ({
    class: `num${stat === 'p50' ? ' place-start' : ''}${extra}`,
    'data-place': String(place),
    'data-stat': stat,
  });
  if (!cell) return [h('td', { ...attrs('p50', ' muted'), colspan: '3' }, 'not run here')];
  if (cell.count === 0)
    return [
      h('td', { ...attrs('p50', ' failed'), colspan: '3' }, `no successful sample (${cell.errors} errors)`),
    ];
  return [
    h('td', attrs('p50'), h('b', {}, ms(cell.p50Us))),
    h('td', attrs('p95'), ms(cell.p95Us)),
    h('td', attrs('p99'), ms(cell.p99Us)),
  ];
}

function tabs(
  model: GroupViewModel,
  selected: number,
  onSelect: (place: number, tabs: HTMLElement[]) => void,
): HTMLElement {
  const all: HTMLElement[] = model.places.map((place, i) => {
    const tab = h(
      'button',
      {
        type: 'button',
        role: 'tab',
        'aria-selected': String(i === selected),
        'aria-controls': 'place-detail',
        // One tab stop for the list (the selected tab); arrow keys move between tabs.
        tabindex: i === selected ? '0' : '-1',
        'data-place': String(i),
        disabled: model.details[i] ? undefined : 'true',
        title: model.details[i] ? place.detail : `${place.label}: no result`,
      },
      h('span', { class: `swatch place-${i % 6}`, 'aria-hidden': 'true' }),
      place.label,
      place.error ? ' ⚠' : '',
    );
    tab.addEventListener('click', () => onSelect(i, all));
    tab.addEventListener('keydown', (event) => {
      const next = nextTab(all, i, event.key);
      if (next === undefined) return;
      event.preventDefault();
      all[next]?.focus();
      onSelect(next, all);
    });
    return tab;
  });
  return h('div', { class: 'place-tabs', role: 'tablist', 'aria-label': 'Place' }, ...all);
}

function renderDetail(
  container: HTMLElement,
  model: GroupViewModel,
  place: number,
  hooks: GroupViewHooks,
): void {
  hooks.clearDetails();
  const detail = model.details[place];
  if (!detail) {
    container.replaceChildren(h('p', { class: 'muted' }, 'This place produced no result.'));
    return;
  }
  renderRun(
    container,
    detail,
    {
      onExport: hooks.onExport,
      onCopy: hooks.onCopy,
      chart: (canvas, kind) => hooks.detailChart(canvas, kind, place),
    },
    { onOpen: hooks.onOpen },
  );
}

/** The tab an arrow, Home or End key moves to (skipping places without a result), as WAI-ARIA tabs do. */
function nextTab(all: HTMLElement[], from: number, key: string): number | undefined {
  const enabled = all.flatMap((tab, i) => (tab.hasAttribute('disabled') ? [] : [i]));
  if (enabled.length === 0) return undefined;
  const at = Math.max(0, enabled.indexOf(from));
  switch (key) {
    case 'ArrowRight':
      return enabled[(at + 1) % enabled.length];
    case 'ArrowLeft':
      return enabled[(at - 1 + enabled.length) % enabled.length];
    case 'Home':
      return enabled[0];
    case 'End':
      return enabled[enabled.length - 1];
    default:
      return undefined;
  }
}

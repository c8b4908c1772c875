/** Renders a run: header, per-target cards, charts, the statistics table and the errors. */
import { reflowTables } from './reflowTables';
import type { ExportFormat } from '../src/shared/formats';
import type { RunViewModel, StatsRow } from '../src/shared/viewModel';
import { MIN_SAMPLES_FOR, N_TOO_SMALL } from '../src/shared/percentileSupport';
import { ms } from '../src/shared/units';
import { CHARTS, chartSize, type ChartKind, type ChartDefinition } from './chartDefinitions';
import { coldTable } from './coldView';
import { differencesSection, expectedClaims } from './evidenceView';
import { foldSection, h, section } from './dom';
import { targetColour } from './charts';
import { readTheme } from './theme';
import { panelHeader } from './panelHeader';
import { loadTable, scheduleModelLines, scheduleTable } from './loadView';
import { phasesParts } from './phasesView';
import { splitParts } from './splitView';
import { rowsParts } from './rowsView';
import { projectionSection } from './projectionSection';
import { cardColumns, cardsNotes, targetCard } from './targetCard';
import { arrangeCards, verdictFor } from './verdictView';

export interface RunViewHooks {
  onExport(format: ExportFormat): void;
  onCopy(): void;
  chart(canvas: HTMLCanvasElement, kind: ChartKind): void;
}

const STAT_COLUMNS: [Exclude<keyof StatsRow['stats'], 'nTooSmall'>, string][] = [
  ['minUs', 'min'],
  ['meanUs', 'mean'],
  ['stddevUs', 'stddev'],
  ['p50Us', 'p50'],
  ['p90Us', 'p90'],
  ['p95Us', 'p95'],
  ['p99Us', 'p99'],
  ['p999Us', 'p99.9'],
  ['maxUs', 'max'],
];

/** A run shown inside a run group's panel: no title or export buttons of its own (the group has them). */
export interface EmbeddedRun {
  onOpen(runId: string): void;
}

export function renderRun(
  root: HTMLElement,
  model: RunViewModel,
  hooks: RunViewHooks,
  embedded?: EmbeddedRun,
): void {
  const charts: [HTMLCanvasElement, ChartKind][] = [];
  const canvas = (kind: ChartKind) => {
    // Label, legend and the table of the figures it draws: the chart's one definition.
    const definition: ChartDefinition = CHARTS[kind];
    const alternative = definition.alternative(model);
    const element = h('canvas', {
      role: 'img',
      'aria-label': definition.label(model),
      'aria-describedby': alternative.tableId,
      'data-chart': kind,
    });
    charts.push([element, kind]);
    const chart = h('div', { class: `chart${chartSize(definition.legendEntries(model))}` }, element);
    return alternative.details ? h('div', {}, chart, alternative.details) : chart;
  };

  const parts: (HTMLElement | undefined)[] = [
    embedded ? embeddedHeader(model, embedded) : header(model, hooks),
    banners(model),
    verdictFor(root, model),
    targetsSection(model),
    model.stats.some((s) => s.stats.count > 0)
      ? section('Percentiles per target', 'percentiles', canvas('percentiles'))
      : undefined,
    // Once, before the sections that set targets against each other: who they leave apart and why.
    model.apart ? h('p', { class: 'muted', 'data-note': 'apart' }, model.apart.line) : undefined,
    model.expected.lines.length > 0
      ? section(
          `Expected latency for 1..${model.expected.maxQueries} sequential queries`,
          'expected',
          h(
            'p',
            { class: 'muted' },
            'One new connection, then queries one after another: initial p50 + (n - 1) × subsequent p50.',
          ),
          expectedClaims(model),
          canvas('expected'),
        )
      : undefined,
    // The canvas only when the section shows: a chart drawn on a detached canvas is work for nothing.
    model.projection && model.projection.lines.length > 0
      ? projectionSection(model, canvas('projection'))
      : undefined,
    model.histograms.length > 0
      ? section('Latency distribution', 'histogram', canvas('histogram'))
      : undefined,
    model.series.some((s) => s.points.length > 0)
      ? section('Samples over time', 'series', canvas('series'))
      : undefined,
    model.schedules && model.schedules.length > 0
      ? section(
          'Request schedule',
          'schedule',
          h(
            'p',
            { class: 'muted' },
            'Requests started on time whether or not earlier ones finished; query 1 includes the connect. Bars: p50 per position and of the request total, timed from its intended start (corrected); ✕: the model. The service time (uncorrected: from its issue) is in the table.',
          ),
          ...scheduleModelLines(model.schedules),
          canvas('schedule'),
          scheduleTable(model.schedules),
        )
      : undefined,
    model.load && model.load.length > 0
      ? section(
          'Load',
          'load',
          // The judgement's statement per target and per level (src/shared/judgement/loadVerdict.ts).
          ...(model.loadVerdicts ?? []).flatMap((verdict) => [
            h('p', { class: 'crossover', 'data-load-verdict': verdict.target }, verdict.sentence),
            h(
              'ul',
              { class: 'load-levels' },
              ...verdict.levels.map((l) =>
                h(
                  'li',
                  {
                    class: l.keptUp || l.notJudged ? undefined : 'failed',
                    'data-level-label': l.label,
                    'data-limit': l.limit,
                  },
                  l.sentence,
                ),
              ),
            ),
          ]),
          model.load.some((l) => l.timedFrom === 'intended start')
            ? h(
                'p',
                { class: 'muted', 'data-timing': 'intended start' },
                'Open model: p50 and p99 are timed from each query’s intended start (coordinated omission corrected): the wait of a caller arriving on schedule, the figures that count. The service time (uncorrected: from its issue to its answer) is beside them.',
              )
            : undefined,
          canvas('load'),
          canvas('loadLatency'),
          loadTable(model.load),
        )
      : undefined,
    foldSection('Statistics', 'stats', true, statsTable(model)),
    model.anatomy || model.wire
      ? foldSection(
          'Where a new connection spends its time, and the round trips',
          'phases',
          false,
          ...phasesParts(model, canvas('phases')),
        )
      : undefined,
    model.split
      ? foldSection("Where a query's time goes", 'split', false, ...splitParts(model, canvas('split')))
      : undefined,
    model.rows ? foldSection('First row and last row', 'rows', false, ...rowsParts(model.rows)) : undefined,
    model.cold && model.cold.length > 0
      ? section('Cold starts: cold vs hot connect', 'cold', canvas('cold'), coldTable(model.cold))
      : undefined,
    differencesSection(model),
    model.errors.length > 0 ? section('Errors', 'errors', errorsTable(model)) : undefined,
    h(
      'footer',
      { class: 'muted' },
      `${model.environment}. ${model.iterations} samples per target and kind after ${model.warmup} warm-up; percentiles from HDR histograms; all times in ms.`,
    ),
  ];
  root.replaceChildren(...parts.filter((p): p is HTMLElement => p !== undefined));
  arrangeCards(root, model);
  reflowTables(root);
  for (const [element, kind] of charts) hooks.chart(element, kind);
}

/** Each target's card in its chart colour, then the notes that hold for all of them, once. */
function targetsSection(model: RunViewModel): HTMLElement {
  const colour = targetColour(readTheme(), model);
  const columns = cardColumns(model);
  return section(
    'Targets',
    'cards',
    h(
      'div',
      { class: 'cards' },
      ...model.cards.map((card) =>
        targetCard(
          card,
          columns,
          colour(card.target),
          model.loadVerdicts?.find((v) => v.target === card.target)?.sentence,
        ),
      ),
    ),
    ...cardsNotes(model, columns),
  );
}

function header(model: RunViewModel, hooks: RunViewHooks): HTMLElement {
  return panelHeader(
    model.title,
    `${new Date(model.startedAt).toLocaleString()} · ${model.location} · ${model.kinds.join(' + ')} · ${(model.durationMs / 1000).toFixed(1)} s`,
    {
      markdown: 'Save tables and mermaid charts as a .md file',
      json: 'Save the full result as JSON',
      csv: 'Save every kept sample as CSV',
    },
    hooks,
  );
}

function embeddedHeader(model: RunViewModel, embedded: EmbeddedRun): HTMLElement {
  const open = h('a', { href: '#', title: "Open this place's run in its own panel" }, 'open this run alone');
  open.addEventListener('click', (event) => {
    event.preventDefault();
    embedded.onOpen(model.runId);
  });
  return h(
    'p',
    { class: 'muted' },
    `${new Date(model.startedAt).toLocaleString()} · ${model.location} · ${model.kinds.join(' + ')} · ${(model.durationMs / 1000).toFixed(1)} s · `,
    open,
  );
}

function banners(model: RunViewModel): HTMLElement | undefined {
  const notes: HTMLElement[] = [];
  if (model.state !== 'completed') {
    notes.push(
      h(
        'p',
        { class: 'banner warning', 'data-state': model.state },
        `Partial run: ${model.stopReason ?? model.state}. The figures below cover what was measured until then.`,
      ),
    );
  }
  for (const card of model.cards)
    if (card.tlsInsecure)
      notes.push(h('p', { class: 'banner warning', 'data-banner': 'tls-insecure' }, card.tlsInsecure));
  if (model.client.bottleneck) {
    notes.push(
      h('p', { class: 'banner warning' }, model.client.note ?? 'The client may have limited these figures.'),
    );
  }
  return notes.length > 0 ? h('div', {}, ...notes) : undefined;
}

/**
 * One figure of the statistics table. A tail percentile the count cannot support is an empty cell (the
 * table says why once, under it); `data-label` names the figure where a narrow panel lays rows out
 * as blocks.
 */
function statCell(
  stats: StatsRow['stats'],
  key: (typeof STAT_COLUMNS)[number][0],
  label: string,
): HTMLElement {
  const value = stats[key];
  if (stats.count > 0 && value === undefined)
    return h('td', { class: 'num', 'data-stat': label, 'data-withheld': N_TOO_SMALL }, '');
  return h(
    'td',
    { class: 'num', 'data-stat': label, 'data-label': label },
    stats.count === 0 || value === undefined ? '-' : ms(value),
  );
}

/** The percentile columns some row of the run supports: a column no row can fill is left out. */
function shownColumns(model: RunViewModel): typeof STAT_COLUMNS {
  const rows = model.stats.flatMap((row) => (row.service ? [row.stats, row.service] : [row.stats]));
  return STAT_COLUMNS.filter(
    ([key]) => (key !== 'p99Us' && key !== 'p999Us') || rows.some((s) => s.count > 0 && s[key] !== undefined),
  );
}

function statsTable(model: RunViewModel): HTMLElement {
  const columns = shownColumns(model);
  const rows = model.stats.flatMap((row) => (row.service ? [row.stats, row.service] : [row.stats]));
  const withheld = (['p99Us', 'p999Us'] as const).filter((key) =>
    rows.some((s) => s.count > 0 && s[key] === undefined),
  );
  return h(
    'div',
    { class: 'table-wrap reflow' },
    h(
      'table',
      { id: 'stats-table' },
      h('caption', {}, 'Latency per target and kind, ms'),
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          h('th', { scope: 'col' }, 'target'),
          h('th', { scope: 'col' }, 'kind'),
          h('th', { scope: 'col' }, 'n'),
          h('th', { scope: 'col' }, 'errors'),
          ...columns.map(([, label]) => h('th', { scope: 'col', class: 'num' }, label)),
          h('th', { scope: 'col' }, 'reused'),
          // Last, so the columns before it keep their places for readers that count them.
          h('th', { scope: 'col' }, 'workload'),
        ),
      ),
      h(
        'tbody',
        {},
        ...model.stats.flatMap((row) => [
          h(
            'tr',
            {
              'data-target': row.target,
              'data-kind': row.kind,
              'data-timing': row.service ? 'intended start' : undefined,
            },
            h('th', { scope: 'row', class: 'name', title: row.target }, row.target),
            h(
              'td',
              { class: 'kind-cell' },
              row.service ? `${row.kind}, corrected (from the intended start)` : row.kind,
            ),
            ...statCells(row.stats, columns),
            h(
              'td',
              { class: 'muted', 'data-label': 'reused' },
              row.reused.length > 0 ? row.reused.join(', ') : 'nothing',
              row.stoppedEarly ? ` · stopped: ${row.stoppedEarly}` : undefined,
            ),
            workloadCell(row.workload),
          ),
          // Open-model load and schedules: the service time beside the corrected headline, named as such.
          row.service
            ? h(
                'tr',
                { 'data-target': row.target, 'data-kind': row.kind, 'data-timing': 'service' },
                h('th', { scope: 'row', class: 'name', title: row.target }, row.target),
                h('td', { class: 'kind-cell' }, `${row.kind}, service time (uncorrected: from its issue)`),
                ...statCells(row.service, columns),
                h('td', { class: 'muted' }, ''),
                h('td', {}, ''),
              )
            : undefined,
        ]),
      ),
    ),
    withheld.length > 0
      ? h('p', { class: 'muted', 'data-footnote': N_TOO_SMALL }, withheldNote(model, withheld))
      : undefined,
  );
}

/** One note for the whole table: which tail percentiles are missing, where, and why. */
function withheldNote(model: RunViewModel, withheld: readonly ('p99Us' | 'p999Us')[]): string {
  const parts = withheld.map((key) => {
    const name = key === 'p99Us' ? 'p99' : 'p99.9';
    const missing = model.stats.filter((r) => r.stats.count > 0 && r.stats[key] === undefined);
    const all = missing.length === model.stats.filter((r) => r.stats.count > 0).length;
    return `${name} needs ${MIN_SAMPLES_FOR[key].toLocaleString('en-US')} successful samples${all ? ' (no row has them)' : `; empty for ${missing.length} row${missing.length === 1 ? '' : 's'} with fewer`}`;
  });
  return `${parts.join('; ')}. With fewer, a tail percentile is the largest samples under another name, so it is not shown.`;
}

/** n, errors and the percentile columns of one row. */
function statCells(stats: StatsRow['stats'], columns: typeof STAT_COLUMNS): HTMLElement[] {
  return [
    h('td', { class: 'num', 'data-label': 'n' }, stats.count),
    h(
      'td',
      { class: 'num', 'data-label': 'errors' },
      stats.errors === 0 ? '0' : `${stats.errors} (${(stats.errorRate * 100).toFixed(1)}%)`,
    ),
    ...columns.map(([key, label]) => statCell(stats, key, label)),
  ];
}

function workloadCell(workload: string | undefined): HTMLElement {
  const text = workload ?? '';
  const short = text.length > 80 ? `${text.slice(0, 77)}...` : text;
  return h(
    'td',
    { class: 'workload', 'data-col': 'workload', 'data-workload': text, title: text },
    h('code', {}, short),
  );
}

function errorsTable(model: RunViewModel): HTMLElement {
  return h(
    'table',
    { id: 'errors-table' },
    h(
      'thead',
      {},
      h(
        'tr',
        {},
        h('th', {}, 'target'),
        h('th', {}, 'kind'),
        h('th', {}, 'class'),
        h('th', { class: 'num' }, 'count'),
        h('th', {}, 'first message'),
        h('th', {}, 'what to do'),
      ),
    ),
    h(
      'tbody',
      {},
      ...model.errors.map((e) =>
        h(
          'tr',
          { 'data-error-class': e.errorClass },
          h('td', {}, e.target),
          h('td', {}, e.kind),
          h('td', {}, h('code', {}, e.errorClass)),
          h('td', { class: 'num' }, e.count),
          h('td', {}, e.message),
          h('td', { class: 'muted' }, e.hint),
        ),
      ),
    ),
  );
}

/**
 * The panel's load section: per-level tables and charts of throughput against p50/p99, and
 * request-schedule bars per position with the model's prediction as a marker. In the open model the
 * headline is timed from each query's intended start (corrected), with the service time
 * (uncorrected) beside it, named as such, as in the Markdown. Draws figures computed in the
 * extension host; times nothing.
 */
import type { ChartConfiguration } from 'chart.js';
import type { RunViewModel } from '../src/shared/viewModel';
import { ms } from '../src/shared/units';
import { h } from './dom';
import { LOG_TICKS } from './labels';
import type { ChartLook } from './phasesChart';

type LoadEntry = NonNullable<RunViewModel['load']>[number];
type ScheduleEntry = NonNullable<RunViewModel['schedules']>[number];

export function loadTable(entries: LoadEntry[]): HTMLElement {
  const open = entries.some((e) => e.timedFrom === 'intended start');
  // Only fixed-rate levels count their starts: a column of dashes for the closed model says nothing.
  const achieved = entries.some((e) => e.figures.levels.some((l) => l.starts));
  const latency = (stat: string) => (open ? `${stat} corrected` : stat);
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { id: 'load-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...[
            'target',
            'model',
            'level',
            'throughput/s',
            latency('p50'),
            latency('p99'),
            ...(open ? ['p50 service (uncorrected)', 'p99 service (uncorrected)'] : []),
            ...(achieved ? ['achieved/s'] : []),
            'errors',
            'kept up?',
          ].map((label) => h('th', {}, label)),
        ),
      ),
      h(
        'tbody',
        {},
        ...entries.flatMap(({ target, figures, levels }) =>
          figures.levels.map((l, k) => {
            const view = levels[k];
            return h(
              'tr',
              {
                'data-target': target,
                'data-level': String(l.level),
                'data-knee': figures.knee?.level === l.level ? 'true' : undefined,
              },
              h('td', {}, target),
              h('td', {}, figures.model),
              h('td', { class: 'num' }, `${l.level}${figures.model === 'open' ? '/s' : ''}`),
              h('td', { class: 'num' }, l.throughput.toFixed(1)),
              h('td', { class: 'num', 'data-stat': 'p50' }, view ? ms(view.latency.p50Us) : '-'),
              h('td', { class: 'num', 'data-stat': 'p99' }, view ? ms(view.latency.p99Us) : '-'),
              ...(open
                ? [
                    h(
                      'td',
                      { class: 'num', 'data-stat': 'service p50' },
                      view?.service ? ms(view.service.p50Us) : '-',
                    ),
                    h(
                      'td',
                      { class: 'num', 'data-stat': 'service p99' },
                      view?.service ? ms(view.service.p99Us) : '-',
                    ),
                  ]
                : []),
              achieved
                ? h('td', { class: 'num' }, l.starts ? String(l.starts.achievedRate) : '-')
                : undefined,
              h(
                'td',
                { class: 'num' },
                l.stats.errors === 0 ? '0' : `${l.stats.errors} (${(l.stats.errorRate * 100).toFixed(1)}%)`,
              ),
              h(
                'td',
                { class: l.tripped ? 'failed' : undefined, 'data-client-limited': l.clientLimited },
                l.tripped ? `no: ${l.tripped}` : 'yes',
                l.clientLimited ? h('span', { class: 'errors' }, ` · ${l.clientLimited}`) : undefined,
              ),
            );
          }),
        ),
      ),
    ),
  );
}

export function scheduleTable(entries: ScheduleEntry[]): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { id: 'schedule-table' },
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          ...['target', 'position', 'n', 'p50', 'p95', 'p99', 'errors'].map((label) => h('th', {}, label)),
        ),
      ),
      h(
        'tbody',
        {},
        ...entries.flatMap(({ target, figures, totals, serviceTotals }) => [
          ...[
            ...figures.positions.map((p, k) => ({
              p,
              position: String(k + 1),
              label: k === 0 ? 'query 1 (initial)' : `query ${k + 1}`,
            })),
            { p: totals, position: 'total', label: 'request total (from the intended start)' },
            ...(serviceTotals
              ? [
                  {
                    p: serviceTotals,
                    position: 'service',
                    label: 'request total, service (uncorrected: from its issue)',
                  },
                ]
              : []),
          ].map(({ p, position, label }) =>
            h(
              'tr',
              { 'data-target': target, 'data-position': position },
              h('td', {}, target),
              h('td', {}, label),
              h('td', { class: 'num' }, p.count),
              h('td', { class: 'num' }, p.count === 0 ? '-' : ms(p.p50Us)),
              h('td', { class: 'num' }, p.count === 0 ? '-' : ms(p.p95Us)),
              h('td', { class: 'num' }, p.count === 0 ? '-' : ms(p.p99Us)),
              h('td', { class: 'num' }, p.errors),
            ),
          ),
        ]),
      ),
    ),
  );
}

/** One sentence per target: the model beside the measured total. */
export function scheduleModelLines(entries: ScheduleEntry[]): HTMLElement[] {
  return entries.flatMap(({ target, figures }) => {
    const model = figures.model;
    if (!model) return [];
    const p = model.p50;
    return [
      h(
        'p',
        { class: 'muted', 'data-model': target },
        `${target}: ${figures.rate}/s × ${figures.queries} queries for ${figures.durationS} s. Model initial + (${figures.queries} − 1) × subsequent = ${ms(p.predictedUs)} ms at p50; measured ${ms(p.measuredUs)} ms (${p.differenceUs >= 0 ? '+' : ''}${ms(p.differenceUs)} ms, ${(p.differenceRate * 100).toFixed(1)}%): ${model.note}.`,
      ),
    ];
  });
}

/** The levels of every load target, in order, and each target's figures at them (null where it has none). */
function levelAxis(model: RunViewModel) {
  const entries = model.load ?? [];
  const levels = [...new Set(entries.flatMap((e) => e.figures.levels.map((l) => l.level)))].sort(
    (a, b) => a - b,
  );
  type Level = LoadEntry['levels'][number];
  type Figures = LoadEntry['figures']['levels'][number];
  const at = (entry: LoadEntry, pick: (view: Level, figures: Figures) => number | undefined) =>
    levels.map((level) => {
      const k = entry.figures.levels.findIndex((l) => l.level === level);
      const figures = entry.figures.levels[k];
      const view = entry.levels[k];
      const value = figures && view ? pick(view, figures) : undefined;
      return value === undefined || !(value > 0) ? null : value;
    });
  const openOnly = entries.every((e) => e.figures.model === 'open');
  const x = {
    title: {
      display: true,
      text: openOnly ? 'arrivals per second' : 'level (connections, or arrivals/s in the open model)',
    },
  };
  return { entries, levels, at, x };
}

/**
 * Throughput per level, one line per target in its colour, on a log axis: 600/s beside 15,000/s
 * stays readable (one linear axis, or a second one for latency, hid the small one).
 */
export function loadChart(model: RunViewModel, look: ChartLook): ChartConfiguration {
  const { entries, levels, at, x } = levelAxis(model);
  return {
    type: 'line',
    data: {
      labels: levels.map(String),
      datasets: entries.map((entry) => ({
        label: `${entry.target} queries/s`,
        data: at(entry, (_, l) => l.throughput),
        borderColor: look.colourOf(entry.target),
        backgroundColor: look.colourOf(entry.target),
        pointRadius: 3,
      })),
    },
    options: {
      scales: {
        x,
        y: {
          type: 'logarithmic',
          title: { display: true, text: 'queries per second (log scale)' },
          ticks: LOG_TICKS,
        },
      },
    },
  };
}

/** p50 (dotted) and p99 (solid) per level, one colour per target, on a log axis of its own chart. */
export function loadLatencyChart(model: RunViewModel, look: ChartLook): ChartConfiguration {
  const { entries, levels, at, x } = levelAxis(model);
  const datasets = entries.flatMap((entry) => {
    const colour = look.colourOf(entry.target);
    const open = entry.timedFrom === 'intended start';
    return [
      {
        label: `${entry.target} p99${open ? ' corrected' : ''}`,
        data: at(entry, (v) => v.latency.p99Us / 1000),
        borderColor: colour,
        backgroundColor: colour,
      },
      {
        label: `${entry.target} p50${open ? ' corrected' : ''}`,
        data: at(entry, (v) => v.latency.p50Us / 1000),
        borderColor: colour,
        backgroundColor: colour,
        borderDash: [2, 3],
      },
      ...(open
        ? [
            {
              label: `${entry.target} p99 service (uncorrected)`,
              data: at(entry, (v) => (v.service ? v.service.p99Us / 1000 : undefined)),
              borderColor: look.shade(colour, 55),
              backgroundColor: look.shade(colour, 55),
              borderDash: [6, 4],
            },
          ]
        : []),
    ];
  });
  return {
    type: 'line',
    data: { labels: levels.map(String), datasets },
    options: {
      scales: {
        x,
        y: { type: 'logarithmic', title: { display: true, text: 'ms (log scale)' }, ticks: LOG_TICKS },
      },
    },
  };
}

/** p50 per position and of the total per target, with the model's prediction as a marker on the total. */
export function scheduleChart(model: RunViewModel, colourOf: (target: string) => string): ChartConfiguration {
  const entries = model.schedules ?? [];
  const positions = Math.max(0, ...entries.map((e) => e.figures.positions.length));
  const labels = [
    ...Array.from({ length: positions }, (_, k) => `query ${k + 1}`),
    'request total (corrected)',
  ];
  const datasets = entries.flatMap((entry) => {
    const colour = colourOf(entry.target);
    const values = labels.map((_, k) => {
      const stats = k < positions ? entry.figures.positions[k] : entry.totals;
      return stats && stats.count > 0 ? stats.p50Us / 1000 : null;
    });
    const predicted = entry.figures.model?.p50.predictedUs;
    return [
      { type: 'bar' as const, label: `${entry.target} p50`, data: values, backgroundColor: colour },
      {
        type: 'line' as const,
        label: `${entry.target} model (initial + (K − 1) × subsequent)`,
        data: labels.map((_, k) => (k === positions && predicted !== undefined ? predicted / 1000 : null)),
        borderColor: colour,
        backgroundColor: colour,
        showLine: false,
        pointStyle: 'crossRot' as const,
        pointRadius: 9,
        pointBorderWidth: 2,
      },
    ];
  });
  return {
    type: 'bar',
    data: { labels, datasets },
    options: { scales: { y: { title: { display: true, text: 'p50 ms' }, beginAtZero: true } } },
  };
}

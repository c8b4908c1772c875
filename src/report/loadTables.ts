/**
 * Markdown for the duration kinds: the request schedule's per-position table with the model beside
 * the measured totals, and each load level's throughput and latency with the knee, plus mermaid
 * charts (throughput per level; p50 and p99 per level; per-position bars with the model).
 */
import { fanOutLines } from './fanOutTable';
import type {
  LoadFigures,
  LoadLevelFigures,
  ScheduleFigures,
  ScheduleModelFigures,
  StartFigures,
} from '../shared/loadResult';
import type { LatencyStats, Measurement } from '../shared/result';
import { ms, percent, signedMs } from '../shared/units';
import { niceCeiling } from './mermaid';
import { clientLimitSentence } from '../shared/clientLimit';
import { countColumn, errorsColumn, errorsText, latencyColumns } from './latencyColumns';
import { inlineText, markdownTable, type Column } from './markdownTable';
import { tailCell, tooSmallFootnote } from './tailCell';

/** A request's position (query 1..K) or its total, with the statistics of that position. */
interface PositionRow {
  readonly name: string;
  readonly stats: LatencyStats;
}

const POSITION_COLUMNS: readonly Column<PositionRow>[] = [
  { header: 'Position', cell: (row) => row.name },
  countColumn((row: PositionRow) => row.stats),
  ...latencyColumns((row: PositionRow) => row.stats),
  errorsColumn((row: PositionRow) => row.stats),
];

function modelColumns(queries: number): Column<ScheduleModelFigures>[] {
  const right = (header: string, us: (f: ScheduleModelFigures) => number): Column<ScheduleModelFigures> => ({
    header,
    align: 'right',
    cell: (f) => ms(us(f)),
  });
  return [
    { header: `Model: initial + (${queries} - 1) x subsequent`, cell: (f) => f.statistic },
    right('initial', (f) => f.initialUs),
    right('subsequent', (f) => f.subsequentUs),
    right('predicted', (f) => f.predictedUs),
    right('measured', (f) => f.measuredUs),
    {
      header: 'difference',
      align: 'right',
      cell: (f) => `${signedMs(f.differenceUs)} (${signedPercent(f.differenceRate)})`,
    },
  ];
}

export function scheduleSection(measurements: Measurement[]): string[] {
  const lines: string[] = [];
  for (const m of measurements) {
    const s = m.schedule;
    if (!s) continue;
    const how = s.connection === 'new' ? 'a new connection per request' : 'pooled connections';
    lines.push(
      `## Request schedule: ${inlineText(m.target)}`,
      '',
      `${s.rate} requests per second for ${s.durationS} s, ${s.queries} consecutive queries each, ${how}; every request started on time whether or not earlier ones had finished. Query 1 includes the connect${s.connection === 'new' ? '' : ' when no idle connection was free'}.`,
      '',
      ...markdownTable(POSITION_COLUMNS, [
        ...s.positions.map((stats, k) => ({ name: k === 0 ? 'query 1 (initial)' : `query ${k + 1}`, stats })),
        { name: '**request total** (from the intended start)', stats: s.totals },
        ...(s.serviceTotals
          ? [{ name: 'request total, service (from its issue)', stats: s.serviceTotals }]
          : []),
      ]),
      '',
    );
    if (s.model) {
      const { p50, mean } = s.model;
      lines.push(
        ...markdownTable(modelColumns(s.queries), [p50, mean]),
        '',
        `Difference = ${s.model.note}.`,
        '',
      );
    }
    lines.push(
      startsLine(s.starts, 'requests', s.cut ? cutWords(s.durationUs ?? 0, s.durationS) : undefined),
      '',
      ...fanOutLines(s.fanOut, [s.rate], 'requests/s'),
      ...scheduleChart(m.target, s),
      '',
    );
  }
  return [...lines, ...tooSmallFootnote(lines)];
}

export function loadSection(measurements: Measurement[]): string[] {
  const lines: string[] = [];
  for (const m of measurements) {
    const load = m.load;
    if (!load || load.levels.length === 0) continue;
    const open = load.model === 'open';
    lines.push(
      `## Load: ${inlineText(m.target)}`,
      '',
      open
        ? `Open model: a fixed arrival rate per level for ${load.durationS} s over ${load.connections ?? '?'} connections. "corrected" times each query from its intended start (coordinated omission corrected): the figures that count; "service" (uncorrected) from when it was issued. A level that did not keep up fails every threshold on it.`
        : `Closed model: each level's connections issue queries back to back for ${load.durationS} s.`,
      '',
      ...markdownTable(open ? openLevelColumns(load) : closedLevelColumns(load), load.levels),
      '',
      kneeLine(load),
      '',
      ...clientLines(load),
      ...fanOutLines(
        load.fanOut,
        load.levels.map((l) => l.level),
        open ? 'arrivals/s' : 'connections',
      ),
      ...loadCharts(m.target, load),
      '',
    );
  }
  return [...lines, ...tooSmallFootnote(lines)];
}

/** Whether the level kept up, and why not or why it is not judged. */
function keptUpColumn(load: LoadFigures): Column<LoadLevelFigures> {
  return {
    header: 'kept up?',
    cell: (l) => {
      const kept = l.tripped
        ? `no: ${l.tripped}${l.cut ? `; ${cutWords(l.durationUs, load.durationS)}` : ''}`
        : l.cut
          ? `not judged: ${cutWords(l.durationUs, load.durationS)}`
          : 'yes';
      return l.clientLimited ? `${kept}; ${l.clientLimited}` : kept;
    },
  };
}

type LevelColumn = Column<LoadLevelFigures>;

const right = (header: string, cell: LevelColumn['cell']): LevelColumn => ({ header, align: 'right', cell });

const p99Cell = (s: LatencyStats | undefined): string => (s ? tailCell(s.count, 'p99Us', s.p99Us, ms) : '-');

/** Open model: the corrected figures first, the service time beside, late and dropped starts. */
function openLevelColumns(load: LoadFigures): LevelColumn[] {
  return [
    right('Arrivals/s', (l) => l.level),
    right('achieved/s', (l) => l.starts?.achievedRate ?? '-'),
    right('throughput/s', (l) => l.throughput),
    right('p50 corrected', (l) => (l.corrected ? ms(l.corrected.p50Us) : '-')),
    right('p99 corrected', (l) => p99Cell(l.corrected)),
    right('p50 service (uncorrected)', (l) => ms(l.stats.p50Us)),
    right('p99 service (uncorrected)', (l) => p99Cell(l.stats)),
    right('late', (l) => l.starts?.late ?? '-'),
    right('dropped', (l) => l.starts?.dropped ?? '-'),
    right('errors', (l) => errorsText(l.stats)),
    keptUpColumn(load),
  ];
}

/** Closed model: connections back to back. */
function closedLevelColumns(load: LoadFigures): LevelColumn[] {
  return [
    right('Connections', (l) => l.level),
    right('throughput/s', (l) => l.throughput),
    right('p50', (l) => ms(l.stats.p50Us)),
    right('p95', (l) => ms(l.stats.p95Us)),
    right('p99', (l) => p99Cell(l.stats)),
    right('max', (l) => ms(l.stats.maxUs)),
    right('errors', (l) => errorsText(l.stats)),
    keptUpColumn(load),
  ];
}

/** The sweep's client verdict, when the client limited a level (src/shared/clientLimit.ts). */
function clientLines(load: LoadFigures): string[] {
  const sentence = clientLimitSentence(load);
  return sentence ? [`> **Client-limited:** ${sentence}`, ''] : [];
}

function kneeLine(load: LoadFigures): string {
  const limits = [
    `error rate above ${percent(load.maxErrorRate)}`,
    ...(load.maxLatencyMs !== undefined
      ? [`${load.latencyStat}${load.model === 'open' ? ' (corrected)' : ''} above ${load.maxLatencyMs} ms`]
      : []),
    ...(load.model === 'open' ? ['fewer than 95% of the asked starts'] : []),
  ].join(', ');
  if (load.knee)
    return `**Stops keeping up at ${load.knee.level}${load.model === 'open' ? '/s' : ' connections'}:** ${inlineText(load.knee.reason)} (limits: ${limits}).`;
  // A level cut short ran less than asked: "kept up" is never said of it (LoadLevelFigures.cut).
  const cut = load.levels.filter((l) => l.cut);
  if (cut.length === 0) return `Kept up at every level (limits: ${limits}).`;
  const unit = load.model === 'open' ? '/s' : ' connections';
  const which = `${cut.map((l) => l.level).join(', ')}${unit}`;
  const whole = load.levels.length - cut.length;
  return whole === 0
    ? `Not judged: the level (${which}) was cut short, ${cutWords(cut[0]?.durationUs ?? 0, load.durationS)} (limits: ${limits}).`
    : `Kept up at every level that ran its full ${load.durationS} s; ${which} was cut short, ${cutWords(cut[0]?.durationUs ?? 0, load.durationS)}, and is not judged (limits: ${limits}).`;
}

/** "cut after 1.22 s of 2 s". */
function cutWords(durationUs: number, durationS: number): string {
  return `cut after ${(durationUs / 1e6).toFixed(2)} s of ${durationS} s`;
}

function startsLine(starts: StartFigures, what: string, cut?: string): string {
  return `${cut ? `Cut short: ${cut}, so not judged. ` : ''}Started ${starts.started} of ${starts.asked} ${what} asked (${starts.achievedRate}/s of ${starts.askedRate}/s); ${starts.late} started more than ${ms(starts.lateAfterUs)} ms late, ${starts.dropped} dropped; start lateness p50 ${ms(starts.latenessP50Us)} ms, p99 ${ms(starts.latenessP99Us)} ms.`;
}

function scheduleChart(target: string, s: ScheduleFigures): string[] {
  const labels = [...s.positions.map((_, k) => `query ${k + 1}`), 'total', 'model'];
  const values = [...s.positions.map((p) => p.p50Us), s.totals.p50Us, s.model?.p50.predictedUs ?? 0];
  return xychart(
    `${target}: p50 per position, the request total and the model (ms)`,
    labels,
    'milliseconds',
    [`bar [${values.map((us) => num(us / 1000)).join(', ')}]`],
    Math.max(...values) / 1000,
  );
}

function loadCharts(target: string, load: LoadFigures): string[] {
  const labels = load.levels.map((l) => String(l.level));
  const throughput = load.levels.map((l) => l.throughput);
  const latency = load.levels.map((l) => l.corrected ?? l.stats);
  const p50 = latency.map((s) => s.p50Us / 1000);
  const p99 = latency.map((s) => s.p99Us / 1000);
  const unit = load.model === 'open' ? 'arrivals per second' : 'connections';
  return [
    ...xychart(
      `${target}: throughput (queries/s) per level (${unit})`,
      labels,
      'queries per second',
      [`bar [${throughput.map(num).join(', ')}]`],
      Math.max(...throughput),
    ),
    '',
    ...xychart(
      `${target}: p99 (upper line) and p50 per level${load.model === 'open' ? ', corrected' : ''} (ms)`,
      labels,
      'milliseconds',
      [`line [${p99.map(num).join(', ')}]`, `line [${p50.map(num).join(', ')}]`],
      Math.max(...p99, ...p50),
    ),
  ];
}

function xychart(title: string, labels: string[], axis: string, series: string[], top: number): string[] {
  return [
    '```mermaid',
    'xychart-beta',
    `    title "${label(title)}"`,
    `    x-axis [${labels.map((l) => `"${label(l)}"`).join(', ')}]`,
    `    y-axis "${axis}" 0 --> ${niceCeiling(top)}`,
    ...series.map((s) => `    ${s}`),
    '```',
  ];
}

function signedPercent(rate: number): string {
  return `${rate > 0 ? '+' : ''}${(rate * 100).toFixed(1)}%`;
}

function num(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

function label(text: string): string {
  return text.replace(/["\r\n]/g, (c) => (c === '"' ? "'" : ' '));
}

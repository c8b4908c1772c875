/**
 * Markdown for the duration kinds: the request schedule's per-position table with the model beside
 * the measured totals, and each load level's throughput and latency with the knee, plus mermaid
 * charts (throughput per level; p50 and p99 per level; per-position bars with the model).
 */
import { fanOutLines } from './fanOutTable';
import type { LoadFigures, ScheduleFigures, StartFigures } from '../shared/loadResult';
import type { LatencyStats, Measurement } from '../shared/result';
import { ms, percent, signedMs } from '../shared/units';
import { niceCeiling } from './mermaid';
import { clientLimitSentence } from '../shared/clientLimit';
import { latencyCells, tailCell, tooSmallFootnote } from './tailCell';

export function scheduleSection(measurements: Measurement[]): string[] {
  const lines: string[] = [];
  for (const m of measurements) {
    const s = m.schedule;
    if (!s) continue;
    const how = s.connection === 'new' ? 'a new connection per request' : 'pooled connections';
    lines.push(
      `## Request schedule: ${cell(m.target)}`,
      '',
      `${s.rate} requests per second for ${s.durationS} s, ${s.queries} consecutive queries each, ${how}; every request started on time whether or not earlier ones had finished. Query 1 includes the connect${s.connection === 'new' ? '' : ' when no idle connection was free'}.`,
      '',
      '| Position | n | avg | p50 | p90 | p95 | p99 | max | errors |',
      '| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
      ...s.positions.map((p, k) => statsRow(k === 0 ? 'query 1 (initial)' : `query ${k + 1}`, p)),
      statsRow('**request total** (from the intended start)', s.totals),
      ...(s.serviceTotals ? [statsRow('request total, service (from its issue)', s.serviceTotals)] : []),
      '',
    );
    if (s.model) {
      const { p50, mean } = s.model;
      lines.push(
        `| Model: initial + (${s.queries} - 1) x subsequent | initial | subsequent | predicted | measured | difference |`,
        '| --- | ---: | ---: | ---: | ---: | ---: |',
        ...[p50, mean].map(
          (f) =>
            `| ${f.statistic} | ${ms(f.initialUs)} | ${ms(f.subsequentUs)} | ${ms(f.predictedUs)} | ${ms(f.measuredUs)} | ${signedMs(f.differenceUs)} (${signedPercent(f.differenceRate)}) |`,
        ),
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
      `## Load: ${cell(m.target)}`,
      '',
      open
        ? `Open model: a fixed arrival rate per level for ${load.durationS} s over ${load.connections ?? '?'} connections. "corrected" times each query from its intended start (coordinated omission corrected): the figures that count; "service" (uncorrected) from when it was issued. A level that did not keep up fails every threshold on it.`
        : `Closed model: each level's connections issue queries back to back for ${load.durationS} s.`,
      '',
      open
        ? '| Arrivals/s | achieved/s | throughput/s | p50 corrected | p99 corrected | p50 service (uncorrected) | p99 service (uncorrected) | late | dropped | errors | kept up? |'
        : '| Connections | throughput/s | p50 | p95 | p99 | max | errors | kept up? |',
      open
        ? '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |'
        : '| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |',
      ...load.levels.map((l) => {
        const errors = l.stats.errors === 0 ? '0' : `${l.stats.errors} (${percent(l.stats.errorRate)})`;
        const kept = l.tripped
          ? `no: ${cell(l.tripped)}${l.cut ? `; ${cutWords(l.durationUs, load.durationS)}` : ''}`
          : l.cut
            ? `not judged: ${cutWords(l.durationUs, load.durationS)}`
            : 'yes';
        const verdict = l.clientLimited ? `${kept}; ${cell(l.clientLimited)}` : kept;
        if (open) {
          const c = l.corrected;
          return `| ${l.level} | ${l.starts?.achievedRate ?? '-'} | ${l.throughput} | ${c ? ms(c.p50Us) : '-'} | ${c ? tailCell(c.count, 'p99Us', c.p99Us, ms) : '-'} | ${ms(l.stats.p50Us)} | ${tailCell(l.stats.count, 'p99Us', l.stats.p99Us, ms)} | ${l.starts?.late ?? '-'} | ${l.starts?.dropped ?? '-'} | ${errors} | ${verdict} |`;
        }
        return `| ${l.level} | ${l.throughput} | ${ms(l.stats.p50Us)} | ${ms(l.stats.p95Us)} | ${tailCell(l.stats.count, 'p99Us', l.stats.p99Us, ms)} | ${ms(l.stats.maxUs)} | ${errors} | ${verdict} |`;
      }),
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
    return `**Stops keeping up at ${load.knee.level}${load.model === 'open' ? '/s' : ' connections'}:** ${cell(load.knee.reason)} (limits: ${limits}).`;
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

function statsRow(name: string, s: LatencyStats): string {
  const errors = s.errors === 0 ? '0' : `${s.errors} (${percent(s.errorRate)})`;
  const values = latencyCells(s);
  return `| ${name} | ${s.count} | ${values.join(' | ')} | ${errors} |`;
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

function cell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r?\n/g, ' ');
}

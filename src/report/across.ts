/**
 * Reports over results of one plan from several places (this machine, runners in several regions):
 * a side-by-side table first ("from my laptop" vs "from us-east-1"), then each place's full report.
 */
import type { ExportFormat } from '../shared/formats';
import { PROBE_KINDS, type ProbeKind } from '../shared/plan';
import type { RunResult } from '../shared/result';
import { ms } from '../shared/units';
import { formatCsv } from './csv';
import { formatMarkdown } from './markdown';
import { markdownTable, type Column } from './markdownTable';
import { placeOf } from './placeName';
import type { ReportOptions } from './reportOptions';
import { tailCell, tooSmallFootnote } from './tailCell';

export function formatAcross(
  format: ExportFormat,
  results: RunResult[],
  options: ReportOptions = {},
): string {
  if (format === 'json') return JSON.stringify(results, null, 2) + '\n';
  if (format === 'csv') {
    const [first, ...rest] = results.map((r) => formatCsv(r).trimEnd().split('\n'));
    return [...(first ?? []), ...rest.flatMap((lines) => lines.slice(1))].join('\n') + '\n';
  }
  return formatMarkdownAcross(results, options);
}

export function formatMarkdownAcross(results: RunResult[], options: ReportOptions = {}): string {
  const lines = ['# Database latency from ' + results.map(placeOf).join(', '), ''];
  lines.push('Milliseconds. Each place ran the same plan; p50 / p95 / p99 per target and kind.', '');
  const rows = [...new Set(results.flatMap((r) => r.targets.map((t) => t.name)))].flatMap((target) =>
    PROBE_KINDS.map((kind) => ({ target, kind })).filter(({ target, kind }) =>
      results.some((r) => r.measurements.some((m) => m.target === target && m.kind === kind)),
    ),
  );
  lines.push(...markdownTable(placeColumns(results), rows));
  lines.push(...tooSmallFootnote(lines));
  lines.push('');
  for (const result of results) {
    lines.push(`# From ${placeOf(result)}`, '', demote(formatMarkdown(result, options)));
  }
  return lines.join('\n');
}

interface TargetKind {
  readonly target: string;
  readonly kind: ProbeKind;
}

/** Target and kind, then p50 / p95 / p99 from each place. */
function placeColumns(results: readonly RunResult[]): Column<TargetKind>[] {
  return [
    { header: 'Target', cell: (row) => row.target },
    { header: 'Kind', cell: (row) => row.kind },
    ...results.map((r): Column<TargetKind> => ({
      header: placeOf(r),
      align: 'right',
      cell: ({ target, kind }) => {
        const m = r.measurements.find((x) => x.target === target && x.kind === kind);
        if (!m) return '';
        if (m.stats.count === 0) return m.failed ? `failed (${m.firstErrors[0]?.class ?? 'error'})` : '-';
        return `${ms(m.stats.p50Us)} / ${ms(m.stats.p95Us)} / ${tailCell(m.stats.count, 'p99Us', m.stats.p99Us, ms)}`;
      },
    })),
  ];
}

/** The per-place report under its own heading: drop its title, push its sections one level down. */
function demote(markdown: string): string {
  return markdown
    .split('\n')
    .filter((line) => !line.startsWith('# '))
    .map((line) => (line.startsWith('#') ? `#${line}` : line))
    .join('\n');
}

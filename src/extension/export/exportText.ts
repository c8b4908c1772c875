/**
 * The text of every export, composed from the report formatters. Markdown gets the mermaid charts
 * placed above the environment footer. Everything passes the run's Redactor once more on the way
 * out: the result is already redacted, but an export is a boundary and boundaries redact.
 */
import { FORMATTERS } from '../../report/formatters';
import { formatMermaidCharts } from '../../report/mermaid';
import type { ReportOptions } from '../../report/reportOptions';
import type { ExportFormat } from '../../shared/formats';
import type { Redactor } from '../../shared/redact';
import type { RunResult } from '../../shared/result';

/**
 * `options`: where the app runs and the projection's RTTs, as the panel reads them, so the export
 * opens with the panel's own verdict lines (the app's RTT first), not a "here"-only subset.
 */
export function exportText(
  result: RunResult,
  format: ExportFormat,
  redactor: Redactor,
  options: ReportOptions = {},
): string {
  const text =
    format === 'markdown' ? markdownWithCharts(result, options) : FORMATTERS[format](result, options);
  return redactor.redact(text);
}

export function markdownWithCharts(result: RunResult, options: ReportOptions = {}): string {
  const markdown = FORMATTERS.markdown(result, options);
  const charts = formatMermaidCharts(result);
  if (!charts) return markdown;
  const section = `## p50 and p95 per target\n\n${charts}\n\n`;
  // The footer is the last horizontal rule; keep it last so the environment closes the document.
  const footerAt = markdown.lastIndexOf('\n---\n');
  if (footerAt === -1) return `${markdown}\n${section}`;
  return `${markdown.slice(0, footerAt + 1)}${section}${markdown.slice(footerAt + 1)}`;
}

export function defaultExportName(result: RunResult, format: ExportFormat): string {
  const stamp = result.startedAt.replace(/\.\d+Z$/, 'Z').replace(/[:]/g, '-');
  const ext = format === 'markdown' ? 'md' : format;
  return `dbprobe-${stamp}.${ext}`;
}

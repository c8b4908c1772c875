/**
 * The text of a run group's exports: the places side by side (the CLI's across-places report), each
 * place's full report with its mermaid charts, and a note for every place that failed or skipped a
 * target. JSON and CSV are the CLI's across-places formats, so both tools write the same files. All of
 * it passes the Redactor on the way out: an export is a boundary.
 */
import { formatAcross, formatMarkdownAcross } from '../../report/across';
import { formatMermaidCharts } from '../../report/mermaid';
import type { ExportFormat } from '../../shared/formats';
import type { Redactor } from '../../shared/redact';
import type { RunResult } from '../../shared/result';
import type { RunGroup } from '../runs/runGroup';

export function groupExportText(
  group: RunGroup,
  results: RunResult[],
  format: ExportFormat,
  redactor: Redactor,
): string {
  const text = format === 'markdown' ? groupMarkdown(group, results) : formatAcross(format, results);
  return redactor.redact(text);
}

export function groupMarkdown(group: RunGroup, results: RunResult[]): string {
  const lines = formatMarkdownAcross(results).split('\n');
  // Each place's section starts with "# From <place>" (in result order) and ends with its footer
  // rule: its charts go just above that rule, as in a single run's export.
  const starts = lines.flatMap((line, i) => (line.startsWith('# From ') ? [i] : []));
  for (let s = starts.length - 1; s >= 0; s--) {
    const result = results[s];
    const start = starts[s];
    if (!result || start === undefined) continue;
    const charts = formatMermaidCharts(result);
    if (!charts) continue;
    const end = starts[s + 1] ?? lines.length;
    const rule = lines.slice(start, end).lastIndexOf('---');
    const at = rule === -1 ? end : start + rule;
    lines.splice(at, 0, '### p50 and p95 per target', '', charts, '');
  }
  const notes = placeNotes(group);
  if (notes.length > 0) {
    // Under the title, where a reader looks first: a missing column needs its reason beside it.
    lines.splice(2, 0, ...notes, '');
  }
  return lines.join('\n');
}

function placeNotes(group: RunGroup): string[] {
  const notes: string[] = [];
  for (const place of group.places) {
    const who = place.runner ? `${place.label} (runner "${place.runner}")` : place.label;
    if (place.error) notes.push(`> **${who}:** ${oneLine(place.error)}`);
    for (const skip of place.skipped)
      notes.push(`> **${who}** skipped ${skip.target}: ${oneLine(skip.reason)}`);
  }
  return notes.flatMap((note, i) => (i === 0 ? [note] : ['>', note]));
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

export function defaultGroupExportName(group: RunGroup, format: ExportFormat): string {
  const stamp = group.startedAt.replace(/\.\d+Z$/, 'Z').replace(/[:]/g, '-');
  const ext = format === 'markdown' ? 'md' : format;
  return `dbprobe-places-${stamp}.${ext}`;
}

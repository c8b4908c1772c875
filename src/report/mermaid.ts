/**
 * Mermaid `xychart-beta` bar charts of p50 and p95 per target, one per probe kind: GitHub and other
 * code hosts render them inside Markdown. xychart has no legend and draws bar series on top of each
 * other, so p95 goes first (the taller back bar) and p50 second (the front bar), and the title says so.
 */
import type { RunResult } from '../shared/result';

export function formatMermaidCharts(result: RunResult): string {
  const blocks: string[] = [];
  // A load run's queries mix every level: its charts (per level) are in the Markdown report itself.
  for (const kind of result.plan.kinds.filter((k) => k !== 'load')) {
    const rows = result.measurements.filter((m) => m.kind === kind && m.stats.count > 0);
    if (rows.length === 0) continue;
    const p50 = rows.map((m) => m.stats.p50Us / 1000);
    const p95 = rows.map((m) => m.stats.p95Us / 1000);
    const top = Math.max(...p95, ...p50);
    blocks.push(
      [
        '```mermaid',
        'xychart-beta',
        `    title "${label(`${capitalise(kind)} query latency: p50 (front) and p95 (back), ms`)}"`,
        `    x-axis [${rows.map((m) => `"${label(m.target)}"`).join(', ')}]`,
        `    y-axis "milliseconds" 0 --> ${niceCeiling(top)}`,
        `    bar [${p95.map(num).join(', ')}]`,
        `    bar [${p50.map(num).join(', ')}]`,
        '```',
      ].join('\n'),
    );
  }
  return blocks.join('\n\n');
}

/** Mermaid strings end at a double quote and break on newlines; the chart is a picture, not data. */
function label(text: string): string {
  return text.replace(/["\r\n]/g, (c) => (c === '"' ? "'" : ' '));
}

function num(ms: number): string {
  return String(Math.round(ms * 1000) / 1000);
}

/** An axis top a little above the tallest bar, on a round number so the ticks read well. */
export function niceCeiling(value: number): number {
  if (!(value > 0)) return 1;
  const padded = value * 1.1;
  const magnitude = 10 ** Math.floor(Math.log10(padded));
  const steps = [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10];
  const step = steps.find((s) => s * magnitude >= padded) ?? 10;
  return Math.round(step * magnitude * 1000) / 1000;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

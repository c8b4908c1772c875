/** CSV: one row per kept sample, for spreadsheets and plotting. */
import type { RunResult } from '../shared/result';

const HEADER = ['run_id', 'target', 'driver', 'transport', 'kind', 'sample', 'at_us', 'latency_us', 'error'];

export function formatCsv(result: RunResult): string {
  const lines = [HEADER.join(',')];
  for (const m of result.measurements) {
    const target = result.targets.find((t) => t.name === m.target);
    m.samples.values.forEach((sample, index) => {
      lines.push(
        [
          result.id,
          m.target,
          target?.driver ?? '',
          target?.transport ?? '',
          m.kind,
          index,
          sample.atUs,
          sample.us ?? '',
          sample.error ?? '',
        ]
          .map((value) => csvField(String(value)))
          .join(','),
      );
    });
  }
  return lines.join('\n') + '\n';
}

function csvField(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

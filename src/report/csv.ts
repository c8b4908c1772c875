/** CSV: one row per kept sample, for spreadsheets and plotting. */
import type { Measurement, RunResult } from '../shared/result';

const HEADER = [
  'run_id',
  'target',
  'driver',
  'transport',
  'kind',
  'sample',
  'at_us',
  'latency_us',
  'error',
  'client_limited',
  // What turned the server certificate checks off for the sample's target (empty when checked): a
  // spreadsheet of figures from an unverified server must not look like any other.
  'tls_not_verified',
];

export function formatCsv(result: RunResult): string {
  const lines = [HEADER.join(',')];
  for (const m of result.measurements) {
    const target = result.targets.find((t) => t.name === m.target);
    const limited = clientLimited(result, m);
    const unverified = target?.tls?.insecure ? (target.tls.insecureBy ?? 'the target sets tls.insecure') : '';
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
          limited,
          unverified,
        ]
          .map((value) => csvField(String(value)))
          .join(','),
      );
    });
  }
  return lines.join('\n') + '\n';
}

/** Beside every sample of a target and kind the client limited, the reason (empty otherwise). */
function clientLimited(result: RunResult, m: Measurement): string {
  const sampled = result.client.limited?.find((l) => l.target === m.target && l.kind === m.kind);
  if (sampled) return `client-limited: ${sampled.note}`;
  const unit = m.load?.model === 'open' ? '/s' : ' connections';
  const levels = (m.load?.levels ?? []).filter((l) => l.clientLimited);
  return levels.map((l) => `at ${l.level}${unit}: ${l.clientLimited}`).join('; ');
}

function csvField(value: string): string {
  return /[",\n\r]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

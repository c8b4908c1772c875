/**
 * Flags of `dbprobe run` that the run would drop without a word: a flag for a kind the run does not
 * probe, two flags that set the same thing, a flag that changes nothing where it stands. Each is a
 * usage error (exit 2) naming both sides, before anything is probed.
 */
import type { LoadFlagValues } from './loadFlags';
import type { ProbeKind } from '../shared/plan';
import { CliError } from './cliError';

export interface RunFlagValues extends LoadFlagValues {
  iterations?: string;
  warmup?: string;
  'cold-samples'?: string;
  runner?: string[];
  here?: boolean;
  raw?: string;
  'app-rtt'?: string;
  otlp?: string;
}

/** Each flag and the kinds it acts on: given without any of them, it would be ignored. */
const FLAG_KINDS: [keyof RunFlagValues, ProbeKind[]][] = [
  ['iterations', ['initial', 'subsequent']],
  ['warmup', ['initial', 'subsequent']],
  ['cold-samples', ['cold']],
  ['duration', ['load', 'schedule']],
  ['rate', ['load', 'schedule']],
  ['concurrency', ['load']],
  ['sweep', ['load']],
  ['max-error-rate', ['load']],
  ['max-latency', ['load']],
  ['queries', ['schedule']],
  ['pooled', ['schedule']],
  // It records requests, which only these kinds issue: any other run would leave an empty file.
  ['raw', ['load', 'schedule']],
  // It projects new-connection and warm-query figures; load and schedule have none to project.
  ['app-rtt', ['initial', 'subsequent']],
  // OpenTelemetry gets one operation per sample; a load or schedule run's requests are not sent.
  ['otlp', ['initial', 'subsequent', 'cold']],
];

export function checkFlagConflicts(values: RunFlagValues, kinds: readonly ProbeKind[]): void {
  for (const [flag, needs] of FLAG_KINDS) {
    const value = values[flag];
    if (value === undefined || value === false) continue;
    if (needs.some((kind) => kinds.includes(kind))) continue;
    const shown = value === true ? `--${flag}` : `--${flag} ${String(value)}`;
    throw new CliError(
      `${shown} applies to the ${needs.length > 2 ? `${needs.slice(0, -1).join(', ')} or ${needs.at(-1)}` : needs.join(' or ')} kind, but --kinds (or the config's kinds) is ${kinds.join(',')}, so it would be ignored: add ${needs[0]} to --kinds, or drop --${flag}`,
    );
  }
  // Closed model: both give the connection counts of the levels, and one would silently win.
  if (values.concurrency !== undefined && values.sweep !== undefined && values.rate === undefined)
    throw new CliError(
      `--concurrency ${values.concurrency} and --sweep ${values.sweep} both set the load levels (connections); give --sweep alone for several levels, or --concurrency alone for one (with --rate, --concurrency is the connections the arrivals share)`,
    );
  if (values.here && (values.runner ?? []).length === 0)
    throw new CliError(
      '--here runs this machine beside the --runner URLs, and no --runner was given: add --runner URL, or drop --here (without --runner the run is on this machine anyway)',
    );
}

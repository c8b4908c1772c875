/**
 * The command-line flags of the `load` and `schedule` kinds, turned into the plan's `load` and
 * `schedule` objects (validated with the rest of the plan, so the same messages apply to
 * dbprobe.json and to flags). The load model is open when --rate is given, closed otherwise.
 */
import { LOAD_LIMITS, PLAN_LIMITS } from '../shared/limits';
import { CliError } from './cliError';

export const LOAD_FLAGS = {
  duration: { type: 'string' },
  rate: { type: 'string' },
  concurrency: { type: 'string' },
  sweep: { type: 'string' },
  queries: { type: 'string' },
  pooled: { type: 'boolean' },
  'max-error-rate': { type: 'string' },
  'max-latency': { type: 'string' },
  threads: { type: 'string' },
} as const;

export const LOAD_USAGE = `       load and schedule (--kinds load / --kinds schedule):
       --duration S        seconds per load level, or of the request schedule
       --rate R            schedule: requests per second (default 10); load: open model at R arrivals/s
       --concurrency C     load: C connections back to back (closed model); with --rate, the connections the arrivals share
       --sweep LIST        load levels one after another: 1,2,4,8 or 1..64 (doubling); connections, or rates with --rate
       --queries K         schedule: consecutive queries per request (default 3); --pooled reuses idle connections
       --max-error-rate P  a load level above this error rate did not keep up (default 1%)
       --max-latency L     ... nor one above this latency: 50ms (p99), or p95:50ms (corrected in the open model)
       --threads N         probing threads the connections or arrivals are spread over (default: one per
                           8 connections or 5,000 queries/s of the heaviest level, at most the cores, 8)`;

export interface LoadFlagValues {
  duration?: string;
  rate?: string;
  concurrency?: string;
  sweep?: string;
  queries?: string;
  pooled?: boolean;
  'max-error-rate'?: string;
  'max-latency'?: string;
  threads?: string;
}

/** Longest flag value read (no regular expression meets more than this). */
const MAX_FLAG_LENGTH = 400;

export function loadOverrides(values: LoadFlagValues): {
  load?: Record<string, unknown>;
  schedule?: Record<string, unknown>;
  threads?: number;
} {
  const load: Record<string, unknown> = {};
  const schedule: Record<string, unknown> = {};
  if (values.duration !== undefined) {
    const seconds = positive(values.duration, '--duration', `${LOAD_LIMITS.durationS} s`);
    load.durationS = seconds;
    schedule.durationS = seconds;
  }
  const rate =
    values.rate === undefined ? undefined : positive(values.rate, '--rate', `${LOAD_LIMITS.rate} per second`);
  const concurrency =
    values.concurrency === undefined
      ? undefined
      : wholeNumber(values.concurrency, '--concurrency', LOAD_LIMITS.connections);
  if (rate !== undefined) {
    schedule.rate = rate;
    load.model = 'open';
    load.levels = [rate];
    if (concurrency !== undefined) load.connections = concurrency;
  } else if (concurrency !== undefined) {
    load.model = 'closed';
    load.levels = [concurrency];
  }
  if (values.sweep !== undefined) load.levels = sweepLevels(values.sweep);
  if (values.queries !== undefined)
    schedule.queries = wholeNumber(values.queries, '--queries', LOAD_LIMITS.queries);
  if (values.pooled) schedule.connection = 'pooled';
  if (values['max-error-rate'] !== undefined) load.maxErrorRate = rateOf(values['max-error-rate']);
  if (values['max-latency'] !== undefined) Object.assign(load, latencyOf(values['max-latency']));
  return {
    ...(Object.keys(load).length > 0 ? { load } : {}),
    ...(Object.keys(schedule).length > 0 ? { schedule } : {}),
    ...(values.threads !== undefined
      ? { threads: wholeNumber(values.threads, '--threads', PLAN_LIMITS.threads) }
      : {}),
  };
}

/**
 * Which flag set each plan field loadOverrides fills, so a value the plan refuses is reported
 * against the flag the user typed, not against dbprobe.json.
 */
export function loadFlagSources(values: LoadFlagValues): Record<string, string> {
  const sources: Record<string, string> = {};
  const set = (flag: string, ...fields: string[]) => {
    for (const field of fields) sources[field] = flag;
  };
  if (values.duration !== undefined) set('--duration', 'load.durationS', 'schedule.durationS');
  if (values.rate !== undefined) set('--rate', 'schedule.rate', 'load.model', 'load.levels');
  if (values.concurrency !== undefined)
    set('--concurrency', values.rate !== undefined ? 'load.connections' : 'load.levels');
  if (values.sweep !== undefined) set('--sweep', 'load.levels');
  if (values.queries !== undefined) set('--queries', 'schedule.queries');
  if (values.pooled) set('--pooled', 'schedule.connection');
  if (values['max-error-rate'] !== undefined) set('--max-error-rate', 'load.maxErrorRate');
  if (values['max-latency'] !== undefined) set('--max-latency', 'load.maxLatencyMs', 'load.latencyStat');
  if (values.threads !== undefined) set('--threads', 'threads');
  return sources;
}

/** `1,2,4,8` or `1..64` (doubling from the first to the last). */
export function sweepLevels(text: string): number[] {
  const value = bounded(text, '--sweep');
  const range = /^(\d+(?:\.\d+)?)\.\.(\d+(?:\.\d+)?)$/.exec(value);
  if (range) {
    const from = Number(range[1]);
    const to = Number(range[2]);
    if (!(from > 0) || to < from)
      throw new CliError(`--sweep ${value}: the range must go up from above 0, e.g. 1..64`);
    const levels: number[] = [];
    for (let level = from; level <= to && levels.length < 50; level *= 2) levels.push(level);
    return levels;
  }
  const parts = value.split(',').map((s) => s.trim());
  if (parts.length === 0 || parts.some((p) => !/^\d+(?:\.\d+)?$/.test(p)))
    throw new CliError(`--sweep must be a list like 1,2,4,8 or a doubling range like 1..64 (got "${value}")`);
  return parts.map(Number);
}

function rateOf(text: string): number {
  const value = bounded(text, '--max-error-rate');
  const match = /^(\d+(?:\.\d+)?)(%?)$/.exec(value);
  if (!match) throw new CliError(`--max-error-rate must be a share like 1% or 0.01 (got "${value}")`);
  const n = Number(match[1]);
  const share = match[2] === '%' ? n / 100 : n;
  // Said in the user's own terms: the plan's check would report the converted share ("got 2").
  if (share > 1)
    throw new CliError(
      `--max-error-rate ${value} is above 100%: a level cannot fail more queries than it sends, so this limit could never trip; give a share from 0% to 100% (or 0 to 1)`,
    );
  return share;
}

function latencyOf(text: string): { maxLatencyMs: number; latencyStat?: string } {
  const value = bounded(text, '--max-latency');
  const match = /^(?:(p50|p90|p95|p99):)?(\d+(?:\.\d+)?)(ms|us|s)?$/.exec(value);
  if (!match) throw new CliError(`--max-latency must be a time like 50ms, 0.2s or p95:50ms (got "${value}")`);
  const n = Number(match[2]);
  const unit = match[3] ?? 'ms';
  const ms = unit === 's' ? n * 1000 : unit === 'us' ? n / 1000 : n;
  // Every latency is at least 1 µs (the clock's resolution): a lower limit trips every level.
  if (ms < 0.001)
    throw new CliError(
      `--max-latency ${value} is below 1 µs, the clock's resolution: every query would exceed it; give a limit of at least 1us`,
    );
  return { maxLatencyMs: ms, latencyStat: match[1] };
}

/** The bounds in the message are the plan's own (src/shared/schema/loadSchema.ts), so flag and config agree. */
function positive(text: string, flag: string, upTo: string): number {
  const value = bounded(text, flag);
  if (!/^\d+(?:\.\d+)?$/.test(value) || !(Number(value) > 0))
    throw new CliError(`${flag} must be a number above 0, up to ${upTo} (got "${value}")`);
  return Number(value);
}

function wholeNumber(text: string, flag: string, max: number): number {
  const value = bounded(text, flag);
  if (!/^\d+$/.test(value) || Number(value) < 1)
    throw new CliError(`${flag} must be a whole number from 1 to ${max} (got "${value}")`);
  return Number(value);
}

function bounded(text: string, flag: string): string {
  if (text.length > MAX_FLAG_LENGTH) throw new CliError(`${flag} is too long (${text.length} characters)`);
  return text.trim();
}

/**
 * A saved run result read back from a file (`dbprobe compare`, `run --baseline`): every field a
 * figure is formed from is checked before any figure is, so a file that is not what it claims
 * (hand-edited, truncated, from another tool) is refused with the field that is wrong, instead of
 * reading as "improved -202%" (negative latencies), "NaN ... no change detected" (text for
 * numbers) or "+6.9e305%" (1e308 µs). The rules are those of schema/run-result.schema.json, plus
 * the histogram's range: no latency this tool records is above an hour.
 */
import { HISTOGRAM_BOUNDS } from '../histogram';
import { isRecord } from '../../shared/guards';
import { ERROR_CLASSES } from '../../shared/errors';
import { PROBE_KINDS } from '../../shared/plan';
import { RESULT_SCHEMA, type RunResult } from '../../shared/result';

/** Samples, measurements and characters past which a file is not a run this tool wrote. */
const MAX_MEASUREMENTS = 100_000;
const MAX_TEXT = 10_000;
/** A sample's start, in µs from the run's start: runs last at most a day (timeouts.runMs). */
const MAX_AT_US = 86_400_000_000;
const MAX_COUNT = 1e12;

/** The stats fields compare and the reports print; each a latency in µs but `count` and `errors`. */
const LATENCY_STATS = ['minUs', 'meanUs', 'p50Us', 'p90Us', 'p95Us', 'p99Us', 'maxUs'] as const;

/** Undefined when `value` is a run result every figure can be formed from; else the first problem. */
export function runResultProblem(value: unknown): string | undefined {
  if (!isRecord(value) || value.schema !== RESULT_SCHEMA)
    return `no "schema": "${RESULT_SCHEMA}" at the top: not a dbprobe run result`;
  if (!isText(value.id)) return 'id: must be text';
  if (!isText(value.startedAt)) return 'startedAt: must be text';
  const location = isRecord(value.environment) ? value.environment.location : undefined;
  if (!isRecord(location) || !isText(location.label)) return 'environment.location.label: must be text';
  if (!Array.isArray(value.measurements)) return 'measurements: must be a list';
  if (value.measurements.length > MAX_MEASUREMENTS)
    return `measurements: ${value.measurements.length} of them, more than a run holds`;
  for (const [index, m] of value.measurements.entries()) {
    const problem = measurementProblem(m);
    if (problem) return `measurements[${index}]${problem}`;
  }
  return undefined;
}

/** The value as a run result, once runResultProblem found nothing. */
export function asRunResult(value: unknown): RunResult | undefined {
  return runResultProblem(value) === undefined ? (value as RunResult) : undefined;
}

function measurementProblem(m: unknown): string | undefined {
  if (!isRecord(m)) return ': must be an object';
  if (!isText(m.target)) return '.target: must be text';
  if (!(PROBE_KINDS as readonly unknown[]).includes(m.kind))
    return `.kind: must be one of ${PROBE_KINDS.join(', ')}`;
  if (!isRecord(m.stats)) return '.stats: must be an object';
  for (const field of ['count', 'errors'] as const)
    if (!isCount(m.stats[field]))
      return `.stats.${field}: must be a whole number from 0 (got ${shown(m.stats[field])})`;
  for (const field of LATENCY_STATS)
    if (m.stats[field] !== undefined && !isLatency(m.stats[field]))
      return `.stats.${field}: ${latencyRule(m.stats[field])}`;
  // Results of earlier versions have no serverTime: absent is fine, a figure that is not one is not.
  if (isRecord(m.serverTime) && m.serverTime.p50Us !== undefined && !isLatency(m.serverTime.p50Us))
    return `.serverTime.p50Us: ${latencyRule(m.serverTime.p50Us)}`;
  const samples = isRecord(m.samples) ? m.samples.values : undefined;
  if (!Array.isArray(samples)) return '.samples.values: must be a list';
  for (const [index, sample] of samples.entries()) {
    const problem = sampleProblem(sample);
    if (problem) return `.samples.values[${index}]${problem}`;
  }
  return undefined;
}

function sampleProblem(sample: unknown): string | undefined {
  if (!isRecord(sample)) return ': must be an object';
  if (typeof sample.atUs !== 'number' || !(sample.atUs >= 0 && sample.atUs <= MAX_AT_US))
    return `.atUs: must be µs from the run's start, 0 to ${MAX_AT_US} (got ${shown(sample.atUs)})`;
  const hasLatency = sample.us !== undefined;
  const hasError = sample.error !== undefined;
  if (hasLatency === hasError)
    return ': must hold a latency ("us") or an error class ("error"), one of the two';
  if (hasError) {
    if (!(ERROR_CLASSES as readonly unknown[]).includes(sample.error))
      return `.error: must be one of ${ERROR_CLASSES.join(', ')} (got ${shown(sample.error)})`;
    // Results of earlier versions kept no time to failure: absent is fine, nonsense is not.
    return sample.failedAfterUs === undefined || isLatency(sample.failedAfterUs)
      ? undefined
      : `.failedAfterUs: ${latencyRule(sample.failedAfterUs)}`;
  }
  if (sample.serverUs !== undefined && !isLatency(sample.serverUs))
    return `.serverUs: ${latencyRule(sample.serverUs)}`;
  return isLatency(sample.us) ? undefined : `.us: ${latencyRule(sample.us)}`;
}

function isLatency(value: unknown): boolean {
  return typeof value === 'number' && value >= 0 && value <= HISTOGRAM_BOUNDS.highestUs;
}

function latencyRule(value: unknown): string {
  return `must be a latency in µs from 0 to ${HISTOGRAM_BOUNDS.highestUs} (an hour; got ${shown(value)})`;
}

function isCount(value: unknown): boolean {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0 && value <= MAX_COUNT;
}

function isText(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_TEXT;
}

/** A value as the message quotes it: short, on one line. */
function shown(value: unknown): string {
  const text = value === undefined ? 'nothing' : JSON.stringify(value);
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

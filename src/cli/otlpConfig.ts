/**
 * Where `dbprobe run` and `dbprobe watch` send OpenTelemetry data, read from `--otlp URL` and the
 * standard OTEL_* variables, as the OTLP exporter specification defines them:
 *
 * - OTEL_EXPORTER_OTLP_ENDPOINT (or `--otlp`, which wins): a base URL, `/v1/metrics` and
 *   `/v1/traces` appended; OTEL_EXPORTER_OTLP_{METRICS,TRACES}_ENDPOINT: one signal's URL, as is;
 * - OTEL_EXPORTER_OTLP_HEADERS and OTEL_EXPORTER_OTLP_{METRICS,TRACES}_HEADERS: `key=value,...`
 *   (values percent-encoded), the signal's own winning; OTEL_EXPORTER_OTLP_TIMEOUT (ms);
 * - OTEL_EXPORTER_OTLP_PROTOCOL and OTEL_EXPORTER_OTLP_{METRICS,TRACES}_PROTOCOL: `http/protobuf`
 *   (the default the specification sets) or `http/json`, the signal's own winning; `grpc` is refused;
 * - OTEL_METRICS_EXPORTER / OTEL_TRACES_EXPORTER `none` turn a signal off; OTEL_SDK_DISABLED=true
 *   turns the variables off (an explicit `--otlp` still sends);
 * - OTEL_SERVICE_NAME and OTEL_RESOURCE_ATTRIBUTES describe the sender (service.name `dbprobe`).
 *
 * Header values and a URL's password are registered with the run's redactor: a receiver's API key
 * never reaches an output, whoever quotes it.
 */
import type { Redactor } from '../shared/redact';
import { CliError } from './cliError';

export type OtlpSignal = 'metrics' | 'traces';

/** The OTLP/HTTP encodings dbprobe sends: protobuf bodies, or JSON ones. */
export type OtlpProtocol = 'http/protobuf' | 'http/json';

export interface OtlpSignalConfig {
  url: string;
  headers: Record<string, string>;
  protocol: OtlpProtocol;
}

export interface OtlpConfig {
  metrics?: OtlpSignalConfig;
  traces?: OtlpSignalConfig;
  /** How long one export may take (OTEL_EXPORTER_OTLP_TIMEOUT; 10 s by default, as the spec says). */
  timeoutMs: number;
  /** The sender's resource: service.name and any OTEL_RESOURCE_ATTRIBUTES. */
  resource: Record<string, string>;
}

export const OTLP_USAGE = `       --otlp     send OpenTelemetry metrics and traces to this OTLP/HTTP receiver (e.g. http://127.0.0.1:4318);
                    also on with OTEL_EXPORTER_OTLP_ENDPOINT (or _METRICS_/_TRACES_ENDPOINT), headers from
                    OTEL_EXPORTER_OTLP_HEADERS; a receiver that is down costs a warning, never the run`;

const DEFAULT_TIMEOUT_MS = 10_000;
/** The specification's default: SDKs send http/protobuf unless told otherwise. */
const DEFAULT_PROTOCOL: OtlpProtocol = 'http/protobuf';
/** A cancelled run still sends what it measured, within this (a cancel ends the CLI in about a second). */
export const OTLP_CANCEL_FLUSH_MS = 1_000;
const PATHS: Record<OtlpSignal, string> = { metrics: 'v1/metrics', traces: 'v1/traces' };

/** The export's settings, or undefined when neither the flag nor the variables ask for one. */
export function otlpConfigOf(
  flag: string | undefined,
  env: NodeJS.ProcessEnv,
  redactor: Redactor,
): OtlpConfig | undefined {
  const fromEnv = env.OTEL_SDK_DISABLED?.trim().toLowerCase() !== 'true';
  const read = (name: string) => (fromEnv ? env[name]?.trim() || undefined : undefined);
  const base =
    flag !== undefined ? checkedUrl(flag, '--otlp', redactor) : read('OTEL_EXPORTER_OTLP_ENDPOINT');
  if (base !== undefined) checkBase(base, flag !== undefined ? '--otlp' : 'OTEL_EXPORTER_OTLP_ENDPOINT');
  const signals: Partial<Record<OtlpSignal, OtlpSignalConfig>> = {};
  for (const signal of ['metrics', 'traces'] as const) {
    const upper = signal.toUpperCase();
    if (env[`OTEL_${upper}_EXPORTER`]?.trim().toLowerCase() === 'none') continue;
    const own = flag === undefined ? read(`OTEL_EXPORTER_OTLP_${upper}_ENDPOINT`) : undefined;
    const url = own
      ? checkedUrl(own, `OTEL_EXPORTER_OTLP_${upper}_ENDPOINT`, redactor)
      : base
        ? withPath(checkedUrl(base, 'OTEL_EXPORTER_OTLP_ENDPOINT', redactor), PATHS[signal])
        : undefined;
    if (!url) continue;
    const headers = {
      ...keyValues(env.OTEL_EXPORTER_OTLP_HEADERS, 'OTEL_EXPORTER_OTLP_HEADERS'),
      ...keyValues(env[`OTEL_EXPORTER_OTLP_${upper}_HEADERS`], `OTEL_EXPORTER_OTLP_${upper}_HEADERS`),
    };
    // Word by word: "Bearer KEY" may be quoted whole or as the key alone.
    for (const value of Object.values(headers))
      for (const word of value.split(/\s+/)) redactor.addSecret(word);
    signals[signal] = { url, headers, protocol: protocolOf(env, upper) };
  }
  if (!signals.metrics && !signals.traces) {
    if (flag !== undefined)
      throw new CliError(
        `--otlp ${flag} is given, and OTEL_METRICS_EXPORTER and OTEL_TRACES_EXPORTER are both "none", so nothing would be sent: unset one of them, or drop --otlp`,
      );
    return undefined;
  }
  return { ...signals, timeoutMs: timeoutOf(env.OTEL_EXPORTER_OTLP_TIMEOUT), resource: resourceOf(env) };
}

/** The signal's OTEL_EXPORTER_OTLP_{SIGNAL}_PROTOCOL, else OTEL_EXPORTER_OTLP_PROTOCOL, else the default. */
function protocolOf(env: NodeJS.ProcessEnv, upper: string): OtlpProtocol {
  for (const name of [`OTEL_EXPORTER_OTLP_${upper}_PROTOCOL`, 'OTEL_EXPORTER_OTLP_PROTOCOL']) {
    const value = env[name]?.trim();
    if (!value) continue;
    if (value === 'http/protobuf' || value === 'http/json') return value;
    throw new CliError(
      `dbprobe sends OpenTelemetry data as OTLP over HTTP, and ${name} asks for "${value}": point the endpoint at the receiver's OTLP/HTTP port (4318 by default) and unset the variable or set it to http/protobuf (the default) or http/json`,
    );
  }
  return DEFAULT_PROTOCOL;
}

/**
 * The base URL gets /v1/metrics and /v1/traces appended: one that already ends with a signal's
 * path would send to /v1/traces/v1/traces, which a receiver answers 404.
 */
function checkBase(base: string, source: string): void {
  // Not a URL at all: checkedUrl says so where the signal's URL is made.
  const pathname = URL.canParse(base) ? new URL(base).pathname : '';
  const signalPath = /\/v1\/(metrics|traces)\/?$/.exec(pathname)?.[0];
  if (signalPath)
    throw new CliError(
      `${source} is the receiver's base URL, to which dbprobe appends /v1/metrics and /v1/traces, and it already ends with ${signalPath}: give the URL without it (e.g. http://127.0.0.1:4318), or one signal's full URL in OTEL_EXPORTER_OTLP_${signalPath.includes('traces') ? 'TRACES' : 'METRICS'}_ENDPOINT`,
    );
}

/** An http(s) URL; its password (if any) becomes a secret of the run. */
function checkedUrl(text: string, source: string, redactor: Redactor): string {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    throw new CliError(
      `${source} must be an http(s) URL such as http://127.0.0.1:4318 (got "${redactor.redact(text)}")`,
    );
  }
  if (url.password) redactor.addSecret(url.password);
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new CliError(
      `${source} must be an http(s) URL: dbprobe sends OTLP over HTTP (got "${redactor.redact(text)}")`,
    );
  return url.toString();
}

function withPath(base: string, signalPath: string): string {
  return base.endsWith('/') ? `${base}${signalPath}` : `${base}/${signalPath}`;
}

/** `key1=value1,key2=value2`, values percent-encoded (the W3C Baggage form the spec uses). */
function keyValues(text: string | undefined, source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (text ?? '').split(',')) {
    if (!pair.trim()) continue;
    const at = pair.indexOf('=');
    const key = at > 0 ? pair.slice(0, at).trim() : '';
    if (!key)
      throw new CliError(`${source} holds an entry without "key=value"; write it as key1=value1,key2=value2`);
    const raw = pair.slice(at + 1).trim();
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // Not percent-encoded after all: the text as written.
    }
    out[key] = value;
  }
  return out;
}

function timeoutOf(text: string | undefined): number {
  if (text === undefined || text.trim() === '') return DEFAULT_TIMEOUT_MS;
  const ms = Number(text);
  if (!Number.isInteger(ms) || ms <= 0 || ms > 600_000)
    throw new CliError(
      `OTEL_EXPORTER_OTLP_TIMEOUT must be a whole number of milliseconds from 1 to 600000 (got "${text}")`,
    );
  return ms;
}

function resourceOf(env: NodeJS.ProcessEnv): Record<string, string> {
  const resource: Record<string, string> = {
    'service.name': 'dbprobe',
    ...keyValues(env.OTEL_RESOURCE_ATTRIBUTES, 'OTEL_RESOURCE_ATTRIBUTES'),
  };
  const name = env.OTEL_SERVICE_NAME?.trim();
  if (name) resource['service.name'] = name;
  return resource;
}

/**
 * Reading back what dbprobe sent to the testbed's OTLP receiver (scripts/testbed/svc-jaeger.sh):
 * traces through Jaeger's query API, metrics by scraping the collector's Prometheus exporter, which
 * keeps the OpenTelemetry names (`translation_strategy: NoTranslation`, UTF-8 exposition).
 */
import { testbedEnv } from './testbed';

export interface JaegerTag {
  key: string;
  type: string;
  value: string | number | boolean;
}

export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references: { refType: string; traceID: string; spanID: string }[];
  /** Microseconds since the Unix epoch. */
  startTime: number;
  /** Microseconds. */
  duration: number;
  tags: JaegerTag[];
  processID: string;
}

export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string; tags: JaegerTag[] }>;
}

/** One sample of the scrape: its metric name, labels and value. */
export interface ScrapedSample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Every trace of a service that Jaeger holds (the service name is unique per test run). */
export async function jaegerTraces(service: string): Promise<JaegerTrace[]> {
  const url = `${testbedEnv('DBPROBE_TEST_JAEGER_QUERY_URL')}/api/traces?service=${encodeURIComponent(service)}&limit=10000&lookback=1h`;
  const response = await fetch(url);
  // An unknown service is a 404 (nothing arrived yet), not a failure of the receiver.
  if (response.status === 404) return [];
  if (!response.ok) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  const body = (await response.json()) as { data: JaegerTrace[] | null };
  return body.data ?? [];
}

/** The raw JSON Jaeger answers for a service: what a leak scan reads. */
export async function jaegerTracesText(service: string): Promise<string> {
  const url = `${testbedEnv('DBPROBE_TEST_JAEGER_QUERY_URL')}/api/traces?service=${encodeURIComponent(service)}&limit=10000&lookback=1h`;
  return (await fetch(url)).text();
}

export function tagOf(span: JaegerSpan, key: string): JaegerTag['value'] | undefined {
  return span.tags.find((t) => t.key === key)?.value;
}

/** The scrape of the received metrics, as text (UTF-8 names kept). */
export async function scrapeText(): Promise<string> {
  const response = await fetch(testbedEnv('DBPROBE_TEST_OTLP_METRICS_SCRAPE_URL'), {
    headers: { accept: 'text/plain;version=1.0.0;escaping=allow-utf-8' },
  });
  if (!response.ok) throw new Error(`the metrics scrape answered ${response.status}`);
  return response.text();
}

/** The samples of one job (the sender's service.name) in the scrape. */
export async function scrapedSamples(job: string): Promise<ScrapedSample[]> {
  return parseExposition(await scrapeText()).filter((s) => s.labels.job === job);
}

/**
 * The Prometheus text format, UTF-8 names included: `name{a="1"} 2` and `{"dotted.name","a.b"="1"} 2`.
 * Comments and blank lines are skipped.
 */
export function parseExposition(text: string): ScrapedSample[] {
  const samples: ScrapedSample[] = [];
  for (const line of text.split('\n')) {
    if (!line.trim() || line.startsWith('#')) continue;
    let at = 0;
    let name = '';
    const labels: Record<string, string> = {};
    const bare = /^[a-zA-Z_:][a-zA-Z0-9_:]*/.exec(line);
    if (bare) {
      name = bare[0];
      at = name.length;
    }
    if (line[at] === '{') {
      at += 1;
      while (at < line.length && line[at] !== '}') {
        const [key, afterKey] = readToken(line, at);
        at = afterKey;
        if (line[at] === '=') {
          const [value, afterValue] = readToken(line, at + 1);
          labels[key] = value;
          at = afterValue;
        } else if (!name) {
          name = key;
        }
        if (line[at] === ',') at += 1;
      }
      at += 1;
    }
    const value = Number(line.slice(at).trim().split(/\s+/)[0]);
    samples.push({ name, labels, value });
  }
  return samples;
}

/** A quoted string (with \\ \" \n escapes) or a bare word, and where it ends. */
function readToken(line: string, start: number): [string, number] {
  if (line[start] !== '"') {
    const word = /^[^=,}]*/.exec(line.slice(start))?.[0] ?? '';
    return [word.trim(), start + word.length];
  }
  let out = '';
  let at = start + 1;
  while (at < line.length && line[at] !== '"') {
    if (line[at] === '\\') {
      const next = line[at + 1];
      out += next === 'n' ? '\n' : (next ?? '');
      at += 2;
    } else {
      out += line[at];
      at += 1;
    }
  }
  return [out, at + 1];
}

/** Polls until `check` returns a value (not undefined) or the time is up; bounded in time. */
export async function waitFor<T>(what: string, ms: number, check: () => Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + ms;
  let last: unknown;
  while (Date.now() < deadline) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error;
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${what}: not seen within ${ms} ms${last ? ` (last error: ${String(last)})` : ''}`);
}

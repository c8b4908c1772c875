/**
 * The runner client, shared by the CLI and the extension: sends a plan, relays streamed events, and
 * returns the result. When the stream breaks before `done` (runner killed, network cut), it returns
 * the partial result rebuilt from the samples that arrived, with the error beside it.
 */
import { ResultBuilder } from '../core/resultBuilder';
import type { ProbeEvent } from '../shared/events';
import { redactPatterns } from '../shared/redact';
import type { RunResult } from '../shared/result';
import {
  isRunnerErrorBody,
  type RunnerHealth,
  type RunRequest,
  type RunStreamLine,
} from '../shared/runnerApi';

export class RunnerClientError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'RunnerClientError';
  }
}

export interface RemoteRunOptions {
  url: string;
  token: string;
  request: RunRequest;
  signal?: AbortSignal;
  onEvent?: (event: ProbeEvent) => void;
  /** Give up when the stream is silent this long (a hung runner or a dead network path). */
  stallMs?: number;
}

export interface RemoteRunOutcome {
  result: RunResult;
  /** Set when the run did not finish on the runner; `result` then holds what arrived. */
  error?: RunnerClientError;
}

export async function fetchRunnerHealth(
  url: string,
  token: string,
  signal?: AbortSignal,
): Promise<RunnerHealth> {
  const response = await call(
    `${trimSlash(url)}/v1/health`,
    { headers: auth(token), ...(signal ? { signal } : {}) },
    url,
  );
  return (await response.json()) as RunnerHealth;
}

export async function runRemote(options: RemoteRunOptions): Promise<RemoteRunOutcome> {
  const { url, token, request, signal, onEvent, stallMs } = options;
  const stalled = new AbortController();
  const stallTimer = stallMs ? setTimeout(() => stalled.abort(), stallMs) : undefined;
  const combined = signal ? AbortSignal.any([signal, stalled.signal]) : stalled.signal;
  const builder = new ResultBuilder();
  let failure: RunnerClientError | undefined;
  let finished = false;
  try {
    const response = await call(
      `${trimSlash(url)}/v1/runs`,
      {
        method: 'POST',
        headers: { ...auth(token), 'content-type': 'application/json' },
        body: JSON.stringify(request),
        signal: combined,
      },
      url,
    );
    for await (const line of ndjsonLines(response, url)) {
      stallTimer?.refresh();
      if (line.type === 'done') finished = true;
      if (line.type === 'fatal') {
        failure = new RunnerClientError(
          `runner ${url} failed: ${line.error.message}`,
          undefined,
          line.error.code,
        );
        break;
      }
      builder.add(line);
      onEvent?.(line);
    }
  } catch (error) {
    if (error instanceof RunnerClientError && !builder.started) throw error;
    failure = new RunnerClientError(
      error instanceof RunnerClientError
        ? error.message
        : signal?.aborted
          ? 'cancelled'
          : stalled.signal.aborted
            ? `runner ${url} sent nothing for ${stallMs} ms; gave up on it and kept what arrived`
            : `the connection to runner ${url} broke before the run finished (${describe(error)}); showing what arrived`,
    );
  } finally {
    clearTimeout(stallTimer);
  }
  if (!finished && !failure)
    failure = new RunnerClientError(`runner ${url} ended the stream before the run finished`);
  const last = builder.build(failure?.message ?? '');
  if (!last) throw failure ?? new RunnerClientError(`runner ${url} answered with no run`);
  return { result: last, ...(failure ? { error: failure } : {}) };
}

async function call(target: string, init: RequestInit, label: string): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(target, init);
  } catch (error) {
    throw new RunnerClientError(
      `cannot reach runner ${label}: ${describe(error)}; check the URL and that the runner is up`,
    );
  }
  if (response.ok) return response;
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  // A proxy's HTML error page spans many lines: the user gets one.
  const message = (isRunnerErrorBody(body) ? body.error.message : text.slice(0, 200) || response.statusText)
    .replace(/\s+/g, ' ')
    .trim();
  const code = isRunnerErrorBody(body) ? body.error.code : undefined;
  const advice =
    response.status >= 500 && !isRunnerErrorBody(body) ? '; check the runner is up and its logs' : '';
  throw new RunnerClientError(
    `runner ${label} answered ${response.status}: ${redactPatterns(message)}${advice}`,
    response.status,
    code,
  );
}

async function* ndjsonLines(response: Response, url: string): AsyncGenerator<RunStreamLine> {
  if (!response.body) return;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let newline: number;
    while ((newline = buffered.indexOf('\n')) !== -1) {
      const line = buffered.slice(0, newline).trim();
      buffered = buffered.slice(newline + 1);
      if (line) yield parseLine(line, url);
    }
  }
  if (buffered.trim()) yield parseLine(buffered, url);
}

/** One NDJSON line; anything else means the URL is not a dbprobe runner (a proxy page, another app). */
function parseLine(line: string, url: string): RunStreamLine {
  try {
    const parsed = JSON.parse(line) as unknown;
    if (parsed && typeof parsed === 'object' && typeof (parsed as { type?: unknown }).type === 'string')
      return parsed as RunStreamLine;
  } catch {
    // Reported below.
  }
  throw new RunnerClientError(
    `runner ${url} answered with something that is not a dbprobe NDJSON stream ("${redactPatterns(line.slice(0, 60).replace(/\s+/g, ' '))}..."); check that --runner points at a dbprobe runner`,
  );
}

function auth(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function describe(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return redactPatterns(
    cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error)),
  );
}

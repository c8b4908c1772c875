/**
 * The runner client, the only code that calls a runner's routes (src/shared/runnerApi.ts): its health,
 * a run, and a run's cancel. A run sends a plan, relays the streamed events, and answers with the result or, when
 * the run does not finish on the runner (killed, cut off, silent, refused), a failure as data beside
 * the partial result rebuilt from the samples that arrived. Messages name the runner by URL and say
 * what to do; they never say how the caller shows the partial result (that is the caller's job).
 * What a runner says is quoted through quoteOutput (bounded, masked, cut), and with the caller's
 * Redactor every event is masked against the caller's secrets too: a runner knows only its own.
 */
import { ResultBuilder } from '../core/resultBuilder';
import type { ProbeEvent } from '../shared/events';
import { isRawRequest, type RawRequest } from '../shared/loadResult';
import { quoteOutput, redactDeep, type Redactor } from '../shared/redact';
import {
  isRunnerErrorBody,
  isRunnerHealth,
  RUNNER_ROUTES,
  type RunnerHealth,
  type RunRequest,
  type RunStreamLine,
} from '../shared/runnerApi';
import type { PlaceFailure, PlaceOutcome } from './outcome';
import { formatSilence, SilenceWatch } from './silence';

/** What fetchRunnerHealth throws when a 200 answer is not a dbprobe health report (a proxy, another app). */
export const NOT_A_RUNNER = 'not_a_runner';

/** Thrown by fetchRunnerHealth, whose callers turn it into a sentence. */
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
  /** Give up when nothing arrives this long, from the request on (see silence.ts for the rule). */
  silenceMs?: number;
  /** The caller's secrets (its token, its environment's): masked in every event and message. */
  redactor?: Redactor;
  /** Every load and schedule request the runner sends (asked for with `request.requests`). */
  onRequest?: (request: RawRequest) => void;
  /** How messages name the runner (its URL unless that holds a secret: Redactor.nameOf). */
  label?: string;
}

/** What the engine says when a run is cancelled: a cut-short remote run reads the same. */
const CANCELLED = 'cancelled by the user';

export async function fetchRunnerHealth(
  url: string,
  token: string,
  signal?: AbortSignal,
  redactor?: Redactor,
): Promise<RunnerHealth> {
  const response = await call(
    `${trimSlash(url)}${RUNNER_ROUTES.health}`,
    { headers: auth(token), signal },
    url,
    redactor,
  );
  if (!(response instanceof Response))
    throw new RunnerClientError(response.message, response.status, response.code);
  // Checked here, once, for every caller: a page that is not JSON and JSON that is not a health
  // report both mean the URL points at something else.
  const body: unknown = await response.json().catch((error: unknown) => {
    if (error instanceof SyntaxError) return undefined;
    throw error;
  });
  if (!isRunnerHealth(body))
    throw new RunnerClientError(
      `runner ${url} answered its health check with something that is not a dbprobe health report; check that the URL points at a dbprobe runner (its health route is GET ${RUNNER_ROUTES.health})`,
      response.status,
      NOT_A_RUNNER,
    );
  return body;
}

/**
 * Asks the runner to stop run `runId` as a Ctrl-C stops a local run: it then ends the run's stream
 * with `done` and the partial result. True when the runner took it; false when it did not (this
 * instance does not run it, the runner is gone, `signal` ended the wait): then hang up instead.
 */
export async function cancelRemoteRun(
  url: string,
  token: string,
  runId: string,
  signal: AbortSignal,
): Promise<boolean> {
  try {
    const response = await fetch(`${trimSlash(url)}${RUNNER_ROUTES.cancel(runId)}`, {
      method: 'POST',
      headers: auth(token),
      signal,
    });
    // Its body says nothing the status does not: released, not read.
    await response.body?.cancel().catch(() => undefined);
    return response.ok;
  } catch {
    return false;
  }
}

/** Never rejects: every way a remote run can go wrong is a failed outcome. */
export async function runRemote(options: RemoteRunOptions): Promise<PlaceOutcome> {
  const { url, token, request, signal, onEvent, silenceMs, redactor } = options;
  const name = options.label ?? url;
  const silence = silenceMs ? new SilenceWatch(silenceMs) : undefined;
  const stops = [signal, silence?.signal].filter((s): s is AbortSignal => s !== undefined);
  const builder = new ResultBuilder();
  let failure: PlaceFailure | undefined;
  let finished = false;
  try {
    const response = await call(
      `${trimSlash(url)}${RUNNER_ROUTES.runs}`,
      {
        method: 'POST',
        headers: { ...auth(token), 'content-type': 'application/json' },
        body: JSON.stringify(request),
        ...(stops.length > 0 ? { signal: AbortSignal.any(stops) } : {}),
      },
      name,
      redactor,
    );
    if (response instanceof Response) {
      for await (const raw of ndjsonLines(response, name)) {
        const line = redactor ? redactDeep(raw, redactor) : raw;
        silence?.heard();
        if (line.type === 'done') finished = true;
        if (line.type === 'requests') {
          for (const r of Array.isArray(line.requests) ? line.requests : [])
            if (isRawRequest(r)) options.onRequest?.(r);
          continue;
        }
        if (line.type === 'fatal') {
          failure = {
            class: 'failed',
            message: `runner ${name} failed: ${quoteOutput(line.error.message, {}, redactor)}`,
            code: line.error.code,
          };
          break;
        }
        builder.add(line);
        onEvent?.(line);
      }
    } else {
      failure = response;
    }
  } catch (error) {
    // After `done` the result is whole: a connection that breaks while closing changes nothing.
    if (error instanceof NotAnEventStream) failure = { class: 'failed', message: error.message };
    else if (!finished)
      failure = {
        class: 'cut',
        message: `the connection to runner ${name} broke before the run finished (${describe(error, redactor)})`,
      };
  } finally {
    silence?.stop();
  }
  // An abort surfaces as whatever the fetch or the stream threw: what caused it is known here.
  if (!finished && signal?.aborted) {
    failure = {
      class: 'cancelled',
      message: builder.started ? CANCELLED : `cancelled before runner ${name} answered`,
    };
  } else if (!finished && silence?.fired) {
    failure = {
      class: 'silent',
      message: `runner ${name} sent nothing for ${formatSilence(silence.ms)}, so the run was given up on; check that the runner is up and reachable from here`,
    };
  } else if (!finished && !failure) {
    failure = { class: 'cut', message: `runner ${name} ended the stream before the run finished` };
  }
  const result = builder.build(failure?.message ?? '');
  if (!failure && result) return { ok: true, result };
  return {
    ok: false,
    failure: failure ?? { class: 'failed', message: `runner ${name} answered with no run` },
    partial: result,
  };
}

/** The response when it is OK; otherwise why not, as a failure. Rejects only if fetch itself does. */
async function call(
  target: string,
  init: RequestInit,
  label: string,
  redactor: Redactor | undefined,
): Promise<Response | PlaceFailure> {
  let response: Response;
  try {
    response = await fetch(target, init);
  } catch (error) {
    return {
      class: 'unreachable',
      message: `cannot reach runner ${label}: ${describe(error, redactor)}; check the URL and that the runner is up`,
    };
  }
  if (response.ok) return response;
  const text = (await response.text()).slice(0, MAX_ERROR_BODY_CHARS);
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  // A proxy's HTML error page spans many lines: the user gets one, bounded and masked.
  const message = quoteOutput(
    isRunnerErrorBody(body) ? body.error.message : text || response.statusText,
    { maxChars: 200 },
    redactor,
  );
  const code = isRunnerErrorBody(body) ? body.error.code : undefined;
  const advice =
    response.status >= 500 && !isRunnerErrorBody(body) ? '; check the runner is up and its logs' : '';
  return {
    class: 'refused',
    message: `runner ${label} answered ${response.status}: ${message}${advice}`,
    status: response.status,
    code,
  };
}

/** An error body is read this far at most (a proxy's page can be large). */
const MAX_ERROR_BODY_CHARS = 64_000;

/** A 200 whose body is not a dbprobe event stream: the URL points at something else. */
class NotAnEventStream extends Error {}

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
  throw new NotAnEventStream(
    `runner ${url} answered with something that is not a dbprobe NDJSON stream ("${quoteOutput(line, { maxChars: 60 })}"); check that --runner points at a dbprobe runner`,
  );
}

function auth(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, '');
}

function describe(error: unknown, redactor: Redactor | undefined): string {
  const cause = (error as { cause?: { code?: string; message?: string } })?.cause;
  return quoteOutput(
    cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error)),
    { maxChars: 200 },
    redactor,
  );
}

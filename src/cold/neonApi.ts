/**
 * The few calls of Neon's API the cold kind needs: read an endpoint's state, suspend it, poll until
 * it is idle. Every request carries the key as a Bearer token and is bounded by its own timeout
 * (answer and body alike), besides the caller's budget; either one that runs out names the API and
 * the request it was waiting for. 429 and 5xx are retried a bounded number of times (honouring
 * Retry-After); 401 and 404 fail at once with what to do.
 */
import type { ColdWait } from '../core/cold';
import { waitFor } from '../core/coldWait';
import { ProbeError } from '../core/failure';
import { expiredWait, TimeoutSignal } from '../core/timeoutSignal';
import { quoteOutput } from '../shared/redact';

export const NEON_API_URL = 'https://console.neon.tech/api/v2';

export interface NeonApiOptions {
  apiKey: string;
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Retries of one request after 429 or 5xx. */
  maxRetries?: number;
  /** A Retry-After longer than this is cut to it (the whole wait is bounded by the caller's signal). */
  maxRetryAfterMs?: number;
  requestTimeoutMs?: number;
}

export interface NeonEndpointState {
  id: string;
  /** `active`, `idle` or `init` (starting). */
  currentState: string;
  pendingState?: string;
}

export interface NeonIds {
  projectId: string;
  endpointId: string;
}

const MAX_BODY_CHARS = 64_000;

export class NeonApi {
  private readonly baseUrl: string;
  private readonly fetchImpl: typeof fetch;
  private readonly maxRetries: number;
  private readonly maxRetryAfterMs: number;
  private readonly requestTimeoutMs: number;

  constructor(private readonly options: NeonApiOptions) {
    this.baseUrl = (options.baseUrl ?? NEON_API_URL).replace(/\/+$/, '');
    this.fetchImpl = options.fetch ?? fetch;
    this.maxRetries = options.maxRetries ?? 4;
    this.maxRetryAfterMs = options.maxRetryAfterMs ?? 30_000;
    this.requestTimeoutMs = options.requestTimeoutMs ?? 15_000;
  }

  async getEndpoint(
    ids: NeonIds,
    signal: AbortSignal,
    onWait?: (wait: ColdWait) => void,
  ): Promise<NeonEndpointState> {
    return endpointOf(await this.request('GET', endpointPath(ids), ids, signal, onWait));
  }

  async suspendEndpoint(ids: NeonIds, signal: AbortSignal, onWait?: (wait: ColdWait) => void): Promise<void> {
    await this.request('POST', `${endpointPath(ids)}/suspend`, ids, signal, onWait);
  }

  /** Suspends the endpoint (unless already idle) and polls until Neon reports it idle. */
  async suspendAndWait(
    ids: NeonIds,
    signal: AbortSignal,
    onWait: (wait: ColdWait) => void,
    pollMs = 500,
  ): Promise<void> {
    const started = performance.now();
    const waited = () => Math.round(performance.now() - started);
    let state = await this.getEndpoint(ids, signal, onWait);
    if (state.currentState !== 'idle') {
      onWait({ step: 'suspend', message: `suspending Neon endpoint ${ids.endpointId}`, waitedMs: waited() });
      await this.suspendEndpoint(ids, signal, onWait);
      state = await this.getEndpoint(ids, signal, onWait);
    }
    while (state.currentState !== 'idle') {
      onWait({
        step: 'poll',
        message: `waiting for Neon endpoint ${ids.endpointId} to be idle (now ${state.currentState})`,
        waitedMs: waited(),
      });
      // Bounded by the caller's signal, which carries cold.suspendTimeoutMs.
      try {
        await waitFor(pollMs, signal);
      } catch (error) {
        if (!expiredWait(signal)) throw error;
        throw new ProbeError(
          'timeout',
          `Neon endpoint ${ids.endpointId} was still ${state.currentState} after ${waited()} ms (the Neon API at ${this.baseUrl} reports its state)`,
        );
      }
      state = await this.getEndpoint(ids, signal, onWait);
    }
  }

  private async request(
    method: 'GET' | 'POST',
    path: string,
    ids: NeonIds,
    signal: AbortSignal,
    onWait?: (wait: ColdWait) => void,
  ): Promise<unknown> {
    for (let attempt = 0; ; attempt++) {
      const response = await this.send(method, path, signal);
      const text = response.text;
      if (response.ok) return parseJson(text);
      const retryable = response.status === 429 || response.status >= 500;
      if (!retryable || attempt >= this.maxRetries) throw failureOf(response.status, text, ids, attempt);
      const delayMs = this.retryDelay(response.retryAfter, attempt);
      onWait?.({
        step: 'poll',
        message: `Neon API answered ${response.status}; retrying in ${Math.round(delayMs)} ms (${attempt + 1}/${this.maxRetries})`,
        waitedMs: 0,
        totalMs: delayMs,
      });
      await waitFor(delayMs, signal);
    }
  }

  /** One request and its whole answer, under the request timeout and the caller's signal. */
  private async send(
    method: string,
    path: string,
    signal: AbortSignal,
  ): Promise<{ ok: boolean; status: number; text: string; retryAfter: string | null }> {
    const bound = new TimeoutSignal(this.requestTimeoutMs, signal);
    try {
      const response = await this.fetchImpl(`${this.baseUrl}${path}`, {
        method,
        headers: {
          Authorization: `Bearer ${this.options.apiKey}`,
          Accept: 'application/json',
          ...(method === 'POST' ? { 'Content-Type': 'application/json' } : {}),
        },
        ...(method === 'POST' ? { body: '{}' } : {}),
        signal: bound.signal,
      });
      // The body is read under the same bound: an API can send its headers and then stall.
      const text = (await response.text()).slice(0, MAX_BODY_CHARS);
      return {
        ok: response.ok,
        status: response.status,
        text,
        retryAfter: response.headers.get('retry-after'),
      };
    } catch (error) {
      const waitedFor = `${method} ${path}`;
      if (bound.timedOut)
        throw new ProbeError(
          'timeout',
          `the Neon API at ${this.baseUrl} did not answer ${waitedFor} within ${this.requestTimeoutMs} ms; check the network, or cold.neon.apiUrl`,
        );
      if (expiredWait(signal))
        throw new ProbeError(
          'timeout',
          `the Neon API at ${this.baseUrl} had not answered ${waitedFor}; check the network, or cold.neon.apiUrl`,
        );
      if (signal.aborted) throw new ProbeError('cancelled', 'Neon API request cancelled');
      const reason =
        error instanceof Error
          ? error.cause instanceof Error
            ? error.cause.message
            : error.message
          : String(error);
      throw new ProbeError(
        'refused',
        `could not reach the Neon API at ${this.baseUrl} (${quoteOutput(reason, { maxChars: 200 })}); check the network, or cold.neon.apiUrl`,
      );
    } finally {
      bound.dispose();
    }
  }

  /** Retry-After in seconds or as an HTTP date; otherwise exponential backoff from 500 ms. */
  private retryDelay(header: string | null, attempt: number): number {
    const fallback = 500 * 2 ** attempt;
    if (!header || header.length > 64) return Math.min(fallback, this.maxRetryAfterMs);
    const trimmed = header.trim();
    const seconds = /^\d{1,6}(\.\d{1,3})?$/.test(trimmed) ? Number(trimmed) * 1000 : undefined;
    const date = seconds === undefined ? Date.parse(trimmed) - Date.now() : undefined;
    const ms = seconds ?? (date !== undefined && Number.isFinite(date) ? Math.max(0, date) : fallback);
    return Math.min(ms, this.maxRetryAfterMs);
  }
}

function endpointPath(ids: NeonIds): string {
  return `/projects/${encodeURIComponent(ids.projectId)}/endpoints/${encodeURIComponent(ids.endpointId)}`;
}

function parseJson(text: string): unknown {
  try {
    return text ? JSON.parse(text) : {};
  } catch {
    throw new ProbeError(
      'unknown',
      'the Neon API answered with something that is not JSON; check cold.neon.apiUrl',
    );
  }
}

function endpointOf(body: unknown): NeonEndpointState {
  const endpoint = (body as { endpoint?: Record<string, unknown> } | undefined)?.endpoint;
  const state = endpoint?.current_state;
  if (!endpoint || typeof state !== 'string')
    throw new ProbeError(
      'unknown',
      'the Neon API answer has no endpoint.current_state; check cold.neon.apiUrl',
    );
  return {
    id: typeof endpoint.id === 'string' ? endpoint.id : '',
    currentState: state,
    ...(typeof endpoint.pending_state === 'string' ? { pendingState: endpoint.pending_state } : {}),
  };
}

function failureOf(status: number, text: string, ids: NeonIds, retries: number): ProbeError {
  let said = '';
  try {
    const message = (JSON.parse(text) as { message?: unknown }).message;
    if (typeof message === 'string') said = `: ${quoteOutput(message, { maxChars: 200 })}`;
  } catch {
    // Not JSON: the status says enough.
  }
  if (status === 401 || status === 403)
    return new ProbeError(
      'auth',
      `the Neon API refused the API key (${status}${said}); create a key in the Neon console (Account settings > API keys) and set it where cold.neon.apiKey points (NEON_API_KEY by default)`,
    );
  if (status === 404)
    return new ProbeError(
      'config',
      `the Neon API knows no endpoint ${ids.endpointId} in project ${ids.projectId} (404${said}); check cold.neon.projectId and cold.neon.endpointId (console: Settings and Computes)`,
    );
  if (status === 429)
    return new ProbeError(
      'timeout',
      `the Neon API kept rate-limiting the requests (429 after ${retries} retries${said}); wait a minute, or raise cold.pauseMs`,
    );
  return new ProbeError(
    'unknown',
    `the Neon API answered ${status}${said} after ${retries} retries; try again later`,
  );
}

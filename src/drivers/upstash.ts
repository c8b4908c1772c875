/**
 * Upstash Redis over its REST API, with fetch (undici): each sample POSTs the command as a JSON array
 * (`["GET","key"]`) to the database URL with `Authorization: Bearer TOKEN`; the answer is
 * `{"result": ...}` (200) or `{"error": "..."}` (400 command error, 401 bad token).
 *
 * Connection string (the token stays a secret because it lives in it):
 * - `https://default:TOKEN@eu1-name-12345.upstash.io` (any user name; TOKEN is the password), or
 * - `https://eu1-name-12345.upstash.io?token=TOKEN` (`_token=` is accepted too, as Upstash's docs use).
 * The token is only ever sent in the Authorization header, never in the request URL.
 *
 * Workload: a Redis command line, `PING` (default), `GET key`, `SET key "a value"`.
 *
 * Reuse: each connection owns an HttpSession (own undici Agent and socket): `initial` pays
 * DNS+TCP+TLS every sample, `subsequent` reuses the kept-alive socket.
 */
import type { Driver, DriverConnection } from '../core/driver';
import type { ErrorClass } from '../shared/errors';
import { quoteOutput } from '../shared/redact';
import { catalogInfo } from './catalog';
import { openHttpSession } from './httpSession';
import { classifyHttpStatus, HttpStatusError } from './httpStatus';
import { classifyRedisReply } from './databaseErrors';

const TOKEN_PARAMS = ['token', '_token'];

export interface UpstashEndpoint {
  /** The URL commands are posted to: no credentials, no token parameter. */
  url: string;
  token: string;
}

export function upstashEndpoint(connection: string): UpstashEndpoint {
  const parsed = new URL(connection);
  let token = parsed.password ? decodeURIComponent(parsed.password) : '';
  for (const name of TOKEN_PARAMS) {
    const value = parsed.searchParams.get(name);
    if (value) token ||= value;
    parsed.searchParams.delete(name);
  }
  if (!token) {
    throw new Error(
      'the Upstash connection string has no token: use https://default:TOKEN@host or https://host?token=TOKEN',
    );
  }
  parsed.username = '';
  parsed.password = '';
  return { url: parsed.toString(), token };
}

/** Splits a command line into words; double or single quotes keep spaces inside one argument. */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  const pattern = /"((?:[^"\\]|\\.)*)"|'([^']*)'|(\S+)/g;
  for (const match of line.matchAll(pattern)) {
    words.push(match[1] !== undefined ? match[1].replace(/\\(.)/g, '$1') : (match[2] ?? match[3] ?? ''));
  }
  if (words.length === 0)
    throw new Error('the Redis workload is empty; use a command such as PING or GET key');
  return words;
}

/** An error the REST API answered in its own shape: `{"error": "..."}` with the HTTP status. */
export class UpstashError extends HttpStatusError {
  override name = 'UpstashError';
}

export const upstashDriver: Driver = {
  info: catalogInfo('upstash'),
  async connect({ url, signal, timeoutMs, tls, http, phases }): Promise<DriverConnection> {
    const endpoint = upstashEndpoint(url);
    const session = await openHttpSession({
      origin: endpoint.url,
      timeoutMs,
      signal,
      ...(tls ? { tls } : {}),
      ...(http ? { http } : {}),
      phases,
    });
    const headers = { Authorization: `Bearer ${endpoint.token}`, 'Content-Type': 'application/json' };
    return {
      async query(workload) {
        const response = await session.fetch(endpoint.url, {
          method: 'POST',
          headers,
          body: JSON.stringify(splitCommand(workload)),
        });
        const text = await response.text();
        let body: { result?: unknown; error?: unknown } | undefined;
        try {
          body = JSON.parse(text) as typeof body;
        } catch {
          body = undefined;
        }
        if (response.ok && body && 'result' in body) return;
        const reason =
          typeof body?.error === 'string'
            ? body.error
            : quoteOutput(text, { maxChars: 200 }) || response.statusText;
        throw new UpstashError(
          response.status,
          `Upstash REST API answered HTTP ${response.status}: ${reason}`,
        );
      },
      close: () => session.close(),
      destroy: () => session.destroy(),
    };
  },
  classify(error: unknown): ErrorClass | undefined {
    if (!(error instanceof UpstashError)) return classifyRedisReply(error);
    // A 400 is a rejected command ("ERR unknown command"), a 401 a bad or missing token.
    return classifyHttpStatus(error.status) ?? classifyRedisReply(error);
  },
};

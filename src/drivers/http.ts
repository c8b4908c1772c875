/**
 * Any HTTP data API over fetch (undici): Supabase REST (PostgREST), TrailBase and PocketBase record
 * APIs, a health endpoint. A sample is one request whose whole body has been read.
 *
 * Connection string: `https://NAME:SECRET@host/base/path`. SECRET goes in the header NAME
 * (`apikey:KEY@` sends `apikey: KEY`, `authorization:TOKEN@` sends `Authorization: TOKEN`); the name
 * `bearer` sends `Authorization: Bearer SECRET`. Without a user:password part no credential is sent.
 * The credentials never appear in the request URL; query parameters of the base URL are kept.
 *
 * Workload: `METHOD /path?query [BODY]`, the path relative to the base path, e.g.
 * `GET /todos?select=id&limit=1` against `https://apikey:KEY@ref.supabase.co/rest/v1`. Default `GET /`.
 *
 * Options: `headers` (name -> value; a value may use `{secret}` for the URL's SECRET, e.g.
 * `{"Authorization": "Bearer {secret}"}`: the secret itself never goes in settings);
 * `expectStatus` (a status or a list; default any 2xx).
 *
 * Reuse: each connection owns an HttpSession (own undici Agent and socket): `initial` pays
 * DNS+TCP+TLS every sample, `subsequent` reuses the kept-alive socket.
 */
import type { Driver, DriverConnection } from '../core/driver';
import type { ErrorClass } from '../shared/errors';
import { catalogInfo } from './catalog';
import { serverTimingDatabaseMs } from './serverTimingHeader';
import { openHttpSession } from './httpSession';
import { classifyHttpStatus, HttpStatusError } from './httpStatus';
import { quoteOutput } from '../shared/redact';

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

export interface HttpTarget {
  base: URL;
  headers: Record<string, string>;
  expect: (status: number) => boolean;
  expectText: string;
}

export interface HttpRequestLine {
  method: string;
  url: string;
  body?: string;
}

/** Reads the connection string and options into the base URL (no credentials) and the headers. */
export function httpTarget(connection: string, options: Record<string, unknown>): HttpTarget {
  const base = new URL(connection);
  const name = decodeURIComponent(base.username);
  const secret = decodeURIComponent(base.password);
  base.username = '';
  base.password = '';
  const headers: Record<string, string> = {};
  if (secret) {
    if (!name) throw new Error('the http connection string has a secret but no user name to name its header');
    if (/^bearer$/i.test(name)) headers.Authorization = `Bearer ${secret}`;
    else headers[name] = secret;
  }
  const extra = options.headers;
  if (extra !== undefined) {
    if (!extra || typeof extra !== 'object' || Array.isArray(extra)) {
      throw new Error('http option headers must be an object of header name -> value');
    }
    for (const [header, value] of Object.entries(extra)) {
      if (typeof value !== 'string') throw new Error(`http option headers.${header} must be a string`);
      if (value.includes('{secret}') && !secret) {
        throw new Error(
          `http option headers.${header} uses {secret} but the connection string has no password`,
        );
      }
      headers[header] = value.split('{secret}').join(secret);
    }
  }
  const wanted = options.expectStatus;
  const list = wanted === undefined ? undefined : Array.isArray(wanted) ? wanted : [wanted];
  if (list && !list.every((s) => Number.isInteger(s) && (s as number) >= 100 && (s as number) <= 599)) {
    throw new Error('http option expectStatus must be an HTTP status or a list of them');
  }
  return {
    base,
    headers,
    expect: list ? (status) => list.includes(status) : (status) => status >= 200 && status < 300,
    expectText: list ? list.join(' or ') : '2xx',
  };
}

/** `METHOD /path?query [BODY]` -> the request, resolved against the base URL (same origin only). */
export function parseHttpWorkload(workload: string, base: URL): HttpRequestLine {
  const match = /^\s*(?:([A-Za-z]+)\s+)?(\S+)?\s*([\s\S]*)$/.exec(workload);
  const method = (match?.[1] ?? 'GET').toUpperCase();
  const target = match?.[2] ?? '/';
  const body = match?.[3]?.trim() ?? '';
  if (!METHODS.includes(method)) {
    throw new HttpWorkloadError(
      `unknown HTTP method "${method}" in the workload; use one of ${METHODS.join(', ')}`,
    );
  }
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('//')) {
    throw new HttpWorkloadError(
      'the http workload takes a path relative to the connection URL, not a full URL',
    );
  }
  const relative = new URL(target.startsWith('/') ? target : `/${target}`, 'http://placeholder');
  const url = new URL(base.toString());
  url.pathname = `${base.pathname.replace(/\/+$/, '')}${relative.pathname}`;
  for (const [key, value] of relative.searchParams) url.searchParams.append(key, value);
  return { method, url: url.toString(), ...(body ? { body } : {}) };
}

export class HttpWorkloadError extends Error {
  override name = 'HttpWorkloadError';
}

/** Google's front end answers a bad API key with 400 (reason API_KEY_INVALID): a credential problem. */
class ApiKeyRejectedError extends HttpStatusError {
  override name = 'ApiKeyRejectedError';
}

export const httpDriver: Driver = {
  info: catalogInfo('http'),
  serverTime: {
    per: 'sample',
    source: 'server-timing',
    absent:
      'no answer carried a Server-Timing `transaction`, `db` or `database` metric (PostgREST 12+ sends `transaction`)',
  },
  async connect({ url, signal, timeoutMs, options, tls, http, phases }): Promise<DriverConnection> {
    const target = httpTarget(url, options);
    const session = await openHttpSession({
      origin: target.base.origin,
      timeoutMs,
      signal,
      ...(tls ? { tls } : {}),
      ...(http ? { http } : {}),
      phases,
    });
    const parsed = new Map<string, HttpRequestLine>();
    return {
      async query(workload) {
        let request = parsed.get(workload);
        if (!request) parsed.set(workload, (request = parseHttpWorkload(workload, target.base)));
        const headers: Record<string, string> = { ...target.headers };
        if (request.body && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type')) {
          headers['Content-Type'] = /^[[{]/.test(request.body) ? 'application/json' : 'text/plain';
        }
        const response = await session.fetch(request.url, {
          method: request.method,
          headers,
          ...(request.body ? { body: request.body } : {}),
        });
        if (!target.expect(response.status)) {
          // The reason is read from the body itself, not from its excerpt: the excerpt is cut to 200
          // characters at a word, and Google's reason field comes after its message.
          const body = (await response.text().catch(() => '')).slice(0, 16_384);
          const excerpt = quoteOutput(body, { maxChars: 200 });
          if (response.status === 400 && body.includes('API_KEY_INVALID'))
            throw new ApiKeyRejectedError(
              400,
              `the API key was refused (HTTP 400 API_KEY_INVALID from ${request.method} ${new URL(request.url).pathname}); check the key in the connection string and the API restrictions set on it`,
            );
          throw new HttpStatusError(
            response.status,
            `HTTP ${response.status} ${response.statusText} from ${request.method} ${new URL(request.url).pathname} (expected ${target.expectText})${excerpt ? `: ${excerpt}` : ''}`,
          );
        }
        // The sample ends when the whole answer has arrived; its headers go on to serverTimeOf.
        await response.arrayBuffer();
        return response.headers;
      },
      serverTimeOf(answer) {
        const ms = serverTimingDatabaseMs((answer as Headers | undefined)?.get?.('server-timing'));
        return ms === undefined ? undefined : ms * 1000;
      },
      close: () => session.close(),
      destroy: () => session.destroy(),
    };
  },
  classify(error: unknown): ErrorClass | undefined {
    if (error instanceof HttpWorkloadError) return 'query';
    if (error instanceof ApiKeyRejectedError) return 'auth';
    if (error instanceof HttpStatusError) return classifyHttpStatus(error.status);
    return undefined;
  },
};

/**
 * PlanetScale's serverless driver (@planetscale/database) over HTTP: one POST per query to
 * `/psdb.v1alpha1.Database/Execute`, with the user and password as Basic auth.
 *
 * Reuse: each connection owns an HttpSession (own undici Agent, own socket) handed to the client as
 * its `fetch`; `initial` pays DNS+TCP+TLS every sample, `subsequent` reuses the kept-alive socket and
 * the server session the driver carries from one query to the next.
 *
 * URL: `mysql://user:PASSWORD@host/db` or `https://user:PASSWORD@host` go over https:;
 * `http://` (e.g. ps-http-sim on this machine) stays plain.
 */
import type * as PlanetScale from '@planetscale/database';
import type { Driver, DriverConnection } from '../core/driver';
import type { ErrorClass } from '../shared/errors';
import { catalogInfo } from './catalog';
import { openHttpSession } from './httpSession';
import { classifyHttpStatus } from './httpStatus';
import { classifyMysqlError } from './databaseErrors';
import { DriverPackage } from './packageSource';

const psPackage = new DriverPackage<typeof PlanetScale>(
  '@planetscale/database',
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundled copy (the build inlines it)
  () => require('@planetscale/database'),
);

/** The HTTP origin the client will post to (same rule as the client: only http: stays plain). */
export function planetscaleOrigin(url: string): string {
  const parsed = new URL(url);
  return `${parsed.protocol === 'http:' ? 'http:' : 'https:'}//${parsed.host}`;
}

/** The Basic credentials the client sends: base64 of the URL's user:password, as it encodes them. */
function basicCredentials(url: string): string {
  const parsed = new URL(url);
  return Buffer.from(`${parsed.username}:${parsed.password}`).toString('base64');
}

/**
 * A server may echo the Authorization header in its error; base64 of user:password gives the password
 * away as surely as the password itself, and the run's redactor only knows the plain forms.
 */
function scrubBasic(error: unknown, basic: string): unknown {
  if (error instanceof Error) {
    error.message = error.message
      .split(basic)
      .join('****')
      .replace(/\bBasic\s+[A-Za-z0-9+/=]{8,}/g, 'Basic ****');
  }
  return error;
}

/**
 * An error answer without a message (`{"error": {}}`, `{"error": {"code": "x"}}`) leaves the client's
 * DatabaseError with none, which read as "unknown: unknown": say what the server did answer.
 */
export function describeEmptyAnswer(error: unknown): unknown {
  if (
    !(error instanceof psPackage.module.DatabaseError) ||
    (typeof error.message === 'string' && error.message.trim() !== '')
  )
    return error;
  const body = (error as { body?: { code?: unknown } }).body;
  const code =
    typeof body?.code === 'string' && body.code.trim() !== '' ? ` with code "${body.code.slice(0, 80)}"` : '';
  // The client reports an error inside an HTTP 200 answer as status 400, so 400 names either.
  const answered =
    error.status === 400
      ? `answered with an error${code} and no message (HTTP 200 or 400: its client reports both as 400)`
      : `answered HTTP ${error.status ?? '?'} with an error${code} and no message`;
  error.message = `the PlanetScale API ${answered}: the endpoint may not be a PlanetScale database API, or it failed without saying why`;
  (error as { emptyAnswer?: true }).emptyAnswer = true;
  return error;
}

/**
 * The server's `timing` (seconds), which the client returns as `time` in ms. The client reads an
 * absent `timing` as 0, and no query takes exactly 0 s, so 0 means the server did not say.
 */
export function planetscaleServerUs(answer: unknown): number | undefined {
  const time = (answer as { time?: unknown } | undefined)?.time;
  return typeof time === 'number' && Number.isFinite(time) && time > 0 ? time * 1000 : undefined;
}

export const planetscaleDriver: Driver = {
  info: catalogInfo('planetscale'),
  packages: [psPackage],
  serverTime: {
    per: 'sample',
    source: 'planetscale-timing',
    absent: 'the server sent no `timing` in its answers (the client reads an absent one as 0)',
  },
  async connect({ url, signal, timeoutMs, tls, http, phases }): Promise<DriverConnection> {
    const session = await openHttpSession({
      origin: planetscaleOrigin(url),
      timeoutMs,
      signal,
      ...(tls ? { tls } : {}),
      ...(http ? { http } : {}),
      phases,
    });
    const conn = psPackage.module.connect({ url, fetch: session.fetch });
    const basic = basicCredentials(url);
    return {
      // The answer goes on to serverTimeOf (its `time` is the server's `timing`).
      query: (workload) =>
        conn
          .execute(workload)
          .catch((error: unknown) => Promise.reject(describeEmptyAnswer(scrubBasic(error, basic)))),
      serverTimeOf: planetscaleServerUs,
      close: () => session.close(),
      destroy: () => session.destroy(),
      client: conn,
    };
  },
  classify(error: unknown): ErrorClass | undefined {
    if (!(error instanceof psPackage.module.DatabaseError)) return classifyMysqlError(error);
    // Vitess/MySQL errors carry the MySQL text (e.g. "Access denied ... (errno 1045)").
    if (/access denied|errno 1045|unauthenticated|invalid (user|password)/i.test(error.message))
      return 'auth';
    if (/--read-only option|read-only transaction|command denied to user/i.test(error.message))
      return 'permission';
    // An error with no message says nothing of the query: its status alone would read as "rejected".
    if ((error as { emptyAnswer?: true }).emptyAnswer) return 'unknown';
    return classifyHttpStatus(error.status ?? 0);
  },
};

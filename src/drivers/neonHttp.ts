/**
 * Neon's serverless driver over HTTP (`neon()`): every query is one POST of SQL to the endpoint.
 *
 * Reuse: each connection owns an HttpSession (its own undici Agent and socket). `initial` opens a new
 * TCP(+TLS) connection per sample; `subsequent` sends every query over the one kept-alive socket.
 * Neon's `fetchEndpoint`/`fetchFunction` settings are process-wide, so this driver installs one
 * router as `neonConfig.fetchFunction` and passes each target's endpoint and session with the call
 * (through `fetchOptions`); calls without that route behave exactly as before.
 *
 * Options: `fetchEndpoint` (full URL of the SQL endpoint; default Neon's `https://api.<region host>/sql`).
 * Plain `http:` endpoints are accepted only on loopback hosts: the connection string travels in a header.
 */
import type * as Neon from '@neondatabase/serverless';
import type { NeonDbError } from '@neondatabase/serverless';
import type { Driver, DriverConnection } from '../core/driver';
import { classifyError, ProbeError } from '../core/failure';
import type { ErrorClass } from '../shared/errors';
import { catalogInfo } from './catalog';
import { openHttpSession, type FetchLike } from './httpSession';
import { classifyHttpStatus, isLoopbackHost } from './httpStatus';
import { classifyPostgresError } from './databaseErrors';
import { DriverPackage } from './packageSource';

const neonPackage = new DriverPackage<typeof Neon>(
  '@neondatabase/serverless',
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundled copy (the build inlines it)
  () => require('@neondatabase/serverless'),
);

const ROUTE = Symbol.for('dbprobe.neon-http.route');

interface Route {
  endpoint: string;
  fetch: FetchLike;
}

type RoutedInit = RequestInit & { [ROUTE]?: Route };

/** Installs (once) the fetch router that sends routed calls to their own endpoint and session. */
function installRouter(): void {
  const { neonConfig } = neonPackage.module;
  const current = neonConfig.fetchFunction as (FetchLike & { [ROUTE]?: true }) | undefined;
  if (current?.[ROUTE]) return;
  const fallback: FetchLike = current ?? ((input, init) => fetch(input, init));
  const router = (input: string | URL | Request, init?: RoutedInit): Promise<Response> => {
    const route = init?.[ROUTE];
    if (!route) return fallback(input, init);
    const { [ROUTE]: _route, ...rest } = init;
    return route.fetch(route.endpoint, rest);
  };
  neonConfig.fetchFunction = Object.assign(router, { [ROUTE]: true as const });
}

/** The SQL endpoint a connection string talks to: the option, or Neon's own default. */
export function neonHttpEndpoint(url: string, option: unknown): string {
  if (option !== undefined) {
    if (typeof option !== 'string') throw new Error('neon-http option fetchEndpoint must be a URL string');
    const endpoint = new URL(option);
    if (endpoint.protocol === 'http:' && !isLoopbackHost(endpoint.hostname)) {
      throw new ProbeError(
        'config',
        `neon-http option fetchEndpoint uses plain http: to ${endpoint.hostname}; the connection string travels in a header, so use https: (plain http is allowed only on loopback)`,
      );
    }
    if (endpoint.protocol !== 'http:' && endpoint.protocol !== 'https:') {
      throw new Error('neon-http option fetchEndpoint must be an https: URL');
    }
    return endpoint.toString();
  }
  // Same rule as @neondatabase/serverless: ep-x.region.aws.neon.tech -> https://api.region.aws.neon.tech/sql
  const host = new URL(url).hostname.replace(/^[^.]+\./, 'api.');
  return `https://${host}/sql`;
}

export const neonHttpDriver: Driver = {
  info: catalogInfo('neon-http'),
  packages: [neonPackage],
  async connect({ url, signal, timeoutMs, options, tls, http, phases }): Promise<DriverConnection> {
    installRouter();
    const endpoint = neonHttpEndpoint(url, options.fetchEndpoint);
    // The session honours the signal itself: an abort drops the half-open socket.
    const session = await openHttpSession({
      origin: endpoint,
      timeoutMs,
      signal,
      ...(tls ? { tls } : {}),
      ...(http ? { http } : {}),
      phases,
    });
    const route: Route = { endpoint, fetch: session.fetch };
    const sql = neonPackage.module.neon(url, { fetchOptions: { [ROUTE]: route } });
    return {
      query: (workload) => sql.query(workload).then(() => undefined),
      close: () => session.close(),
      destroy: () => session.destroy(),
      client: sql,
    };
  },
  classify: classifyNeonError,
};

/** NeonDbError keeps the network failure in `sourceError` and the HTTP status only in its text. */
export function classifyNeonError(error: unknown): ErrorClass | undefined {
  const neonError = error as Partial<NeonDbError> & { sourceError?: unknown };
  if (neonError?.name !== 'NeonDbError') return classifyPostgresError(error);
  if (neonError.sourceError !== undefined) return classifyError(neonError.sourceError, classifyPostgresError);
  // A query the database rejected carries its SQLSTATE in `code`, like pg's errors.
  const fromCode = classifyPostgresError(error);
  if (fromCode) return fromCode;
  const status = /HTTP status (\d{3})/.exec(neonError.message ?? '')?.[1];
  return status ? classifyHttpStatus(Number(status)) : undefined;
}

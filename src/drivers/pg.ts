/** node-postgres over TCP. */
import { Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type * as Pg from 'pg';
import type { Client } from 'pg';
import type { ConnectOptions, Driver, DriverConnection, RowStream } from '../core/driver';
import { hasTlsTrust, nodeTlsTrust } from './tlsOptions';
import { catalogInfo } from './catalog';
import { pgServerTimeRun } from './pgServerTime';
import { closeWithin, connectAbortable } from './abort';
import { classifyPostgresError } from './databaseErrors';
import { DriverPackage } from './packageSource';

const pgPackage = new DriverPackage<typeof Pg>(
  'pg',
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundled copy (the build inlines it)
  () => require('pg'),
);

interface ClientInternals {
  ssl?: unknown;
  connection?: {
    stream?: { destroy(): void };
    ssl?: unknown;
    once(event: 'sslconnect', listener: () => void): unknown;
  };
}

/**
 * Adds the target's trust to the TLS options pg derived from the connection string (sslmode,
 * sslrootcert...). pg lets the string's `ssl` win over the config object's, so the options are merged
 * into the client it built; a string without TLS stays without TLS.
 */
function applyTrust(client: Client, tls: ConnectOptions['tls']): void {
  if (!hasTlsTrust(tls)) return;
  const internals = client as unknown as ClientInternals;
  const ssl = internals.connection?.ssl;
  if (!ssl || !internals.connection) return;
  const merged = { ...(typeof ssl === 'object' ? ssl : {}), ...nodeTlsTrust(tls) };
  internals.connection.ssl = merged;
  internals.ssl = merged;
}

function destroyClient(client: Client): void {
  (client as unknown as ClientInternals).connection?.stream?.destroy();
}

/**
 * pg (pg-connection-string 2.x) treats sslmode prefer, require and verify-ca as verify-full, and says
 * so with a multi-line process warning on every run that names one (every Neon and Supabase string):
 * a library's notice about its next major version, not about this run. Naming verify-full, what pg
 * does with them anyway, changes nothing on the wire and keeps the notice off the user's terminal.
 * A string that asks for libpq's semantics (uselibpqcompat=true) is left alone.
 */
export function explicitSslMode(url: string): string {
  if (/[?&]uselibpqcompat=/i.test(url)) return url;
  return url.replace(/([?&]sslmode=)(?:prefer|require|verify-ca)(?=&|#|$)/i, '$1verify-full');
}

/**
 * The setting that leaves pg's certificate checks off for `url`, read as pg reads it (its own
 * parser, PGSSLMODE included when the string sets no TLS): `sslmode=no-verify`, or libpq's modes
 * under `uselibpqcompat=true` (prefer and require check nothing, verify-ca no host name).
 */
export function pgUncheckedTls(url: string): string | undefined {
  let ssl: unknown;
  try {
    const client = new pgPackage.module.Client({ connectionString: explicitSslMode(url) });
    ssl = (client as unknown as { connectionParameters?: { ssl?: unknown } }).connectionParameters?.ssl;
  } catch {
    // libpq's verify-ca checks no host name, whatever pg then says of the string (it wants an
    // sslrootcert): named here, so beside tls.caFile it meets the documented refusal, not pg's words.
    if (/[?&]uselibpqcompat=true/i.test(url) && /[?&]sslmode=verify-ca(?=&|#|$)/i.test(url))
      return `${pgSslSetting(url)} (no host name check)`;
    // A string pg cannot read (a missing sslrootcert file): the connect reports it with its class.
    return undefined;
  }
  if (typeof ssl !== 'object' || ssl === null) return undefined;
  const { rejectUnauthorized, checkServerIdentity } = ssl as {
    rejectUnauthorized?: unknown;
    checkServerIdentity?: unknown;
  };
  const unchecked =
    rejectUnauthorized === false
      ? 'no certificate check'
      : typeof checkServerIdentity === 'function'
        ? 'no host name check'
        : undefined;
  return unchecked && `${pgSslSetting(url)} (${unchecked})`;
}

/** Names the parameters pg read its TLS from, as the user wrote them (never their other values). */
function pgSslSetting(url: string): string {
  let params: URLSearchParams;
  try {
    params = new URL(url).searchParams;
  } catch {
    return "the connection string's TLS settings";
  }
  const last = (name: string) => params.getAll(name).at(-1);
  const mode = last('sslmode');
  if (mode !== undefined && last('uselibpqcompat') === 'true')
    return `the connection string's sslmode=${mode} with uselibpqcompat=true`;
  if (mode !== undefined) return `the connection string's sslmode=${mode}`;
  const fromEnvironment = process.env.PGSSLMODE;
  return fromEnvironment
    ? `PGSSLMODE=${fromEnvironment} in the environment (pg reads it when the connection string sets no sslmode)`
    : "the connection string's TLS settings";
}

export const pgDriver: Driver = {
  info: catalogInfo('pg'),
  packages: [pgPackage],
  uncheckedTls: pgUncheckedTls,
  async connect({ url, signal, timeoutMs, phases, tls }): Promise<DriverConnection> {
    const client = new pgPackage.module.Client({
      connectionString: explicitSslMode(url),
      connectionTimeoutMillis: timeoutMs,
      // pg's own stream would be `new Socket()` too, which Node does not publish: make it here and
      // hand it over, so the sample's DNS and TCP times come from it.
      stream: () => {
        const socket = new Socket();
        phases?.socket(socket);
        return socket;
      },
    });
    applyTrust(client, tls);
    const connection = (client as unknown as ClientInternals).connection;
    if (phases && connection) {
      // TLS in PostgreSQL is an upgrade: pg sends SSLRequest on the plain socket, the server answers
      // 'S', then pg calls tls.connect() over that socket and emits 'sslconnect' as soon as it
      // returns (the ClientHello is on its way). The TLS step runs from there to secureConnect; the
      // SSLRequest round trip before it stays in the handshake step, as the protocol's own exchange.
      connection.once('sslconnect', () => {
        const secure = connection.stream as unknown as TLSSocket | undefined;
        if (secure) phases.tlsSocket(secure);
      });
    }
    // Socket errors after connect surface through the next query; an unhandled 'error' would crash.
    client.on('error', () => undefined);
    await connectAbortable(
      signal,
      () => client.connect(),
      () => destroyClient(client),
    );
    return {
      // pg's own promise: a `.then` here would put one more microtask inside the timed region.
      query: (workload) => client.query(workload),
      close: () =>
        closeWithin(
          () => client.end(),
          () => destroyClient(client),
        ),
      destroy: () => destroyClient(client),
      client,
      serverTimeRun: (workload) => pgServerTimeRun(client, workload),
      rows: pgRowStream(client),
    };
  },
  classify: classifyPostgresError,
  serverTime: { per: 'run', sources: ['pg_stat_statements', 'explain-analyze'] },
  firstArrival: 'row',
};

/**
 * pg's own query path with a listener on its first 'row', which pg emits as each DataRow is parsed:
 * the Query pg would build for `client.query(text)`, with the same callback-made promise, so the
 * rows are kept and the answer resolves as the ordinary path's does. pg emits 'row' for every row
 * whatever listens; a `once` listener is called for the first alone.
 */
function pgRowStream(client: Client): RowStream {
  return {
    count: pgRowCount,
    query: (workload, watch) =>
      new Promise<unknown>((resolve, reject) => {
        const query = new pgPackage.module.Query(workload, undefined, (error, result) =>
          error ? reject(error) : resolve(result),
        );
        query.once('row', () => watch.firstRow());
        client.query(query);
      }),
  };
}

/** Rows of a pg answer: its result's, or the last statement's of a multi-statement one. */
function pgRowCount(answer: unknown): number | undefined {
  const last = Array.isArray(answer) ? answer.at(-1) : answer;
  const rows = (last as { rows?: unknown } | undefined)?.rows;
  return Array.isArray(rows) ? rows.length : undefined;
}

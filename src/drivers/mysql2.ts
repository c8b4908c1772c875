/** mysql2 over TCP (callback API: the connection object exists before the handshake, so it can be aborted). */
import { connect as netConnect, type Socket } from 'node:net';
import type { TLSSocket } from 'node:tls';
import type * as Mysql2 from 'mysql2';
import type { Connection } from 'mysql2';
import type { ConnectTls, Driver, DriverConnection, RowStream } from '../core/driver';
import type { PhaseReporter } from '../core/socketPhases';
import { nodeTlsTrust } from './tlsOptions';
import { catalogInfo } from './catalog';
import { closeWithin, connectAbortable, driverConnectTimeoutMs } from './abort';
import { classifyMysqlError } from './databaseErrors';
import { mysqlServerTimeRun } from './mysqlServerTime';
import { DriverPackage } from './packageSource';

const mysql2Package = new DriverPackage<typeof Mysql2>(
  'mysql2',
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundled copy (the build inlines it)
  () => require('mysql2'),
);

/**
 * The `ssl` options of a connection: `mysqls:` or an `ssl={...}` parameter asks for TLS (certificate
 * checks stay on, Node's defaults), and the target's trust is added to them. mysql2 checks the
 * server's host name only with `verifyIdentity` (its default leaves it off: any certificate a
 * trusted CA issued, for any name, would pass), so it is on unless the string turns it off.
 * Undefined leaves the URL's own `ssl` (such as a profile name) to mysql2.
 */
export function mysqlSsl(url: string, tls: ConnectTls | undefined): Record<string, unknown> | undefined {
  let ssl: Record<string, unknown> | undefined = /^mysqls:/i.test(url) ? {} : undefined;
  const param = new URL(url.replace(/^mysqls:/i, 'mysql:')).searchParams.get('ssl');
  if (param !== null) {
    try {
      const parsed: unknown = JSON.parse(param);
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
        ssl = { ...(parsed as Record<string, unknown>) };
    } catch {
      // A profile name ("Amazon RDS"): mysql2 reads it from the URL itself.
    }
  }
  // A new object every connection: mysql2 caches TLS sessions per `ssl` object (tls_session_cache.js),
  // so a fresh one keeps every `initial` sample on a full handshake, as a new process would pay.
  return ssl && { verifyIdentity: true, ...ssl, ...nodeTlsTrust(tls) };
}

/** The `ssl={...}` field that leaves certificate checks off for `url`, when one does. */
export function mysqlUncheckedTls(url: string): string | undefined {
  let ssl: Record<string, unknown> | undefined;
  try {
    ssl = mysqlSsl(url, undefined);
  } catch {
    return undefined;
  }
  if (ssl?.rejectUnauthorized === false)
    return `the connection string's ssl={"rejectUnauthorized":false} (no certificate check)`;
  if (ssl?.verifyIdentity === false)
    return `the connection string's ssl={"verifyIdentity":false} (no host name check)`;
  return undefined;
}

interface MysqlStreamOptions {
  config: {
    host?: string;
    port?: number;
    socketPath?: string;
    enableKeepAlive?: boolean;
    keepAliveInitialDelay?: number;
  };
}

interface ConnectionInternals {
  stream?: Socket | TLSSocket;
  startTLS?: (onSecure: (error?: Error) => void) => void;
}

/** The socket mysql2 would open (net.connect, no delay, its keep-alive), handed to the sample before it connects. */
function reportedStream(phases: PhaseReporter | undefined) {
  return ({ config }: MysqlStreamOptions): Socket => {
    const socket =
      config.socketPath !== undefined
        ? netConnect(config.socketPath)
        : netConnect(config.port ?? 3306, config.host ?? 'localhost');
    socket.setNoDelay(true);
    if (config.enableKeepAlive)
      socket.once('connect', () => socket.setKeepAlive(true, config.keepAliveInitialDelay));
    phases?.socket(socket);
    return socket;
  };
}

/**
 * MySQL's TLS is an upgrade too: after the server's greeting the client sends an SSL request and at
 * once calls tls.connect() over the same socket (startTLS), which sets the TLS socket as the
 * connection's stream before it returns. The TLS step runs from that return (the ClientHello is on
 * its way) to secureConnect, as for pg.
 */
function watchStartTls(conn: Connection, phases: PhaseReporter): void {
  const internals = conn as unknown as ConnectionInternals;
  const startTLS = internals.startTLS;
  if (typeof startTLS !== 'function') return;
  internals.startTLS = function (this: ConnectionInternals, onSecure) {
    startTLS.call(this, onSecure);
    const secure = this.stream;
    if (secure && (secure as { encrypted?: unknown }).encrypted === true)
      phases.tlsSocket(secure as TLSSocket);
  };
}

export const mysql2Driver: Driver = {
  info: catalogInfo('mysql2'),
  packages: [mysql2Package],
  uncheckedTls: mysqlUncheckedTls,
  async connect({ url, signal, timeoutMs, tls, phases }): Promise<DriverConnection> {
    const uri = url.replace(/^mysqls:/i, 'mysql:');
    const ssl = mysqlSsl(url, tls);
    const conn: Connection = mysql2Package.module.createConnection({
      uri,
      connectTimeout: driverConnectTimeoutMs(timeoutMs),
      stream: reportedStream(phases),
      ...(ssl ? { ssl } : {}),
    });
    if (phases) watchStartTls(conn, phases);
    conn.on('error', () => undefined);
    await connectAbortable(
      signal,
      () =>
        new Promise<void>((resolve, reject) => conn.connect((error) => (error ? reject(error) : resolve()))),
      () => destroySocket(conn),
    );
    return {
      query: (workload) =>
        new Promise<unknown>((resolve, reject) =>
          conn.query(workload, (error, rows) => (error ? reject(error) : resolve(rows))),
        ),
      close: () =>
        closeWithin(
          () => new Promise<void>((resolve) => conn.end(() => resolve())),
          () => destroySocket(conn),
        ),
      destroy: () => destroySocket(conn),
      client: conn,
      serverTimeRun: (workload) => mysqlServerTimeRun(conn, workload),
      rows: mysqlRowStream(conn),
    };
  },
  classify: classifyMysqlError,
  serverTime: { per: 'run', sources: ['performance_schema'] },
  firstArrival: 'row',
};

/** The state of mysql2's query command that parses each row packet (and the closing EOF). */
type RowState = (this: unknown, packet: unknown, connection: unknown) => unknown;

/**
 * mysql2's own query path, with the first row packet stamped. Its 'result' event per row is only
 * emitted when no callback is given, and then no rows are kept: a different path. So the command's
 * row state is wrapped on this query alone: after the column definitions mysql2 moves to `this.row`
 * (an instance lookup), and the row state moves on to the prototype's own, so only the first row
 * passes through the wrapper and later rows cost nothing. The answer is the callback's rows, as in
 * query().
 */
function mysqlRowStream(conn: Connection): RowStream {
  return {
    count: (answer) => (Array.isArray(answer) ? mysqlRowCount(answer) : undefined),
    query: (workload, watch) =>
      new Promise<unknown>((resolve, reject) => {
        const command = conn.query(workload, (error, rows) =>
          error ? reject(error) : resolve(rows),
        ) as unknown as {
          row?: RowState;
        };
        const row = command.row;
        if (typeof row !== 'function') return;
        command.row = function firstRow(packet, connection) {
          watch.firstRow();
          return row.call(this, packet, connection);
        };
      }),
  };
}

/** Rows of a mysql2 answer: a result set's, or the last set's of a multi-statement answer. */
function mysqlRowCount(rows: unknown[]): number {
  const last = rows.at(-1);
  return Array.isArray(last) ? last.length : rows.length;
}

/**
 * mysql2's destroy() only ends the stream, which waits for a connect that may never complete (a host
 * that drops SYNs): the half-open socket then keeps the process alive for minutes. Destroy it too.
 */
function destroySocket(conn: Connection): void {
  conn.destroy();
  (conn as unknown as { stream?: { destroy?: () => void } }).stream?.destroy?.();
}

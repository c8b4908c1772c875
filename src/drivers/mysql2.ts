/** mysql2 over TCP (callback API: the connection object exists before the handshake, so it can be aborted). */
import { createConnection, type Connection } from 'mysql2';
import type { ConnectTls, Driver, DriverConnection } from '../core/driver';
import { nodeTlsTrust } from './tlsTrust';
import { catalogInfo } from './catalog';
import { closeWithin, connectAbortable } from './abort';
import { classifyMysqlError } from './databaseErrors';

/**
 * The `ssl` options of a connection: `mysqls:` or an `ssl={...}` parameter asks for TLS (certificate
 * checks stay on, Node's defaults), and the target's trust is added to them. Undefined leaves the
 * URL's own `ssl` (such as a profile name) to mysql2.
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
  return ssl && { ...ssl, ...nodeTlsTrust(tls) };
}

export const mysql2Driver: Driver = {
  info: catalogInfo('mysql2'),
  async connect({ url, signal, timeoutMs, tls }): Promise<DriverConnection> {
    const uri = url.replace(/^mysqls:/i, 'mysql:');
    const ssl = mysqlSsl(url, tls);
    const conn: Connection = createConnection({
      uri,
      connectTimeout: timeoutMs,
      ...(ssl ? { ssl } : {}),
    });
    conn.on('error', () => undefined);
    await connectAbortable(
      signal,
      () =>
        new Promise<void>((resolve, reject) => conn.connect((error) => (error ? reject(error) : resolve()))),
      () => destroySocket(conn),
    );
    return {
      query: (workload) =>
        new Promise<void>((resolve, reject) =>
          conn.query(workload, (error) => (error ? reject(error) : resolve())),
        ),
      close: () =>
        closeWithin(
          () => new Promise<void>((resolve) => conn.end(() => resolve())),
          () => destroySocket(conn),
        ),
      destroy: () => destroySocket(conn),
    };
  },
  classify: classifyMysqlError,
};

/**
 * mysql2's destroy() only ends the stream, which waits for a connect that may never complete (a host
 * that drops SYNs): the half-open socket then keeps the process alive for minutes. Destroy it too.
 */
function destroySocket(conn: Connection): void {
  conn.destroy();
  (conn as unknown as { stream?: { destroy?: () => void } }).stream?.destroy?.();
}

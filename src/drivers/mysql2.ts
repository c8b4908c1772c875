/** mysql2 over TCP (callback API: the connection object exists before the handshake, so it can be aborted). */
import { createConnection, type Connection } from 'mysql2';
import type { Driver, DriverConnection } from '../core/driver';
import { catalogInfo } from './catalog';
import { closeWithin, connectAbortable } from './abort';
import { classifyMysqlError } from './databaseErrors';

export const mysql2Driver: Driver = {
  info: catalogInfo('mysql2'),
  async connect({ url, signal, timeoutMs }): Promise<DriverConnection> {
    // mysqls: asks for TLS; certificate checks stay on (Node's defaults).
    const tls = /^mysqls:/i.test(url);
    const conn: Connection = createConnection({
      uri: url.replace(/^mysqls:/i, 'mysql:'),
      connectTimeout: timeoutMs,
      ...(tls ? { ssl: {} } : {}),
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

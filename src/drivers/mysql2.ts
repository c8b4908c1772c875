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
      () => conn.destroy(),
    );
    return {
      query: (workload) =>
        new Promise<void>((resolve, reject) =>
          conn.query(workload, (error) => (error ? reject(error) : resolve())),
        ),
      close: () =>
        closeWithin(
          () => new Promise<void>((resolve) => conn.end(() => resolve())),
          () => conn.destroy(),
        ),
      destroy: () => conn.destroy(),
    };
  },
  classify: classifyMysqlError,
};

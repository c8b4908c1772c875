/** node-postgres over TCP. */
import type { Socket } from 'node:net';
import { Client } from 'pg';
import type { Driver, DriverConnection } from '../core/driver';
import { catalogInfo } from './catalog';
import { closeWithin, connectAbortable } from './abort';
import { classifyPostgresError } from './databaseErrors';

interface ClientInternals {
  connection?: { stream?: { destroy(): void } };
}

function destroyClient(client: Client): void {
  (client as unknown as ClientInternals).connection?.stream?.destroy();
}

export const pgDriver: Driver = {
  info: catalogInfo('pg'),
  async connect({ url, signal, timeoutMs, onSocket }): Promise<DriverConnection> {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
    // pg makes its socket with `new Socket()`, which Node does not publish: hand it over for DNS/TCP times.
    const stream = (client as unknown as ClientInternals).connection?.stream;
    if (stream && onSocket) onSocket(stream as Socket);
    // Socket errors after connect surface through the next query; an unhandled 'error' would crash.
    client.on('error', () => undefined);
    await connectAbortable(
      signal,
      () => client.connect(),
      () => destroyClient(client),
    );
    return {
      query: (workload) => client.query(workload).then(() => undefined),
      close: () =>
        closeWithin(
          () => client.end(),
          () => destroyClient(client),
        ),
      destroy: () => destroyClient(client),
    };
  },
  classify: classifyPostgresError,
};

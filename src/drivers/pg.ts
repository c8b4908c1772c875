/** node-postgres over TCP. */
import type { Socket } from 'node:net';
import { Client } from 'pg';
import type { ConnectOptions, Driver, DriverConnection } from '../core/driver';
import { hasTlsTrust, nodeTlsTrust } from './tlsTrust';
import { catalogInfo } from './catalog';
import { closeWithin, connectAbortable } from './abort';
import { classifyPostgresError } from './databaseErrors';

interface ClientInternals {
  ssl?: unknown;
  connection?: { stream?: { destroy(): void }; ssl?: unknown };
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

export const pgDriver: Driver = {
  info: catalogInfo('pg'),
  async connect({ url, signal, timeoutMs, onSocket, tls }): Promise<DriverConnection> {
    const client = new Client({ connectionString: url, connectionTimeoutMillis: timeoutMs });
    applyTrust(client, tls);
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

/** @libsql/client: Turso/libSQL over HTTP (Hrana pipeline) or WebSocket, or an embedded SQLite file. */
import { createClient } from '@libsql/client';
import type { Driver, DriverConnection, Transport } from '../core/driver';
import { DRIVER_CATALOG } from './catalog';
import { connectAbortable } from './abort';

export function libsqlTransport(url: string): Transport {
  const scheme = /^([a-z]+):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'file') return 'file';
  if (scheme === 'ws' || scheme === 'wss') return 'ws';
  // @libsql/client maps libsql: to https: in Node.
  return 'http';
}

export const libsqlDriver: Driver = {
  info: DRIVER_CATALOG.find((d) => d.id === 'libsql')!,
  transportFor: libsqlTransport,
  async connect({ url, signal }): Promise<DriverConnection> {
    const client = createClient({ url });
    // HTTP clients connect lazily; the first execute() pays the setup, which is what `initial` measures.
    await connectAbortable(
      signal,
      async () => undefined,
      () => client.close(),
    );
    return {
      query: (workload) => client.execute(workload).then(() => undefined),
      close: async () => client.close(),
      destroy: () => client.close(),
    };
  },
};

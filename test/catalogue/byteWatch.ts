/**
 * A TCP pass-through on 127.0.0.1:0 that counts the bytes the server sent, so a test can strike when
 * a connection has carried real traffic (a handshake and some answers), not after a guessed delay.
 */
import { createConnection, createServer, type AddressInfo } from 'node:net';

export interface ByteWatch {
  port: number;
  /** Resolves once the server has sent at least `bytes` in total. */
  after(bytes: number): Promise<void>;
  /** Bytes the server has sent so far, over every connection. */
  sent(): number;
  close(): Promise<void>;
}

export async function startByteWatch(upstreamHost: string, upstreamPort: number): Promise<ByteWatch> {
  let total = 0;
  const waiters: { bytes: number; resolve: () => void }[] = [];
  const server = createServer((client) => {
    const upstream = createConnection({ host: upstreamHost, port: upstreamPort });
    const end = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    upstream.on('data', (chunk: Buffer) => {
      total += chunk.length;
      for (const w of waiters.filter((x) => total >= x.bytes)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    });
    client.pipe(upstream);
    upstream.pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    sent: () => total,
    after: (bytes) =>
      total >= bytes ? Promise.resolve() : new Promise<void>((resolve) => waiters.push({ bytes, resolve })),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // Connections end with the client; close() waits for them only as long as they live.
        server.unref();
        resolve();
      }),
  };
}

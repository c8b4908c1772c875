/**
 * A TCP pass-through on 127.0.0.1:0 that counts the bytes each way, as the server side sees them:
 * the ground truth a sample's own byte counts are checked against (toxiproxy counts none).
 */
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';
import { pipeSockets } from '../fixtures/pipeSockets';

export interface ByteCounts {
  /** Client -> server bytes, over every connection so far. */
  sent: number;
  /** Of `sent`, the chunks `isGoodbye` picked out: what a client says while closing, after its sample. */
  goodbye: number;
  /** Of `received`, what the server sent on a connection after its goodbye (the reply to it). */
  goodbyeReply: number;
  /** Server -> client bytes. */
  received: number;
  accepted: number;
  open: number;
}

export interface ByteCountingProxy {
  port: number;
  counts(): ByteCounts;
  /** Resolves once every connection has closed (at most `ms`), with the counts then. */
  settled(ms?: number): Promise<ByteCounts>;
  close(): Promise<void>;
}

export async function startByteCountingProxy(
  upstreamHost: string,
  upstreamPort: number,
  isGoodbye: (chunk: Buffer) => boolean = () => false,
): Promise<ByteCountingProxy> {
  const counts: ByteCounts = { sent: 0, goodbye: 0, received: 0, goodbyeReply: 0, accepted: 0, open: 0 };
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    counts.accepted++;
    counts.open++;
    client.once('close', () => counts.open--);
    const upstream = createConnection({ host: upstreamHost, port: upstreamPort });
    let closing = false;
    client.on('data', (chunk: Buffer) => {
      counts.sent += chunk.length;
      if (!isGoodbye(chunk)) return;
      counts.goodbye += chunk.length;
      closing = true;
    });
    upstream.on('data', (chunk: Buffer) => {
      counts.received += chunk.length;
      if (closing) counts.goodbyeReply += chunk.length;
    });
    pipeSockets(client, upstream, sockets);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    port: (server.address() as AddressInfo).port,
    counts: () => ({ ...counts }),
    async settled(ms = 3_000) {
      const until = Date.now() + ms;
      while (counts.open > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      return { ...counts };
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

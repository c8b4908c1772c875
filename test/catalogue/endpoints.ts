/**
 * Places on 127.0.0.1 that fail in one way each, for the bad-input catalogue: a port nothing listens
 * on, and a port whose accept queue is full, so the kernel drops the SYN as a firewall in front of an
 * unreachable host does (connect hangs until the client gives up).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createConnection, createServer, type AddressInfo, type Socket } from 'node:net';
import { createInterface } from 'node:readline';

/** A 127.0.0.1 port nothing listens on. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface SynDropPort {
  port: number;
  close(): Promise<void>;
}

/**
 * Node accepts every connection by itself, so the listener is a tiny Python process (python3 comes
 * with the testbed's websockify) that listens with a backlog of 0 and never accepts. Two connections
 * of ours fill the queue; every later SYN is dropped.
 */
export async function synDropPort(): Promise<SynDropPort> {
  const child: ChildProcess = spawn(
    '/usr/bin/python3',
    [
      '-c',
      [
        'import socket, sys, time',
        's = socket.socket()',
        "s.bind(('127.0.0.1', 0))",
        's.listen(0)',
        'print(s.getsockname()[1], flush=True)',
        'sys.stdin.read()',
      ].join('\n'),
    ],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  );
  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the SYN-drop listener did not start in 5 s')), 5_000);
    child.once('exit', (code) => reject(new Error(`the SYN-drop listener exited with ${code}`)));
    createInterface({ input: child.stdout! }).once('line', (line) => {
      clearTimeout(timer);
      resolve(Number(line));
    });
  });
  const fillers: Socket[] = [];
  for (let i = 0; i < 2; i++) {
    const socket = createConnection({ host: '127.0.0.1', port });
    socket.on('error', () => undefined);
    fillers.push(socket);
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, 300);
      socket.once('connect', () => {
        clearTimeout(timer);
        resolve();
      });
    });
  }
  return {
    port,
    async close() {
      for (const socket of fillers) socket.destroy();
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.stdin?.end();
      child.kill('SIGTERM');
      await exited;
    },
  };
}

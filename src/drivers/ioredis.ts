/** ioredis over TCP. The workload is a Redis command line: `PING`, `GET key`, `SET key value`. */
import type Redis from 'ioredis';
import type { Driver, DriverConnection } from '../core/driver';
import { catalogInfo } from './catalog';
import { closeWithin, connectAbortable, driverConnectTimeoutMs } from './abort';
import { nodeTlsTrust } from './tlsOptions';
import { withTlsConnectWatch } from './tlsConnectWatch';
import { classifyRedisReply } from './databaseErrors';
import { redisServerTimeRun } from './redisServerTime';
import { DriverPackage } from './packageSource';

const ioredisPackage = new DriverPackage<typeof Redis>(
  'ioredis',
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundled copy (the build inlines it)
  () => require('ioredis'),
);

export function parseCommand(workload: string): [string, ...string[]] {
  const words = workload.trim().split(/\s+/).filter(Boolean);
  const [command, ...args] = words;
  if (!command) throw new Error('the Redis workload is empty; use a command such as PING or GET key');
  return [command, ...args];
}

export const ioredisDriver: Driver = {
  info: catalogInfo('ioredis'),
  packages: [ioredisPackage],
  async connect({ url, signal, timeoutMs, options, tls, phases }): Promise<DriverConnection> {
    const Client = ioredisPackage.module;
    const client = new Client(url, {
      // rediss: asks for TLS; the target's trust goes with it (redis: stays plaintext).
      ...(/^rediss:/i.test(url) ? { tls: nodeTlsTrust(tls) } : {}),
      lazyConnect: true,
      connectTimeout: driverConnectTimeoutMs(timeoutMs),
      // The engine owns retries and timeouts: a probe must see every failure, not a hidden retry.
      maxRetriesPerRequest: 0,
      retryStrategy: () => null,
      enableOfflineQueue: false,
      autoResendUnfulfilledCommands: false,
      // ioredis sends INFO before "ready" by default; off unless asked, so a sample is connect + AUTH + command.
      enableReadyCheck: options.readyCheck === true,
    });
    // connect() rejects with a bare "Connection is closed"; the cause (ECONNREFUSED, WRONGPASS) comes
    // through the 'error' event, so keep it and throw that instead.
    let lastError: unknown;
    client.on('error', (error: unknown) => (lastError = error));
    // ioredis makes its socket in its connector: net.connect for redis: (Node publishes it), but
    // tls.connect for rediss:, which Node 20 does not publish and ioredis hands to no hook before its
    // TCP connection starts: caught there (tlsConnectWatch.ts), so DNS, TCP and then TLS (from the
    // TCP connection to secureConnect) are read from that same socket.
    await connectAbortable(
      signal,
      () =>
        withTlsConnectWatch(phases?.socket, () => client.connect()).catch((error: unknown) =>
          Promise.reject(lastError ?? error),
        ),
      () => client.disconnect(),
    );
    return {
      query: (workload) => {
        const [command, ...args] = parseCommand(workload);
        // Without the ready check, connect() resolves before the AUTH reply: a refused AUTH then
        // surfaces here as "Stream isn't writeable", and the 'error' event holds the real cause.
        return client.call(command, ...args).then(
          () => undefined,
          (error: unknown) => Promise.reject(lastError ?? error),
        );
      },
      close: () =>
        closeWithin(
          () => client.quit(),
          () => client.disconnect(),
        ),
      destroy: () => client.disconnect(),
      serverTimeRun: (workload) => redisServerTimeRun(client, parseCommand(workload)[0] ?? ''),
    };
  },
  classify: classifyRedisReply,
  serverTime: { per: 'run', sources: ['commandstats'] },
};

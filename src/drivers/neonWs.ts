/**
 * Neon's serverless driver over WebSocket (`Client`): the Postgres protocol tunnelled through a
 * WebSocket to Neon's proxy (or any wsproxy/websockify). Node 20 has no global WebSocket, so `ws` is
 * set per client. Every connection is a new client and a new WebSocket: nothing is reused between
 * `initial` samples; `subsequent` reuses the one open socket.
 *
 * Options (per target, all optional; they are set on this client only, never on the global config):
 * - `wsProxy`: `host:port/path` of the proxy (`?address=host:port` is appended), default Neon's
 *   `<host>/v2`;
 * - `useSecureWebSocket` (default true: wss:). `false` is accepted only for a loopback proxy;
 * - `pipelineConnect`: `"password"` (default, cleartext-password servers such as Neon) or `false`
 *   (needed for SCRAM servers);
 * - `pipelineTLS`, `coalesceWrites`, `forceDisablePgSSL`: as in Neon's CONFIG.md.
 */
import { isIP, connect as netConnect, type NetConnectOpts, type Socket } from 'node:net';
import { connect as tlsConnect, type ConnectionOptions } from 'node:tls';
import type * as Neon from '@neondatabase/serverless';
import type { Client } from '@neondatabase/serverless';
import WebSocket from 'ws';
import type { PhaseReporter } from '../core/socketPhases';
import type { Driver, DriverConnection } from '../core/driver';
import type { ErrorClass } from '../shared/errors';
import { classifyError, ProbeError } from '../core/failure';
import { classifyPostgresError } from './databaseErrors';
import { pgServerTimeRun } from './pgServerTime';
import { catalogInfo } from './catalog';
import { closeWithin, connectAbortable } from './abort';
import { isLoopbackHost } from './httpStatus';
import { nodeTlsTrust, type NodeTlsTrust } from './tlsOptions';
import { DriverPackage } from './packageSource';

const neonPackage = new DriverPackage<typeof Neon>(
  '@neondatabase/serverless',
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundled copy (the build inlines it)
  () => require('@neondatabase/serverless'),
);

interface NeonSocket {
  ws?: { terminate?: () => void; close?: () => void };
  destroy?: () => void;
}

interface ClientInternals {
  connection?: { stream?: NeonSocket };
}

export interface NeonWsOptions {
  wsProxy?: string;
  useSecureWebSocket?: boolean;
  pipelineConnect?: 'password' | false;
  pipelineTLS?: boolean;
  coalesceWrites?: boolean;
  forceDisablePgSSL?: boolean;
}

/** Checks the per-target options; throws a config-worthy message on a bad one. */
export function neonWsOptions(url: string, options: Record<string, unknown>): NeonWsOptions {
  const out: NeonWsOptions = {};
  const { wsProxy, useSecureWebSocket, pipelineConnect, pipelineTLS, coalesceWrites, forceDisablePgSSL } =
    options;
  if (wsProxy !== undefined) {
    if (typeof wsProxy !== 'string' || /^[a-z]+:\/\//i.test(wsProxy)) {
      throw new Error('neon-ws option wsProxy must be "host:port/path" without a scheme');
    }
    out.wsProxy = wsProxy;
  }
  for (const [name, value] of Object.entries({
    useSecureWebSocket,
    pipelineTLS,
    coalesceWrites,
    forceDisablePgSSL,
  })) {
    if (value !== undefined && typeof value !== 'boolean')
      throw new Error(`neon-ws option ${name} must be true or false`);
  }
  if (pipelineConnect !== undefined && pipelineConnect !== 'password' && pipelineConnect !== false) {
    throw new Error('neon-ws option pipelineConnect must be "password" or false');
  }
  if (useSecureWebSocket === false) {
    const proxyHost = hostOf(out.wsProxy ?? new URL(url).hostname);
    if (!isLoopbackHost(proxyHost)) {
      throw new ProbeError(
        'config',
        `neon-ws option useSecureWebSocket=false would send the Postgres session unencrypted to ${proxyHost}; it is allowed only for a loopback proxy`,
      );
    }
  }
  return {
    ...out,
    ...(useSecureWebSocket !== undefined ? { useSecureWebSocket: useSecureWebSocket as boolean } : {}),
    ...(pipelineConnect !== undefined ? { pipelineConnect: pipelineConnect as 'password' | false } : {}),
    ...(pipelineTLS !== undefined ? { pipelineTLS: pipelineTLS as boolean } : {}),
    ...(coalesceWrites !== undefined ? { coalesceWrites: coalesceWrites as boolean } : {}),
    ...(forceDisablePgSSL !== undefined ? { forceDisablePgSSL: forceDisablePgSSL as boolean } : {}),
  };
}

/**
 * ws with the target's trust (the client constructs its WebSocket from the URL alone), opening its
 * socket through ws's own `createConnection` option as ws itself would (tls.connect for wss:, which
 * Node 20 does not publish, net.connect for ws:), so the sample gets the socket: DNS, TCP, and TLS
 * from the TCP connection to secureConnect. The WebSocket upgrade, the Postgres startup and auth
 * through the tunnel make the handshake step.
 */
function reportingWebSocket(trust: NodeTlsTrust, phases: PhaseReporter | undefined): typeof WebSocket {
  return class ReportingWebSocket extends WebSocket {
    constructor(address: string | URL, protocols?: string | string[]) {
      const secure = new URL(String(address)).protocol === 'wss:';
      const createConnection = (options: Record<string, unknown>): Socket => {
        let socket: Socket;
        if (secure) {
          // As ws's tlsConnect: no path, and SNI only for names (never an IP address).
          const tlsOptions = { ...options, path: undefined } as ConnectionOptions & { servername?: string };
          if (!tlsOptions.servername && tlsOptions.servername !== '')
            tlsOptions.servername = isIP(String(tlsOptions.host)) ? '' : String(tlsOptions.host);
          socket = tlsConnect(tlsOptions);
        } else {
          socket = netConnect({ ...options, path: options.socketPath } as NetConnectOpts);
        }
        phases?.socket(socket);
        return socket;
      };
      super(address, protocols, {
        ...trust,
        createConnection: createConnection as unknown as NonNullable<
          WebSocket.ClientOptions['createConnection']
        >,
      });
    }
  } as unknown as typeof WebSocket;
}

function destroyClient(client: Client): void {
  const stream = (client as unknown as ClientInternals).connection?.stream;
  // terminate() drops the TCP socket at once (close() would wait for the peer's close frame).
  stream?.ws?.terminate?.();
  stream?.destroy?.();
}

/** ws reports failures as ErrorEvent objects; the Error inside says what happened. */
function unwrap(error: unknown): unknown {
  const inner = (error as { error?: unknown } | undefined)?.error;
  return !(error instanceof Error) && inner instanceof Error ? inner : error;
}

export const neonWsDriver: Driver = {
  info: catalogInfo('neon-ws'),
  packages: [neonPackage],
  async connect({ url, signal, timeoutMs, options, tls, phases }): Promise<DriverConnection> {
    const settings = neonWsOptions(url, options);
    const client = new neonPackage.module.Client({
      connectionString: url,
      connectionTimeoutMillis: timeoutMs,
    });
    const config = client.neonConfig;
    config.webSocketConstructor = reportingWebSocket(nodeTlsTrust(tls), phases);
    if (settings.wsProxy !== undefined) config.wsProxy = settings.wsProxy;
    if (settings.useSecureWebSocket !== undefined) config.useSecureWebSocket = settings.useSecureWebSocket;
    if (settings.pipelineConnect !== undefined) config.pipelineConnect = settings.pipelineConnect;
    if (settings.pipelineTLS !== undefined) config.pipelineTLS = settings.pipelineTLS;
    if (settings.coalesceWrites !== undefined) config.coalesceWrites = settings.coalesceWrites;
    if (settings.forceDisablePgSSL !== undefined) config.forceDisablePgSSL = settings.forceDisablePgSSL;
    client.on('error', () => undefined);
    await connectAbortable(
      signal,
      () => client.connect().catch((error: unknown) => Promise.reject(unwrap(error))),
      () => destroyClient(client),
    );
    return {
      query: (workload) =>
        client.query(workload).then(
          () => undefined,
          (error: unknown) => Promise.reject(unwrap(error)),
        ),
      close: () =>
        closeWithin(
          () => client.end(),
          () => destroyClient(client),
        ),
      destroy: () => destroyClient(client),
      client,
      serverTimeRun: (workload) => pgServerTimeRun(client, workload),
    };
  },
  serverTime: { per: 'run', sources: ['pg_stat_statements', 'explain-analyze'] },
  classify(error: unknown): ErrorClass | undefined {
    const inner = unwrap(error);
    return inner !== error ? classifyError(inner, classifyPostgresError) : classifyPostgresError(error);
  },
};

/** The host of `host:port/path` (or a bare host), IPv6 literals in brackets included (`[::1]:80/v1`). */
function hostOf(proxy: string): string {
  return /^\[[^\]]*\]/.exec(proxy)?.[0] ?? proxy.replace(/[:/].*$/, '');
}

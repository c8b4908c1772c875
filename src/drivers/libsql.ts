/**
 * @libsql/client: Turso/libSQL over HTTP (Hrana pipeline) or WebSocket (Hrana subprotocols), or an
 * embedded SQLite file. The URL picks the transport: libsql: and https: go over https (libsql:
 * with ?tls=0 over http), http: over plain http, wss:/ws: over a WebSocket, file: embedded.
 *
 * Reuse, per transport:
 * - http: each connection owns an HttpSession (own undici Agent and socket) passed as the client's
 *   `fetch`; `initial` pays DNS+TCP+TLS every sample, `subsequent` reuses the kept-alive socket;
 * - ws: a new client is a new WebSocket; the client opens it at creation and the first query waits
 *   for it (so `initial` pays it). The client replaces a socket older than 60 s by itself;
 * - file: a new client opens the file again.
 *
 * Each transport's client is imported on its own: the embedded engine (native code) loads only for
 * file: URLs (./libsqlEmbedded), so the network transports work where no native binary is shipped.
 */
import type { Client } from '@libsql/client';
import type * as LibsqlHttp from '@libsql/client/http';
import type * as LibsqlWs from '@libsql/client/ws';
import type { ConnectOptions, Driver, DriverConnection, Transport } from '../core/driver';
import type { ErrorClass } from '../shared/errors';
import { catalogInfo } from './catalog';
import { connectAbortable } from './abort';
import { openHttpSession } from './httpSession';
import { ProbeError } from '../core/failure';
import { hasTlsTrust } from './tlsOptions';
import { classifyHttpStatus } from './httpStatus';
import { classifyLibsqlError } from './databaseErrors';
import { createEmbeddedClient, isLibsqlEngineMissing } from './libsqlEmbedded';
import { DriverPackage } from './packageSource';
import { HranaDurations } from './hranaDurations';

const libsqlHttpPackage = new DriverPackage<typeof LibsqlHttp>(
  '@libsql/client/http',
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundled copy (the build inlines it)
  () => require('@libsql/client/http'),
);
const libsqlWsPackage = new DriverPackage<typeof LibsqlWs>(
  '@libsql/client/ws',
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundled copy (the build inlines it)
  () => require('@libsql/client/ws'),
);

/** Why a libsql ws connection shows no steps of its connect. */
export const LIBSQL_WS_UNMEASURED =
  '@libsql/client opens its own WebSocket in the background (no hook reaches its socket) and the first query waits for it: DNS, TCP, TLS and the WebSocket handshake are all inside firstQuery';

export function libsqlTransport(url: string): Transport {
  const scheme = /^([a-z]+):/i.exec(url)?.[1]?.toLowerCase();
  if (scheme === 'file') return 'file';
  if (scheme === 'ws' || scheme === 'wss') return 'ws';
  // @libsql/client maps libsql: to https: in Node.
  return 'http';
}

/** The HTTP origin of an http transport URL, following @libsql/client's `tls` rule. */
export function libsqlHttpOrigin(url: string): string {
  const parsed = new URL(url);
  const plain =
    parsed.protocol === 'http:' || (parsed.protocol === 'libsql:' && parsed.searchParams.get('tls') === '0');
  return `${plain ? 'http:' : 'https:'}//${parsed.host}`;
}

export const libsqlDriver: Driver = {
  info: catalogInfo('libsql'),
  packages: [libsqlHttpPackage, libsqlWsPackage],
  transportFor: libsqlTransport,
  serverTime: {
    per: 'sample',
    source: 'hrana',
    absent:
      'no answer carried `query_duration_ms`: an older libsql-server, or the WebSocket or embedded transport, whose answers @libsql/client does not show',
  },
  connect: (options) => connectLibsql(options, true),
  classify(error: unknown): ErrorClass | undefined {
    if (isLibsqlEngineMissing(error)) return 'config';
    // Hrana over HTTP reports auth failures as a bare status ("Server returned HTTP status 401").
    for (let e: unknown = error, depth = 0; e && typeof e === 'object' && depth < 4; depth++) {
      const status = (e as { status?: unknown }).status;
      if (typeof status === 'number') return classifyHttpStatus(status);
      e = (e as { cause?: unknown }).cause;
    }
    return classifyLibsqlError(error);
  },
};

/**
 * The same driver with each answer's `query_duration_ms` left unread: no hook on the client's fetch,
 * no serverTimeOf. Only the overhead bench's baseline (what reading it costs), never a user option.
 */
export const libsqlDriverUnread: Driver = {
  ...libsqlDriver,
  serverTime: undefined,
  connect: (options) => connectLibsql(options, false),
};

async function connectLibsql(
  { url, signal, timeoutMs, tls, http, phases }: ConnectOptions,
  readDurations: boolean,
): Promise<DriverConnection> {
  const transport = libsqlTransport(url);
  if (transport === 'http') {
    const session = await openHttpSession({
      origin: libsqlHttpOrigin(url),
      timeoutMs,
      signal,
      ...(tls ? { tls } : {}),
      ...(http ? { http } : {}),
      phases,
    });
    const durations = readDurations ? new HranaDurations() : undefined;
    let client: Client;
    try {
      client = libsqlHttpPackage.module.createClient({
        url,
        fetch: durations ? durations.wrap(session.fetch) : session.fetch,
      });
    } catch (error) {
      session.destroy();
      throw error;
    }
    return {
      query: (workload) => client.execute(workload).then(() => undefined),
      ...(durations ? { serverTimeOf: () => durations.serverUs() } : {}),
      close: async () => {
        client.close();
        await session.close();
      },
      destroy: () => {
        client.close();
        session.destroy();
      },
      client,
    };
  }
  if (hasTlsTrust(tls) && transport === 'ws') {
    throw new ProbeError(
      'config',
      '@libsql/client opens its WebSocket itself, so tls.caFile, tls.insecure and tls.maxVersion cannot reach it: trust the CA through NODE_EXTRA_CA_CERTS, or use the https: form of the URL',
    );
  }
  if (transport === 'ws') {
    const secure = /^wss:/i.test(url);
    for (const step of ['dns', 'tcp', ...(secure ? ['tls' as const] : []), 'handshake'] as const)
      phases?.unmeasured(step, LIBSQL_WS_UNMEASURED);
  }
  // file: no network steps at all (absent, not unmeasured): connect is opening the file.
  const client =
    transport === 'ws' ? libsqlWsPackage.module.createClient({ url }) : await createEmbeddedClient({ url });
  // ws: the socket opens in the background and the first execute() waits for it; file: no I/O yet.
  await connectAbortable(
    signal,
    async () => undefined,
    () => client.close(),
  );
  return {
    query: (workload) => client.execute(workload).then(() => undefined),
    close: async () => client.close(),
    // Before the WebSocket is open, close() aborts the handshake and drops the socket at once.
    destroy: () => client.close(),
    client,
  };
}

/**
 * A private HTTP "connection" for the fetch-based drivers (neon-http, planetscale, libsql over http,
 * upstash, http). Each DriverConnection gets its own undici Agent with its own connector, so:
 *
 * - `initial` (connect + query + close per sample) pays DNS, TCP and TLS every sample: the agent, its
 *   sockets and its TLS session cache (disabled: `maxCachedSessions: 0`) die with the connection;
 * - `subsequent` (one connection, many queries) reuses the kept-alive socket of that one agent.
 *
 * connect() opens the socket to the endpoint's origin before returning (as a TCP driver's connect
 * would), so the first timed query of `subsequent` does not pay the setup. Nothing is shared between
 * sessions; the process-wide fetch and its global dispatcher are never used.
 */
import type { Socket } from 'node:net';
import {
  Agent,
  buildConnector,
  fetch as undiciFetch,
  type Dispatcher,
  type RequestInit as UndiciRequestInit,
} from 'undici';
import type { ConnectHttp, ConnectTls } from '../core/driver';
import { ProbeError } from '../core/failure';
import type { PhaseReporter } from '../core/socketPhases';
import { closeWithin, driverConnectTimeoutMs, onAbort } from './abort';
import { reportH2Exchanges } from './h2Exchanges';
import { quietUndiciH2Warning } from './h2Warning';
import { nodeTlsTrust } from './tlsOptions';

/** The `fetch` shape the npm clients call; Request objects of Node's own fetch are accepted too. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

export interface HttpSession {
  fetch: FetchLike;
  /** Waits for requests in flight (bounded), then closes the socket. */
  close(): Promise<void>;
  /** Drops the socket at once; never throws. */
  destroy(): void;
  /** TCP connections this session opened so far (1 while the server keeps the socket alive). */
  socketsOpened(): number;
}

export interface HttpSessionOptions {
  /** Scheme, host and port every request of this session goes to. */
  origin: string;
  timeoutMs: number;
  signal: AbortSignal;
  /** Keep the idle socket this long between samples (the server may close it sooner). */
  keepAliveMs?: number;
  /** The target's TLS trust, for https: origins. */
  tls?: ConnectTls;
  /** Where the session's first socket goes, for the sample's DNS, TCP and TLS steps. */
  phases?: PhaseReporter;
  /**
   * `2`: offer h2 before http/1.1 in the TLS handshake (ALPN) and speak HTTP/2 when the server picks
   * it. Absent or `1.1`: offer only http/1.1, as Node's own fetch does.
   */
  http?: ConnectHttp;
}

/** undici's connector returns the socket it starts (typed as returning nothing in its callback form). */
type SocketReturningConnector = (
  options: buildConnector.Options,
  callback: buildConnector.Callback,
) => Socket | undefined;

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

export async function openHttpSession(options: HttpSessionOptions): Promise<HttpSession> {
  const origin = new URL(options.origin);
  if (origin.protocol !== 'http:' && origin.protocol !== 'https:') {
    throw new Error(`an HTTP endpoint must use https: or http:, got "${origin.protocol}"`);
  }
  const allowH2 = options.http?.version === '2';
  if (allowH2 && origin.protocol !== 'https:') {
    // undici negotiates HTTP/2 only through TLS's ALPN; it has no cleartext HTTP/2 (h2c).
    throw new ProbeError(
      'config',
      'http.version "2" needs an https: endpoint: HTTP/2 is negotiated in the TLS handshake, and Node\'s HTTP client (undici) does not speak HTTP/2 over plaintext; use the https: URL, or remove "http" for HTTP/1.1',
    );
  }
  if (allowH2) quietUndiciH2Warning();
  if (origin.protocol === 'http:') {
    options.phases?.wireUnmeasured(
      'alpn',
      'plaintext http: ALPN is part of TLS, so nothing was negotiated (undici speaks HTTP/1.1 over it)',
    );
  }
  // Certificate checks stay on (Node's defaults, plus the target's CA) unless the target asked for
  // tls.insecure; session resumption is off, so a new connection pays a full TLS handshake as a
  // new process would.
  const connector = buildConnector({
    timeout: driverConnectTimeoutMs(options.timeoutMs),
    maxCachedSessions: 0,
    allowH2,
    ...nodeTlsTrust(options.tls),
  });
  const sockets = new Set<Socket>();
  let opened = 0;
  let destroyed = false;

  const open = (target: buildConnector.Options, callback: buildConnector.Callback): void => {
    opened++;
    // The connector returns its socket at once, before any of its events: for https a tls.connect()
    // socket that makes its own TCP connection (Node does not publish it), for http a net.connect()
    // one (published, and the same socket again here). The sample reads DNS, TCP and TLS from it.
    const made = (connector as unknown as SocketReturningConnector)(target, (error, socket) => {
      if (socket) {
        sockets.add(socket);
        socket.once('close', () => sockets.delete(socket));
        if (destroyed) socket.destroy();
      }
      if (error) callback(error, null);
      else callback(null, socket!);
    });
    if (made) options.phases?.socket(made);
  };

  const target: buildConnector.Options = {
    // WHATWG keeps IPv6 literals in brackets; the socket wants the bare address (`[::1]` -> `::1`).
    hostname: origin.hostname.replace(/^\[(.*)\]$/, '$1'),
    host: origin.host,
    protocol: origin.protocol,
    port: origin.port || DEFAULT_PORTS[origin.protocol] || '443',
  };
  let warm: Socket | undefined = await new Promise<Socket>((resolve, reject) => {
    const dispose = onAbort(options.signal, () => {
      destroyed = true;
      for (const socket of sockets) socket.destroy();
      reject(new Error('connect aborted'));
    });
    open(target, (error, socket) => {
      dispose();
      if (error) reject(error);
      else resolve(socket!);
    });
  });

  const agent = new Agent({
    connections: 1,
    pipelining: 1,
    allowH2,
    keepAliveTimeout: options.keepAliveMs ?? 60_000,
    keepAliveMaxTimeout: options.keepAliveMs ?? 60_000,
    connect: (wanted, callback) => {
      const socket = warm;
      warm = undefined;
      if (!sameTarget(wanted, target)) {
        // A session talks to one origin: a redirect elsewhere (another host, a metadata address)
        // is refused before any socket opens, so a probe never fetches what the target points at.
        socket?.destroy();
        callback(
          new Error(
            `the server redirected to ${wanted.protocol}//${wanted.hostname}:${portOf(wanted)}, another origin than the target's; probe that URL directly if it is the one you mean`,
          ),
          null,
        );
        return;
      }
      if (socket && !socket.destroyed) return callback(null, socket);
      open(wanted, callback);
    },
  });

  const destroy = (): void => {
    destroyed = true;
    warm?.destroy();
    warm = undefined;
    agent.destroy().catch(() => undefined);
    for (const socket of sockets) socket.destroy();
  };

  // An HTTP/2 session's turns run in native code: its requests and answers are reported instead.
  const phases = options.phases;
  const liveH2 = (): Socket | undefined => {
    // Per request on a warm connection: a walk of the (one-socket) set, no array made.
    for (const s of sockets)
      if (!s.destroyed && (s as { alpnProtocol?: unknown }).alpnProtocol === 'h2') return s;
    return undefined;
  };
  const dispatcher = allowH2 && phases ? agent.compose(reportH2Exchanges(liveH2, phases)) : agent;

  return {
    fetch: (input, init) => agentFetch(dispatcher, input, init),
    close: () => closeWithin(() => agent.close(), destroy),
    destroy,
    socketsOpened: () => opened,
  };
}

async function agentFetch(
  agent: Dispatcher,
  input: string | URL | Request,
  init?: RequestInit,
): Promise<Response> {
  let url: string | URL;
  let request: UndiciRequestInit;
  if (typeof input === 'string' || input instanceof URL) {
    url = input;
    request = { ...(init as UndiciRequestInit) };
  } else {
    // A Request built by Node's own fetch (libsql builds those) is not undici's class: copy it.
    url = input.url;
    const method = init?.method ?? input.method;
    request = {
      method,
      headers: [...new Headers(init?.headers ?? input.headers)],
      body: method === 'GET' || method === 'HEAD' ? undefined : Buffer.from(await input.arrayBuffer()),
    };
  }
  request.dispatcher = agent;
  return (await undiciFetch(url, request)) as unknown as Response;
}

/** undici passes the URL's own port, which is '' for the scheme's default port. */
function portOf(target: buildConnector.Options): string {
  return target.port || DEFAULT_PORTS[target.protocol] || '443';
}

export function sameTarget(a: buildConnector.Options, b: buildConnector.Options): boolean {
  return a.protocol === b.protocol && a.hostname === b.hostname && portOf(a) === portOf(b);
}

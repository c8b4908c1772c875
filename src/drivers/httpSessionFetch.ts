/**
 * The HTTP session for runtimes without undici or sockets (Cloudflare Workers): the platform's fetch.
 * The platform decides connection reuse, so `initial` samples there may ride a warm connection; the
 * Workers runner says so in its docs. Same interface as httpSession.ts, which the Workers bundle
 * swaps for this file.
 */
import type { FetchLike, HttpSession, HttpSessionOptions } from './httpSession';

export type { FetchLike, HttpSession, HttpSessionOptions };

export async function openHttpSession(options: HttpSessionOptions): Promise<HttpSession> {
  if (options.tls?.insecure || options.tls?.ca !== undefined || options.tls?.maxVersion !== undefined) {
    throw new Error(
      "this runtime's fetch decides its TLS itself: tls.caFile, tls.insecure and tls.maxVersion cannot apply here; use a Node runner",
    );
  }
  if (options.http) {
    throw new Error(
      "this runtime's fetch picks the HTTP version itself: http.version cannot apply here; remove it, or use a Node runner",
    );
  }
  // No socket to read: the platform opens (and may reuse) its connections out of sight.
  const reason = "the runtime's own fetch opens its connections out of sight: no socket to time";
  const steps = [
    'dns',
    'tcp',
    ...(new URL(options.origin).protocol === 'https:' ? ['tls' as const] : []),
    'handshake',
  ] as const;
  for (const step of steps) options.phases?.unmeasured(step, reason);
  options.phases?.wireUnmeasured('alpn', "the runtime's own fetch negotiates the protocol out of sight");
  const controller = new AbortController();
  options.signal.addEventListener('abort', () => controller.abort(), { once: true });
  const boundFetch: FetchLike = (input, init) => {
    const signal = init?.signal ? AbortSignal.any([init.signal, controller.signal]) : controller.signal;
    return fetch(input, { ...init, signal });
  };
  return {
    fetch: boundFetch,
    close: async () => undefined,
    destroy: () => controller.abort(),
    socketsOpened: () => 0,
  };
}

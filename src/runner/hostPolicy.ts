/**
 * Which hosts a runner may be sent to. The runner holds secrets (its environment) and sits inside a
 * cloud network (metadata services, private databases), so every host a client can choose, in a
 * connection string or in an option that names an endpoint, must pass one check. The check is
 * deliberately narrow: a connection string whose host can be read two ways (two `@`, a backslash,
 * a host in the query, several hosts) is refused rather than interpreted, because the npm client
 * that finally parses it may read it differently from this code.
 */

/** Longest connection string the runner looks at (bounded before any pattern reads it). */
const MAX_URL_LENGTH = 4_096;
/** Query parameters through which a client library picks another host than the URL's. */
const HOST_PARAMETERS = new Set(['host', 'hostaddr', 'socketpath', 'socket', 'server', 'address']);
// Plain character classes only: no nested quantifier, so no input can make the match slow.
const HOST_NAME = /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])$/;

export type HostCheck = { ok: true; host: string } | { ok: false; reason: string };

/** The one host a client-supplied connection string points at, or why it cannot be told safely. */
export function connectionHost(url: string): HostCheck {
  if (url.length > MAX_URL_LENGTH)
    return { ok: false, reason: `it is longer than ${MAX_URL_LENGTH} characters` };
  // Whitespace, control characters and backslashes are read differently by different URL parsers.
  if (/[\s\\]/.test(url) || [...url].some((c) => c.charCodeAt(0) < 0x20 || c.charCodeAt(0) === 0x7f))
    return { ok: false, reason: 'it holds whitespace, a control character or a backslash' };
  const authority = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)/i.exec(url)?.[1];
  if (authority === undefined) return { ok: false, reason: 'it is not a URL of the form scheme://host' };
  if (authority.split('@').length > 2)
    return { ok: false, reason: 'it has more than one "@" (percent-encode "@" in a password as %40)' };
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'it is not a valid URL' };
  }
  for (const name of parsed.searchParams.keys()) {
    if (HOST_PARAMETERS.has(name.toLowerCase()))
      return { ok: false, reason: `its query parameter "${name}" would choose another host` };
  }
  const host = parsed.hostname.toLowerCase();
  if (!host) return { ok: false, reason: 'it names no host' };
  if (host.includes(',')) return { ok: false, reason: 'it names several hosts' };
  if (!HOST_NAME.test(host) || host.length > 253)
    return { ok: false, reason: `its host "${host.slice(0, 80)}" is not a plain host name or address` };
  return { ok: true, host };
}

/** Exact names, or `*.suffix` for any name under suffix (never the bare suffix's look-alikes). */
export function hostAllowed(host: string, allowed: readonly string[]): boolean {
  const name = host.replace(/\.$/, '');
  return allowed.some((pattern) =>
    pattern.startsWith('*.')
      ? name.endsWith(pattern.slice(1)) && name.length > pattern.length - 1
      : name === pattern,
  );
}

/** The host an endpoint option (`https://host/sql`, `host:port/path`) points at. */
export function endpointHost(value: string): HostCheck {
  const url = /^[a-z][a-z0-9+.-]*:\/\//i.test(value) ? value : `wss://${value}`;
  return connectionHost(url);
}

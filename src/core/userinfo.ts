/**
 * Spots a user name or password that holds a URL delimiter (`@ : / ? # %`) unencoded. Such a string
 * often still parses, with another host than meant (`postgres://u:p#w@db` has host `u`), so the
 * probe would fail later with a DNS or refused error that says nothing about the password.
 */

/** Connection strings are short; the check reads at most this much of one. */
const MAX_CHECKED = 4_096;

export const PERCENT_ENCODE_ADVICE =
  'percent-encode the user name and password (encodeURIComponent): @ is %40, : is %3A, / is %2F, ? is %3F, # is %23, % is %25';

/** Why the credentials part looks unencoded, or undefined when it looks fine. */
export function unencodedCredentials(url: string): string | undefined {
  const start = url.indexOf('://');
  if (start === -1) return undefined;
  const rest = url.slice(start + 3, start + 3 + MAX_CHECKED);
  const end = firstIndexOf(rest, ['/', '?', '#']);
  const authority = rest.slice(0, end);
  const at = authority.lastIndexOf('@');
  // A `/`, `?` or `#` in the password ends the authority early (`u:p/w@host` reads as host `u`, port
  // `p`): an `@` then shows up after it, outside any query parameter. A real port is digits.
  const later = rest.indexOf('@', end);
  if (later !== -1 && !rest.slice(end, later).includes('=')) {
    const colon = authority.lastIndexOf(':');
    const port = authority.slice(colon + 1);
    const cutShort = at !== -1 || (colon !== -1 && !authority.startsWith('[') && !/^\d+$/.test(port));
    if (cutShort) return 'the password seems to hold an unencoded / ? or #';
  }
  if (at === -1) return undefined;
  const credentials = authority.slice(0, at);
  if (credentials.includes('@')) return 'the password seems to hold an unencoded @';
  if (/%(?![0-9A-Fa-f]{2})/.test(credentials)) return 'the password seems to hold an unencoded %';
  if (credentials.indexOf(':') !== credentials.lastIndexOf(':'))
    return 'the password seems to hold an unencoded :';
  return undefined;
}

function firstIndexOf(text: string, characters: string[]): number {
  const found = characters.map((c) => text.indexOf(c)).filter((i) => i !== -1);
  return found.length > 0 ? Math.min(...found) : text.length;
}

/**
 * The one redaction path. Every boundary (logs, errors, results, exports, webview messages, runner
 * responses) passes text through a Redactor that knows the secrets of the run, plus a pattern pass
 * that strips credentials from anything URL-shaped even when the secret was never registered.
 */

const MASK = '****';
/** Shorter secrets would mask ordinary words; URL and key=value patterns still catch them in context. */
const MIN_SECRET_LENGTH = 3;

// The scheme is bounded (real ones are short): unbounded, a long run of letters made every start
// position rescan it, and a 50 MB string cost minutes. A longer "scheme" still has its tail matched.
const URL_CREDENTIALS = /([a-z][a-z0-9+.-]{0,31}:\/\/)([^\s:/@]*):([^\s@/]+)@/gi;
const URL_TOKEN_ONLY = /([a-z][a-z0-9+.-]{0,31}:\/\/)([^\s:/@]+)@/gi;
const SECRET_PARAMS =
  /(?<![A-Za-z0-9])(_?(?:password|passwd|pwd|token|authToken|auth_token|apikey|api_key|secret))=([^\s&;'"]+)/gi;
const BEARER = /\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]+/g;

export class Redactor {
  private readonly secrets = new Set<string>();

  /** Registers a connection string or token; its password/token parts are registered too. */
  addSecret(secret: string | undefined): this {
    if (!secret) return this;
    this.addLiteral(secret);
    for (const part of secretPartsOf(secret)) this.addLiteral(part);
    return this;
  }

  redact(text: string): string {
    let out = text;
    // Longest first so a whole connection string is masked before its password inside it.
    const ordered = [...this.secrets].sort((a, b) => b.length - a.length);
    for (const secret of ordered) out = out.split(secret).join(MASK);
    return redactPatterns(out);
  }

  private addLiteral(value: string): void {
    if (value.length < MIN_SECRET_LENGTH) return;
    this.secrets.add(value);
    const encoded = encodeURIComponent(value);
    if (encoded !== value) this.secrets.add(encoded);
    const decoded = safeDecode(value);
    if (decoded !== value && decoded.length >= MIN_SECRET_LENGTH) this.secrets.add(decoded);
  }
}

/** Pattern-only redaction, for text that may hold credentials nobody registered. */
export function redactPatterns(text: string): string {
  return text
    .replace(URL_CREDENTIALS, (_m, scheme: string, user: string) => `${scheme}${user}:${MASK}@`)
    .replace(URL_TOKEN_ONLY, (_m, scheme: string) => `${scheme}${MASK}@`)
    .replace(SECRET_PARAMS, (_m, key: string) => `${key}=${MASK}`)
    .replace(BEARER, (_m, word: string) => `${word} ${MASK}`);
}

/** Redacts every string inside a JSON-like value (for results and messages crossing a boundary). */
export function redactDeep<T>(value: T, redactor: Redactor): T {
  if (typeof value === 'string') return redactor.redact(value) as T;
  if (Array.isArray(value)) return value.map((v: unknown) => redactDeep(v, redactor)) as T;
  if (value && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = redactDeep(v, redactor);
    return out as T;
  }
  return value;
}

function secretPartsOf(secret: string): string[] {
  const parts: string[] = [];
  try {
    const url = new URL(secret);
    if (url.password) parts.push(url.password);
    for (const [key, value] of url.searchParams) {
      if (/pass|token|secret|key/i.test(key)) parts.push(value);
    }
  } catch {
    // Not a URL: the whole string is already registered as the secret.
  }
  return parts;
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

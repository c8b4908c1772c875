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
/**
 * Credentials recognisable by their shape alone, registered or not: Neon API keys (napi_),
 * PlanetScale passwords and service tokens (pscale_pw_, pscale_tkn_, pscale_oauth_), and JWT-like
 * strings (Supabase keys, Turso tokens: eyJ<header>.<payload>.<signature>). Each starts only where a
 * token can start (the lookbehinds), and no class overlaps the character that follows it, so a long
 * input costs linear time.
 */
const TOKEN_SHAPES =
  /(?<![A-Za-z0-9_-])(?:napi_|pscale_(?:pw|tkn|oauth)_)[A-Za-z0-9_-]{8,}|(?<![A-Za-z0-9_-])eyJ[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]{2,}\.[A-Za-z0-9_-]*/g;
/** A secret echoed back as JSON (`"password":"..."`, `"authorization":"..."`): a server's error body. */
const SECRET_JSON_FIELDS =
  /("(?:password|passwd|pwd|token|secret|api[_-]?key|authorization|auth[_-]?token|access[_-]?token)"\s*:\s*")[^"\\]{1,2048}"/gi;

/** Longest text quoted from another program (a command's output, a server's or a driver's error). */
export const QUOTE_CHARS = 500;
/** Quoted text is cut to this before any pattern reads it; beyond a cut the tail is never shown. */
const QUOTE_INPUT_CHARS = 16_384;
/** The mark of text cut short. */
const CUT = '…';

export class Redactor {
  private readonly secrets = new Set<string>();
  /** The secrets longest first, kept until one is added: a view model asks for hundreds of strings. */
  private ordered: string[] | undefined;

  /** Registers a connection string or token; its password/token parts are registered too. */
  addSecret(secret: string | undefined): this {
    if (!secret) return this;
    this.addLiteral(secret);
    for (const part of secretPartsOf(secret)) this.addLiteral(part);
    return this;
  }

  /**
   * Text quoted from another program, masked and cut to a bounded length: see quoteOutput. Masking
   * happens before the cut, so a cut never leaves part of a registered secret behind.
   */
  quote(text: string, options: QuoteOptions = {}): string {
    return quoteOutput(text, options, this);
  }

  /**
   * How a URL the user typed is named in messages: itself, or, when it holds a secret the run keeps
   * (it equals a connection string), its place among the flags with why it is not shown: a mask alone
   * would leave the user guessing which URL and why.
   */
  nameOf(url: string, flag: string, index: number): string {
    return this.redact(url) === url
      ? url
      : `${flag} #${index + 1} (not shown: it holds a secret of this run)`;
  }

  redact(text: string): string {
    let out = text;
    // Longest first so a whole connection string is masked before its password inside it.
    this.ordered ??= [...this.secrets].sort((a, b) => b.length - a.length);
    // split/join copies the text even when the secret is not in it (a result's long histograms).
    for (const secret of this.ordered) if (out.includes(secret)) out = out.split(secret).join(MASK);
    return redactPatterns(out);
  }

  private addLiteral(value: string): void {
    if (value.length < MIN_SECRET_LENGTH) return;
    this.ordered = undefined;
    this.secrets.add(value);
    const encoded = encodeURIComponent(value);
    if (encoded !== value) this.secrets.add(encoded);
    const decoded = safeDecode(value);
    if (decoded !== value && decoded.length >= MIN_SECRET_LENGTH) this.secrets.add(decoded);
  }
}

/**
 * A substring each pattern below needs to match: "://" (the URL forms), "=" (parameters), `"` then
 * ":" (JSON fields), the Bearer and Basic words, the token shapes' prefixes. Text with none of them
 * (a target's name, a kind, a date, a histogram's base64) cannot match any pattern, and skips the
 * six replacements: a result or a view model carries hundreds of such strings, each of which cost
 * six regular-expression passes and their garbage. test/unit/redact.test.ts checks the claim.
 */
const MAY_HOLD_CREDENTIAL = /:\/\/|=|"\s*:|Bearer|Basic|napi_|pscale_|eyJ/;

/** Each credential pattern with what replaces its match, applied in this order by redactPatterns. */
const CREDENTIAL_REPLACEMENTS: readonly (readonly [
  RegExp,
  (match: string, ...groups: string[]) => string,
])[] = [
  [URL_CREDENTIALS, (_m, scheme, user) => `${scheme}${user}:${MASK}@`],
  [URL_TOKEN_ONLY, (_m, scheme) => `${scheme}${MASK}@`],
  [SECRET_PARAMS, (_m, key) => `${key}=${MASK}`],
  [BEARER, (_m, word) => `${word} ${MASK}`],
  [SECRET_JSON_FIELDS, (_m, key) => `${key}${MASK}"`],
  [TOKEN_SHAPES, () => MASK],
];

/** The patterns redactPatterns applies (for the tests of MAY_HOLD_CREDENTIAL). */
export const CREDENTIAL_PATTERNS: readonly RegExp[] = CREDENTIAL_REPLACEMENTS.map(([pattern]) => pattern);

/** False when no credential pattern can match `text` (see MAY_HOLD_CREDENTIAL). */
export function mayHoldCredential(text: string): boolean {
  return MAY_HOLD_CREDENTIAL.test(text);
}

/** Pattern-only redaction, for text that may hold credentials nobody registered. */
export function redactPatterns(text: string): string {
  if (!mayHoldCredential(text)) return text;
  let out = text;
  for (const [pattern, replace] of CREDENTIAL_REPLACEMENTS) out = out.replace(pattern, replace);
  return out;
}

export interface QuoteOptions {
  /** Longest result (QUOTE_CHARS by default). */
  maxChars?: number;
  /** Which end to keep when the text is longer: a command's last lines say why it failed. */
  keep?: 'start' | 'end';
}

/**
 * The one way to quote what another program said (a suspend command's output, a runner's or a
 * provider API's answer, a driver's error) in anything the tool writes: bounded before any pattern
 * meets it, on one line, masked (by the run's Redactor when there is one, else by the patterns
 * alone), then cut to `maxChars` at a word boundary. Cutting mid-word could leave the start or end
 * of a secret nobody registered where no pattern recognises it any more, so the partial word goes.
 */
export function quoteOutput(text: string, options: QuoteOptions = {}, redactor?: Redactor): string {
  const keepEnd = options.keep === 'end';
  const bounded = cutAtWord(text, QUOTE_INPUT_CHARS, keepEnd, '');
  const line = bounded.replace(/\s+/g, ' ').trim();
  const masked = redactor ? redactor.redact(line) : redactPatterns(line);
  return cutAtWord(masked, options.maxChars ?? QUOTE_CHARS, keepEnd, CUT);
}

/**
 * `text` cut to at most `max` characters (the mark included), dropping the word the cut went
 * through: what remains of a token or a secret is never shown. Plain index work, no pattern.
 */
export function cutAtWord(text: string, max: number, keepEnd = false, mark = CUT): string {
  if (text.length <= max) return text;
  const room = Math.max(0, max - mark.length);
  if (keepEnd) {
    const tail = text.slice(text.length - room);
    // The cut went through a word unless the character before the kept part is a space.
    const cutWord = !isSpace(text.charCodeAt(text.length - room - 1));
    const start = cutWord ? firstSpace(tail) : 0;
    return `${mark}${start === -1 ? '' : tail.slice(start).trimStart()}`;
  }
  const head = text.slice(0, room);
  const cutWord = !isSpace(text.charCodeAt(room));
  const end = cutWord ? lastSpace(head) : head.length;
  return `${end === -1 ? '' : head.slice(0, end).trimEnd()}${mark}`;
}

function firstSpace(text: string): number {
  for (let i = 0; i < text.length; i++) if (isSpace(text.charCodeAt(i))) return i;
  return -1;
}

function lastSpace(text: string): number {
  for (let i = text.length - 1; i >= 0; i--) if (isSpace(text.charCodeAt(i))) return i;
  return -1;
}

/** Space, tab, line feed, vertical tab, form feed, carriage return. */
function isSpace(code: number): boolean {
  return code === 32 || (code >= 9 && code <= 13);
}

/**
 * Redacts every string inside a JSON-like value (for results and messages crossing a boundary).
 * Plain objects and arrays in which no string changed come back as they are, not copied: a result
 * carries up to 10,000 sample records of numbers, and a copy of each was garbage at every run's end
 * (~110 bytes a sample in a `subsequent` run). The answer may therefore share parts with the value
 * given; none of the callers changes either afterwards. Any other object (a class instance) is copied
 * to a plain object of its own enumerable keys, as JSON would see it.
 */
export function redactDeep<T>(value: T, redactor: Redactor): T {
  // A panel's view model repeats a few dozen strings (names, kinds) hundreds of times: each distinct
  // string is redacted once per call, in the time the webview waits for its first paint.
  const done = new Map<string, string>();
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') {
      let masked = done.get(v);
      if (masked === undefined) done.set(v, (masked = redactor.redact(v)));
      return masked;
    }
    if (Array.isArray(v)) {
      let copy: unknown[] | undefined;
      for (let i = 0; i < v.length; i++) {
        const item: unknown = v[i];
        const walked = walk(item);
        if (copy) copy.push(walked);
        else if (walked !== item) (copy = v.slice(0, i)).push(walked);
      }
      return copy ?? v;
    }
    if (v && typeof v === 'object') {
      const proto: unknown = Object.getPrototypeOf(v);
      const plain = proto === Object.prototype || proto === null;
      // for-in over own keys, not Object.entries: a result carries thousands of sample records, and
      // an entries array (and a pair per key) for each was most of the garbage a run left at its end.
      let copy: Record<string, unknown> | undefined = plain ? undefined : {};
      const source = v as Record<string, unknown>;
      for (const k in source) {
        if (!Object.hasOwn(source, k)) continue;
        const walked = walk(source[k]);
        if (copy) copy[k] = walked;
        else if (walked !== source[k]) (copy = { ...source })[k] = walked;
      }
      return copy ?? v;
    }
    return v;
  };
  return walk(value) as T;
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

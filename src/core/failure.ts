/** Turns anything a driver throws into a classified, redacted ProbeFailure. */
import { ERROR_HINTS, type ErrorClass, type ProbeFailure } from '../shared/errors';
import { cutAtWord, type Redactor } from '../shared/redact';

/** An error the engine raises itself, already classified (timeouts, cancellation, config). */
export class ProbeError extends Error {
  constructor(
    readonly errorClass: ErrorClass,
    message: string,
    /**
     * What to do, when the class's usual hint would point the wrong way: a cold preparation or a
     * workload that failed is not fixed in the connection string, a cut by dbprobe's own timeout names it.
     */
    readonly hint?: string,
  ) {
    super(message);
    this.name = 'ProbeError';
  }
}

/** The same failure with the hint of the step that failed (keeps the class and the message). */
export function withHint(
  error: unknown,
  hint: string,
  driverClassify?: (e: unknown) => ErrorClass | undefined,
): ProbeError {
  if (error instanceof ProbeError && error.errorClass === 'cancelled') return error;
  return new ProbeError(classifyError(error, driverClassify), messageOf(error), hint);
}

// Node's own codes (net, dns, url) only: each driver classifies its database's codes (see Driver.classify).
const CODE_CLASSES: Record<string, ErrorClass> = {
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  EAI_NONAME: 'dns',
  ECONNREFUSED: 'refused',
  EHOSTUNREACH: 'refused',
  ENETUNREACH: 'refused',
  ETIMEDOUT: 'timeout',
  ESOCKETTIMEDOUT: 'timeout',
  ECONNRESET: 'closed',
  EPIPE: 'closed',
  ERR_INVALID_URL: 'config',
  // Node's fetch (undici): a socket the server closed, and its own timeouts.
  UND_ERR_SOCKET: 'closed',
  UND_ERR_CLOSED: 'closed',
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
};

const MESSAGE_RULES: [RegExp, ErrorClass][] = [
  [/timed? ?out|timeout/i, 'timeout'],
  [/certificate|self[- ]signed|\bSSL\b|\bTLS\b|handshake/i, 'tls'],
  // Read-only databases, replicas and missing grants: connected, but this operation is not allowed.
  [
    /read[- ]?only (database|transaction|replica|mode)|attempt to write a readonly|--read-only|\bNOPERM\b|\bREADONLY\b|permission denied for (table|relation|schema|sequence|function)|insufficient privilege/i,
    'permission',
  ],
  [/password|authenticat|access denied|permission denied for database/i, 'auth'],
  [/syntax error|unknown command|does not exist/i, 'query'],
  [/ECONNREFUSED|connection refused/i, 'refused'],
  [/ENOTFOUND|getaddrinfo/i, 'dns'],
  [
    /Connection is closed|connection (terminated|closed|lost|ended)|socket hang up|ECONNRESET|other side closed|WebSocket was closed|connection \d+ to \S+ closed/i,
    'closed',
  ],
  [/invalid url|invalid connection string|unsupported (url|scheme|protocol)/i, 'config'],
];

export function classifyError(
  error: unknown,
  driverClassify?: (e: unknown) => ErrorClass | undefined,
): ErrorClass {
  if (error instanceof ProbeError) return error.errorClass;
  const fromDriver = driverClassify?.(error);
  if (fromDriver) return fromDriver;
  for (const code of errorCodes(error)) {
    const known = CODE_CLASSES[code];
    if (known) return known;
    if (/^ERR_TLS|^ERR_SSL|^CERT_|^UNABLE_TO_|^DEPTH_ZERO|SELF_SIGNED|HOSTNAME_MISMATCH|SSL/.test(code))
      return 'tls';
  }
  const message = messageOf(error);
  for (const [pattern, errorClass] of MESSAGE_RULES) if (pattern.test(message)) return errorClass;
  return 'unknown';
}

/** A failure's message on one line, at most this long. */
const MESSAGE_CHARS = 500;

export function toFailure(
  error: unknown,
  redactor: Redactor,
  driverClassify?: (e: unknown) => ErrorClass | undefined,
): ProbeFailure {
  const errorClass = classifyError(error, driverClassify);
  // Masked before it is cut to length, so no cut leaves part of a secret (shared/redact.ts).
  const message = redactor.quote(messageOf(error), { maxChars: MESSAGE_CHARS }) || errorClass;
  const own = error instanceof ProbeError ? error.hint : undefined;
  return { class: errorClass, message, hint: own ? redactor.redact(own) : ERROR_HINTS[errorClass] };
}

/** The class of the first code in the error's chain that `table` (or `byPattern`) knows. */
export function classifyByCode(
  error: unknown,
  table: Record<string, ErrorClass>,
  byPattern?: (code: string) => ErrorClass | undefined,
): ErrorClass | undefined {
  for (const code of errorCodes(error)) {
    const known = table[code] ?? byPattern?.(code);
    if (known) return known;
  }
  return undefined;
}

function errorCodes(error: unknown): string[] {
  const codes: string[] = [];
  let current: unknown = error;
  // Follow `cause` and AggregateError members: fetch and net wrap the code we want.
  for (let depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const record = current as {
      code?: unknown;
      errno?: unknown;
      cause?: unknown;
      errors?: unknown;
      sourceError?: unknown;
    };
    if (typeof record.code === 'string') codes.push(record.code);
    if (typeof record.errno === 'string') codes.push(record.errno);
    if (Array.isArray(record.errors)) codes.push(...record.errors.flatMap((e) => errorCodes(e)));
    // Neon's NeonDbError keeps the fetch error as `sourceError`, not `cause`.
    current = record.cause ?? record.sourceError;
  }
  return codes;
}

/** The error's message with its cause's, bounded in length before any pattern reads it. */
export function messageOf(error: unknown): string {
  return cutAtWord(fullMessage(error), 2_000, false, '');
}

function fullMessage(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) {
    return [error.message, ...error.errors.slice(0, 10).map(fullMessage)].filter(Boolean).join('; ');
  }
  if (error instanceof Error) {
    const cause = (error as { cause?: unknown }).cause;
    // Some clients (libSQL's Hrana) already repeat the cause in their own message: say it once.
    const causeText =
      cause instanceof Error && cause.message && !error.message.includes(cause.message)
        ? `: ${cause.message}`
        : '';
    return `${error.message}${causeText}`;
  }
  return String(error);
}

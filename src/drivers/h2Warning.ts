/**
 * undici 6 prints "H2 support is experimental" (code UNDICI-H2) on stderr the first time a
 * connection speaks HTTP/2. A target that sets `http.version: "2"` has asked for exactly that, and
 * docs/measuring.md says undici's HTTP/2 is experimental, so the line would only break the CLI's and
 * the runner's output mid-run. Only that one warning is dropped, and only once a session asked for
 * HTTP/2; every other warning goes through unchanged. (undici 8 makes HTTP/2 its default and has no
 * such warning; it needs a newer Node than this tool supports.)
 */
const CODE = 'UNDICI-H2';
let quieted = false;

export function quietUndiciH2Warning(): void {
  if (quieted) return;
  quieted = true;
  const emit = process.emitWarning.bind(process) as (...args: unknown[]) => void;
  process.emitWarning = ((...args: unknown[]) => {
    if (codeOf(args[1]) === CODE || codeOf(args[2]) === CODE) return;
    emit(...args);
  }) as typeof process.emitWarning;
}

/** emitWarning(message, { code }) or emitWarning(message, type, code). */
function codeOf(arg: unknown): unknown {
  if (typeof arg === 'string') return arg;
  return typeof arg === 'object' && arg !== null ? (arg as { code?: unknown }).code : undefined;
}

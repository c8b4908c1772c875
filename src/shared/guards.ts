/**
 * The guards every protocol runs on what arrives before trusting it: webview messages
 * (messages.ts), probe-thread messages (probeThreadMessages.ts) and runner API bodies (runnerApi.ts), and
 * the plan's definition (src/shared/schema/). One definition of each, so two
 * sides of one boundary never disagree on what "an object" or "a count" is.
 */

/** A plain JSON-like object: not null, not an array. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A finite number, 0 or more (a count, a duration in ms). */
export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

/** An array of strings (empty included). */
export function isStringArray(value: unknown): value is string[] {
  return Array.isArray(value) && value.every((s) => typeof s === 'string');
}

/** One of a fixed list of values (a union of string literals). */
export function isOneOf<T>(value: unknown, allowed: readonly T[]): value is T {
  return (allowed as readonly unknown[]).includes(value);
}

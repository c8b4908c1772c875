/** Shared by the fetch-based drivers: HTTP statuses as error classes, and what counts as loopback. */
import type { ErrorClass } from '../shared/errors';
import { quoteOutput } from '../shared/redact';

/** A response whose status the driver did not expect; the body excerpt helps the user. */
export class HttpStatusError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'HttpStatusError';
  }
}

export function classifyHttpStatus(status: number): ErrorClass | undefined {
  if (status === 401 || status === 403 || status === 407) return 'auth';
  if (status === 408 || status === 504) return 'timeout';
  if (status >= 400 && status < 500 && status !== 429) return 'query';
  return undefined;
}

/** The class of an HttpStatusError (or anything carrying a numeric `status`), else undefined. */
export function classifyStatusError(error: unknown): ErrorClass | undefined {
  if (error instanceof HttpStatusError) return classifyHttpStatus(error.status);
  return undefined;
}

export function isLoopbackHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The first characters of a response body, on one line, for an error message (quoteOutput). */
export async function bodyExcerpt(response: Response, max = 200): Promise<string> {
  const text = await response.text().catch(() => '');
  return quoteOutput(text, { maxChars: max });
}

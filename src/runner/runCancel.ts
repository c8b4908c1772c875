/**
 * POST /v1/runs/{runId}/cancel: stops a run of this instance the way a Ctrl-C stops a local one. The
 * run then finishes its stream with `done` and the partial result (a load level's figures so far),
 * which a caller that merely hung up would never get. A run id is the `start` event's `runId`.
 */
import { errorResponse, json } from './responses';

const CANCEL_PATH = /\/v1\/runs\/([A-Za-z0-9_-]{1,100})\/cancel$/;

/** The response for a cancel request, or undefined when the path is not one. */
export function cancelRoute(
  path: string,
  method: string,
  running: ReadonlyMap<string, AbortController>,
): Response | undefined {
  // Bounded before the pattern sees it: a run id is short.
  if (path.length > 200 || !path.endsWith('/cancel')) return undefined;
  const match = CANCEL_PATH.exec(path);
  if (!match?.[1]) return undefined;
  if (method !== 'POST') return errorResponse(405, 'method_not_allowed', 'Use POST /v1/runs/{runId}/cancel.');
  const run = running.get(match[1]);
  if (!run)
    return errorResponse(
      404,
      'not_found',
      'No such run on this runner instance: it has finished, or another instance runs it (hang up instead).',
    );
  run.abort();
  return json(202, { cancelled: match[1] });
}

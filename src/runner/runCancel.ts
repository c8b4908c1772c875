/**
 * The cancel route (RUNNER_ROUTES.cancel): stops a run of this instance the way a Ctrl-C stops a
 * local one. The run then finishes its stream with `done` and the partial result (a load level's figures so far),
 * which a caller that merely hung up would never get. A run id is the `start` event's `runId`.
 */
import { cancelledRunId, RUNNER_ROUTES, type RunCancelled } from '../shared/runnerApi';
import { errorResponse, json } from './responses';

/** The response for a cancel request, or undefined when the path is not one. */
export function cancelRoute(
  path: string,
  method: string,
  running: ReadonlyMap<string, AbortController>,
): Response | undefined {
  const runId = cancelledRunId(path);
  if (runId === undefined) return undefined;
  if (method !== 'POST')
    return errorResponse(405, 'method_not_allowed', `Use POST ${RUNNER_ROUTES.cancelForm}.`);
  const run = running.get(runId);
  if (!run)
    return errorResponse(
      404,
      'not_found',
      'No such run on this runner instance: it has finished, or another instance runs it (hang up instead).',
    );
  run.abort();
  const answer: RunCancelled = { cancelled: runId };
  return json(202, answer);
}

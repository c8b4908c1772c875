/** JSON and NDJSON responses of the runner. */
import type { RunnerErrorBody, RunnerErrorCode, RunnerLimits } from '../shared/runnerApi';

const JSON_HEADERS = { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' };

export function json(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: JSON_HEADERS });
}

export function errorResponse(
  status: number,
  code: RunnerErrorCode,
  message: string,
  limit?: keyof RunnerLimits,
): Response {
  const body: RunnerErrorBody = { error: { code, message, limit } };
  return json(status, body);
}

export const NDJSON_HEADERS = {
  'content-type': 'application/x-ndjson; charset=utf-8',
  'cache-control': 'no-store',
  // Proxies (nginx, some platforms) buffer responses unless told not to: progress must flow.
  'x-accel-buffering': 'no',
};

/**
 * The runner's HTTP API, shared by the runner, the CLI and the extension.
 *   GET  /v1/health            -> RunnerHealth
 *   POST /v1/runs              (RunRequest) -> NDJSON stream of ProbeEvent, the last one `done` with
 *                              the result
 *   POST /v1/runs/{id}/cancel  -> 202 RunCancelled: the run stops as on Ctrl-C and ends its stream
 *                              with `done` and the partial result; 404 when this instance does not
 *                              run it (a platform with several instances: hang up instead)
 * Errors are JSON RunnerErrorBody with a 4xx/5xx status. The paths are built here only, from the
 * version: the runner matches them and the client (src/places/runnerClient.ts) calls them.
 */
import type { ProbeEvent } from './events';
import { isRecord, isStringArray } from './guards';
import type { RawRequest } from './loadResult';

export const RUNNER_API_VERSION = 'v1';

const BASE = `/${RUNNER_API_VERSION}`;

export const RUNNER_ROUTES = {
  health: `${BASE}/health`,
  runs: `${BASE}/runs`,
  /** A run's id is the `runId` of its `start` event. */
  cancel: (runId: string) => `${BASE}/runs/${encodeURIComponent(runId)}/cancel`,
  /** The cancel route as messages name it. */
  cancelForm: `${BASE}/runs/{runId}/cancel`,
} as const;

/** Run ids are short and URL-safe: anything else in that place is no cancel route. */
const CANCEL_PATH = new RegExp(`${BASE}/runs/([A-Za-z0-9_-]{1,100})/cancel$`);

/** The run id of a cancel route's path, or undefined when the path is not one. */
export function cancelledRunId(path: string): string | undefined {
  // Bounded before the pattern sees it: a run id is short.
  if (path.length > 200 || !path.endsWith('/cancel')) return undefined;
  return CANCEL_PATH.exec(path)?.[1];
}

/** What a runner answers a cancel it took. */
export interface RunCancelled {
  cancelled: string;
}

export interface RunnerHealth {
  version: string;
  runtime: string;
  region: string;
  drivers: string[];
  limits: RunnerLimits;
  /** True when the runner accepts connection strings in plans (off by default). */
  acceptsClientConnections: boolean;
}

export interface RunnerLimits {
  maxBodyBytes: number;
  maxIterations: number;
  maxWarmup: number;
  maxTargets: number;
  maxDurationMs: number;
  maxConcurrentRuns: number;
}

export interface RunRequest {
  /** A plan as the engine validates it: targets name connections by reference (`env:VAR`). */
  plan: unknown;
  /**
   * Connection strings by target name, only for runners started with
   * DBPROBE_ALLOW_CLIENT_CONNECTIONS=1 and a host allowlist.
   */
  connections?: Record<string, string>;
  /**
   * Stream every load and schedule request too (`requests` lines, before `done`), for the caller's
   * per-request output (`dbprobe run --raw`).
   */
  requests?: boolean;
}

export type RunnerErrorCode =
  | 'unauthorized'
  | 'not_configured'
  | 'not_found'
  | 'method_not_allowed'
  | 'body_too_large'
  | 'bad_json'
  | 'bad_plan'
  | 'limit_exceeded'
  | 'too_many_runs'
  | 'connection_refused_by_policy'
  | 'internal';

export interface RunnerErrorBody {
  error: {
    code: RunnerErrorCode;
    message: string;
    /** Which limit was breached, for limit errors. */
    limit?: keyof RunnerLimits;
  };
}

/** One NDJSON line of a run stream. */
export type RunStreamLine =
  | ProbeEvent
  | { type: 'fatal'; error: RunnerErrorBody['error'] }
  /** Requests as they ended, batched; only when the RunRequest asked for them. */
  | { type: 'requests'; requests: RawRequest[] };

/** A `GET /v1/health` answer, checked before the editor trusts it. */
export function isRunnerHealth(value: unknown): value is RunnerHealth {
  return (
    isRecord(value) &&
    typeof value.version === 'string' &&
    typeof value.runtime === 'string' &&
    typeof value.region === 'string' &&
    isStringArray(value.drivers) &&
    typeof value.acceptsClientConnections === 'boolean' &&
    typeof value.limits === 'object' &&
    value.limits !== null
  );
}

export function isRunnerErrorBody(value: unknown): value is RunnerErrorBody {
  return (
    isRecord(value) &&
    isRecord(value.error) &&
    typeof value.error.code === 'string' &&
    typeof value.error.message === 'string'
  );
}

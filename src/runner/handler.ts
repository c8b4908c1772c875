/**
 * The runner: a Web-standard fetch handler `(Request) => Promise<Response>` around the engine, so the
 * same code serves a Node server, a Vercel function, a Lambda function URL and a Cloudflare Worker.
 */
import type { Clock } from '../core/clock';
import type { DriverRegistry } from '../core/driver';
import { runPlan, type EngineDeps } from '../core/engine';
import type { CaFileReader } from '../core/tlsTrust';
import { formatIssues, validatePlan } from '../core/validate/validatePlan';
import { isRecord } from '../shared/guards';
import type { RawRequest } from '../shared/loadResult';
import type { PlanSpec } from '../shared/plan';
import { secretsInEnvironment } from '../shared/envSecrets';
import { Redactor } from '../shared/redact';
import type { RunResult } from '../shared/result';
import { RUNNER_ROUTES, type RunRequest, type RunnerHealth, type RunStreamLine } from '../shared/runnerApi';
import { TOOL } from '../shared/version';
import { bearerToken, tokenMatches } from './auth';
import type { RunnerConfig } from './runnerConfig';
import { planLimitBreach } from '../shared/runnerPlanLimits';
import { readLimitedBody } from './readBody';
import { errorResponse, json, NDJSON_HEADERS } from './responses';
import { cancelRoute } from './runCancel';
import { resolveTargets } from './targets';

export type FetchHandler = (request: Request) => Promise<Response>;

/** A run's request lines are sent at least this often, or once this many are waiting. */
const REQUEST_BATCH_MS = 100;
const REQUEST_BATCH_MAX = 1_000;

export interface RunnerDeps {
  config: RunnerConfig;
  registry: DriverRegistry;
  clock?: Clock;
  /** Region from the request itself (Cloudflare's colo), when the platform says so per request. */
  regionOf?: (request: Request) => string | undefined;
  /** Watch mode: GET /metrics answers this Prometheus text; `open` serves it without the token. */
  metrics?: { render: () => Promise<{ body: string; contentType: string }>; open: boolean };
  /**
   * Runs a plan; the engine in this thread by default. The Node runner spreads load runs over
   * probing threads here (threadsRunner.ts); platforms without worker threads keep the default.
   */
  runPlan?: (plan: PlanSpec, engine: EngineDeps) => Promise<RunResult>;
}

export function createRunnerHandler(deps: RunnerDeps): FetchHandler {
  const { config } = deps;
  let activeRuns = 0;
  /** Runs in this instance by run id, so the cancel route can stop one (see runCancel.ts). */
  const running = new Map<string, AbortController>();
  const driverIds = () => deps.registry.ids().filter((id) => !config.drivers || config.drivers.includes(id));
  // The runner's own secrets, masked in every run beside the run's connections: its token and what
  // its environment holds (src/shared/envSecrets.ts), which a driver's or server's error may echo.
  const ownSecrets = [config.token, ...secretsInEnvironment(config.env)];

  return async (request) => {
    const path = new URL(request.url).pathname.replace(/\/+$/, '');
    if (!config.token) {
      return errorResponse(
        503,
        'not_configured',
        'This runner has no DBPROBE_TOKEN: set it in the platform environment and redeploy.',
      );
    }
    if (path === '/metrics' && deps.metrics?.open) return metricsResponse(request, deps.metrics.render);
    const presented = bearerToken(request);
    if (!presented || !(await tokenMatches(presented, config.token))) {
      return errorResponse(
        401,
        'unauthorized',
        'Missing or wrong bearer token: send Authorization: Bearer <DBPROBE_TOKEN>.',
      );
    }
    if (path.endsWith(RUNNER_ROUTES.health)) {
      if (request.method !== 'GET')
        return errorResponse(405, 'method_not_allowed', `Use GET ${RUNNER_ROUTES.health}.`);
      const health: RunnerHealth = {
        version: TOOL.version,
        runtime: config.runtime,
        region: deps.regionOf?.(request) ?? config.region,
        drivers: driverIds(),
        limits: config.limits,
        acceptsClientConnections: config.allowClientConnections,
      };
      return json(200, health);
    }
    if (path === '/metrics' && deps.metrics) return metricsResponse(request, deps.metrics.render);
    const cancelled = cancelRoute(path, request.method, running);
    if (cancelled) return cancelled;
    if (!path.endsWith(RUNNER_ROUTES.runs))
      return errorResponse(
        404,
        'not_found',
        `Unknown path: use GET ${RUNNER_ROUTES.health} or POST ${RUNNER_ROUTES.runs}.`,
      );
    if (request.method !== 'POST')
      return errorResponse(405, 'method_not_allowed', `Use POST ${RUNNER_ROUTES.runs} with a JSON plan.`);

    const body = await readLimitedBody(request, config.limits.maxBodyBytes);
    if (!body.ok) {
      return errorResponse(
        413,
        'body_too_large',
        `The request body is over ${config.limits.maxBodyBytes} bytes.`,
        'maxBodyBytes',
      );
    }
    let runRequest: RunRequest;
    try {
      runRequest = JSON.parse(body.text) as RunRequest;
    } catch {
      return errorResponse(400, 'bad_json', 'The body is not valid JSON: send {"plan": {...}}.');
    }
    if (typeof runRequest !== 'object' || runRequest === null || Array.isArray(runRequest))
      return errorResponse(400, 'bad_json', 'The body must be a JSON object: {"plan": {...}}.');
    if (!isConnectionMap(runRequest.connections))
      return errorResponse(
        400,
        'bad_json',
        '"connections" must be an object mapping target names to connection strings.',
      );
    const validated = validatePlan(runRequest.plan, driverIds());
    if (!validated.ok)
      return errorResponse(
        400,
        'bad_plan',
        `The plan has problems: ${formatIssues(validated.issues).replace(/\n/g, '; ')}`,
      );
    const plan = validated.value;
    const limits = config.limits;
    const breach = planLimitBreach(plan, limits);
    if (breach) return errorResponse(400, 'limit_exceeded', breach.message, breach.limit);
    // The runner's duration limit is enforced through the run's own timeout: the result says so.
    plan.timeouts.runMs = Math.min(plan.timeouts.runMs, limits.maxDurationMs);

    const resolution = resolveTargets(
      plan,
      runRequest.connections,
      config,
      (driver) => deps.registry.info(driver)?.endpointOptions ?? [],
    );
    if (!resolution.ok) return errorResponse(resolution.status, resolution.code, resolution.message);
    if (activeRuns >= limits.maxConcurrentRuns) {
      return errorResponse(
        429,
        'too_many_runs',
        `This runner is already running ${activeRuns} runs (limit ${limits.maxConcurrentRuns}); retry when one finishes.`,
        'maxConcurrentRuns',
      );
    }

    activeRuns++;
    const redactor = new Redactor();
    for (const secret of ownSecrets) redactor.addSecret(secret);
    for (const secret of resolution.connections.values()) redactor.addSecret(secret);
    const cancel = new AbortController();
    const onClientGone = () => cancel.abort();
    request.signal.addEventListener('abort', onClientGone, { once: true });
    const region = deps.regionOf?.(request) ?? config.region;
    const encoder = new TextEncoder();

    const stream = new ReadableStream<Uint8Array>({
      async start(controller) {
        let runId: string | undefined;
        // The run's requests, when asked for: sent in batches, all of them before `done`.
        let requests: RawRequest[] = [];
        let requestTimer: ReturnType<typeof setTimeout> | undefined;
        const sendRequests = () => {
          clearTimeout(requestTimer);
          requestTimer = undefined;
          if (requests.length === 0) return;
          const batch = requests;
          requests = [];
          send({ type: 'requests', requests: batch });
        };
        const addRequest = (request: RawRequest) => {
          requests.push(request);
          if (requests.length >= REQUEST_BATCH_MAX) sendRequests();
          else requestTimer ??= setTimeout(sendRequests, REQUEST_BATCH_MS);
        };
        const send = (line: RunStreamLine) => {
          if ((line.type === 'done' || line.type === 'fatal') && requests.length > 0) sendRequests();
          if (line.type === 'start') {
            runId = line.runId;
            running.set(runId, cancel);
          }
          // A run cancelled by its caller still sends its result; a caller that went away gets nothing.
          if (request.signal.aborted) return;
          try {
            controller.enqueue(encoder.encode(redactor.redact(JSON.stringify(line)) + '\n'));
          } catch {
            // The reader went away between the check and the write: the abort below handles it.
          }
        };
        try {
          await (deps.runPlan ?? runPlan)(plan, {
            registry: deps.registry,
            resolveConnection: async (target) => resolution.connections.get(target.name) ?? '',
            tool: TOOL,
            signal: cancel.signal,
            redactor,
            onEvent: send,
            ...(runRequest.requests === true ? { onRequest: addRequest } : {}),
            location: { kind: 'runner', label: `runner ${region}`, region },
            // A plan from a remote client must not make the runner read its files.
            readCaFile: refuseCaFile,
            clock: deps.clock,
          });
        } catch (error) {
          send({
            type: 'fatal',
            error: {
              code: 'internal',
              message: redactor.redact(error instanceof Error ? error.message : String(error)),
            },
          });
        } finally {
          clearTimeout(requestTimer);
          if (runId) running.delete(runId);
          activeRuns--;
          request.signal.removeEventListener('abort', onClientGone);
          try {
            controller.close();
          } catch {
            // Already closed because the client cancelled.
          }
        }
      },
      cancel() {
        cancel.abort();
      },
    });
    return new Response(stream, { status: 200, headers: NDJSON_HEADERS });
  };
}

async function metricsResponse(
  request: Request,
  render: () => Promise<{ body: string; contentType: string }>,
): Promise<Response> {
  if (request.method !== 'GET' && request.method !== 'HEAD')
    return errorResponse(405, 'method_not_allowed', 'Use GET /metrics.');
  const { body, contentType } = await render();
  return new Response(request.method === 'HEAD' ? null : body, {
    status: 200,
    headers: { 'content-type': contentType },
  });
}

function isConnectionMap(value: unknown): value is Record<string, string> | undefined {
  if (value === undefined) return true;
  return isRecord(value) && Object.values(value).every((v) => typeof v === 'string');
}
const refuseCaFile: CaFileReader = () =>
  Promise.reject(
    new Error(
      'a runner does not read files named by the plan it is sent; trust a private CA on the runner with NODE_EXTRA_CA_CERTS instead',
    ),
  );

/** Runner settings, read from the platform's environment. */
import { RUNNER_DEFAULT_LIMITS } from '../shared/runnerPlanLimits';
import type { RunnerLimits } from '../shared/runnerApi';

export interface RunnerConfig {
  token: string | undefined;
  region: string;
  runtime: string;
  limits: RunnerLimits;
  allowClientConnections: boolean;
  /** Hosts a client-supplied connection string may point at (exact names or `*.suffix`). */
  allowedHosts: string[];
  /** Where `env:VAR` references resolve: the runner's own environment. */
  env: Record<string, string | undefined>;
  /** Node server only: time a client has to send its headers, and its whole request. */
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  /** Restricts drivers (Workers can only use HTTP drivers). */
  drivers?: string[];
}

const REGION_VARIABLES = [
  'DBPROBE_REGION',
  'VERCEL_REGION',
  'AWS_REGION',
  'FLY_REGION',
  'RAILWAY_REPLICA_REGION',
];

export function configFromEnv(env: Record<string, string | undefined>, runtime: string): RunnerConfig {
  const number = (name: string, fallback: number) => {
    const value = Number(env[name]);
    return Number.isInteger(value) && value > 0 ? value : fallback;
  };
  return {
    token: env.DBPROBE_TOKEN?.trim() || undefined,
    region: REGION_VARIABLES.map((name) => env[name]).find((v) => v && v.trim()) ?? 'unknown',
    runtime,
    limits: {
      maxBodyBytes: number('DBPROBE_MAX_BODY_BYTES', RUNNER_DEFAULT_LIMITS.maxBodyBytes),
      maxIterations: number('DBPROBE_MAX_ITERATIONS', RUNNER_DEFAULT_LIMITS.maxIterations),
      maxWarmup: number('DBPROBE_MAX_WARMUP', RUNNER_DEFAULT_LIMITS.maxWarmup),
      maxTargets: number('DBPROBE_MAX_TARGETS', RUNNER_DEFAULT_LIMITS.maxTargets),
      maxDurationMs: number('DBPROBE_MAX_DURATION_MS', RUNNER_DEFAULT_LIMITS.maxDurationMs),
      maxConcurrentRuns: number('DBPROBE_MAX_CONCURRENT_RUNS', RUNNER_DEFAULT_LIMITS.maxConcurrentRuns),
    },
    headersTimeoutMs: number('DBPROBE_HEADERS_TIMEOUT_MS', 10_000),
    requestTimeoutMs: number('DBPROBE_REQUEST_TIMEOUT_MS', 30_000),
    allowClientConnections: env.DBPROBE_ALLOW_CLIENT_CONNECTIONS === '1',
    allowedHosts: (env.DBPROBE_ALLOWED_HOSTS ?? '')
      .split(',')
      .map((h) => h.trim().toLowerCase())
      .filter(Boolean),
    env,
  };
}

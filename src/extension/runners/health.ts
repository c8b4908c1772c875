/**
 * Asks a runner's health route through the runner client (src/places/runnerClient.ts, which checks
 * the answer's shape) with its token, within a time bound, and says what answered. Used when a
 * runner is added (nothing is saved on a failure unless the user says so) and before each run (the
 * answer tells which drivers the runner has and whether it accepts connection strings).
 */
import { RUNNER_ROUTES, type RunnerHealth } from '../../shared/runnerApi';

export const HEALTH_TIMEOUT_MS = 10_000;

export type HealthCheck = { ok: true; health: RunnerHealth } | { ok: false; problem: string };

export async function checkRunnerHealth(
  url: string,
  token: string,
  timeoutMs = HEALTH_TIMEOUT_MS,
): Promise<HealthCheck> {
  // The runner client (and the result builder under it) loads on first use, not at activation.
  const { fetchRunnerHealth, NOT_A_RUNNER } = await import('../../places/runnerClient');
  try {
    return { ok: true, health: await fetchRunnerHealth(url, token, AbortSignal.timeout(timeoutMs)) };
  } catch (error) {
    const { status, code, name } = error as { status?: number; code?: string; name?: string };
    if (code === NOT_A_RUNNER) return notARunner(url);
    if (status === 401) {
      return {
        ok: false,
        problem: `${url} refused the token (401): check that it is the runner's DBPROBE_TOKEN`,
      };
    }
    if (name === 'TimeoutError' || name === 'AbortError' || /timeout|aborted/i.test(String(error))) {
      return {
        ok: false,
        problem: `${url} did not answer within ${timeoutMs / 1000} s: check the URL, and that the runner is up and reachable from this machine`,
      };
    }
    return { ok: false, problem: error instanceof Error ? error.message : String(error) };
  }
}

/** One line for a notification: where the runner is, what it runs, what it accepts. */
export function describeHealth(health: RunnerHealth): string {
  return `region ${health.region}, ${health.runtime}, dbprobe ${health.version}; drivers: ${health.drivers.join(', ') || 'none'}; connection strings from the editor: ${health.acceptsClientConnections ? 'accepted (it asks you per run)' : 'refused (targets use its own env:VAR)'}`;
}

function notARunner(url: string): HealthCheck {
  return {
    ok: false,
    problem: `${url} answered, but not like a DB Probe runner (no health report at ${RUNNER_ROUTES.health}): check the URL`,
  };
}

/**
 * Before a fan-out starts any place: every runner answers its health route with our token and has
 * the drivers the plan needs. A runner that is down, refuses the token or lacks a driver stops the
 * run before it begins, instead of leaving a merged report without its share.
 */
import { TimeoutSignal } from '../core/timeoutSignal';
import { fetchRunnerHealth } from '../places/runnerClient';
import type { PlanSpec } from '../shared/plan';
import type { Redactor } from '../shared/redact';
import { CliError, EXIT } from './cliError';

/** A health answer takes one round trip; this bound covers a slow platform's cold start. */
export const PREFLIGHT_TIMEOUT_MS = 10_000;

export async function checkRunners(
  runners: readonly string[],
  token: string,
  plan: Pick<PlanSpec, 'targets'>,
  redactor: Redactor,
  signal: AbortSignal,
  timeoutMs = PREFLIGHT_TIMEOUT_MS,
): Promise<void> {
  const problems = await Promise.all(
    runners.map(async (url): Promise<string | undefined> => {
      // Its own timer (see core/timeoutSignal.ts): a timeout signal under AbortSignal.any is lost to GC.
      const bound = new TimeoutSignal(timeoutMs, signal);
      try {
        const health = await fetchRunnerHealth(url, token, bound.signal);
        const missing = [...new Set(plan.targets.map((t) => t.driver))].filter(
          (d) => !health.drivers.includes(d),
        );
        if (missing.length > 0)
          return `runner ${url} has no driver ${missing.join(', ')} (it has ${health.drivers.join(', ')}); run those targets elsewhere or deploy a runner with them`;
        return undefined;
      } catch (error) {
        if (bound.timedOut)
          return `runner ${url} did not answer its health check within ${timeoutMs} ms; check that the runner is up and reachable from here`;
        const message = error instanceof Error ? error.message : String(error);
        return signal.aborted ? 'cancelled before the fan-out started' : message;
      } finally {
        bound.dispose();
      }
    }),
  );
  const first = problems.find((p) => p !== undefined);
  if (first === undefined) return;
  const others = problems.filter((p) => p !== undefined).length - 1;
  throw new CliError(
    `${redactor.redact(first)}${others > 0 ? ` (and ${others} more runner${others === 1 ? '' : 's'})` : ''}; the fan-out did not start, nothing was measured`,
    signal.aborted ? EXIT.cancelled : EXIT.targetFailed,
  );
}

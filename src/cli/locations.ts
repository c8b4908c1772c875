/** Where a CLI run happens: this machine (the engine in-process) or a remote runner. */
import { runPlan } from '../core/engine';
import type { DriverRegistry } from '../core/driver';
import { RunnerClientError, runRemote } from '../runner/client';
import type { ProbeEvent } from '../shared/events';
import type { PlanSpec } from '../shared/plan';
import type { Redactor } from '../shared/redact';
import type { RunResult } from '../shared/result';
import { TOOL } from '../shared/version';

export interface LocationOutcome {
  result?: RunResult;
  /** What went wrong with the place itself (runner unreachable or killed), beside any partial result. */
  error?: string;
}

export interface Location {
  label: string;
  run(onEvent: ((event: ProbeEvent) => void) | undefined, signal: AbortSignal): Promise<LocationOutcome>;
}

export function localLocation(
  plan: PlanSpec,
  registry: DriverRegistry,
  redactor: Redactor,
  connections: Map<string, string>,
): Location {
  return {
    label: 'this machine',
    run: async (onEvent, signal) => ({
      result: await runPlan(plan, {
        registry,
        redactor,
        tool: TOOL,
        signal,
        resolveConnection: async (target) => connections.get(target.name) ?? '',
        ...(onEvent ? { onEvent } : {}),
      }),
    }),
  };
}

export function runnerLocation(url: string, token: string, plan: PlanSpec): Location {
  return {
    label: url,
    async run(onEvent, signal) {
      try {
        const outcome = await runRemote({
          url,
          token,
          request: { plan },
          signal,
          ...(onEvent ? { onEvent } : {}),
        });
        return { result: outcome.result, ...(outcome.error ? { error: outcome.error.message } : {}) };
      } catch (error) {
        return {
          error: error instanceof RunnerClientError ? error.message : `runner ${url}: ${String(error)}`,
        };
      }
    },
  };
}

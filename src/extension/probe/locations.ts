/**
 * Where a probe runs: this machine (the engine in the extension host) or a remote runner (the same
 * engine, its events streamed as NDJSON; see runnerLocation.ts). Every place answers with a result,
 * an error, or both: a runner that dies mid-run leaves the partial result rebuilt from its samples.
 */
import type { ConnectionResolver } from '../../core/slot';
import type { DriverRegistry } from '../../core/driver';
import type { ProbeEventListener } from '../../shared/events';
import type { PlanSpec } from '../../shared/plan';
import type { Redactor } from '../../shared/redact';
import type { RunResult } from '../../shared/result';
import { TOOL } from '../../shared/version';

export interface RunRequest {
  plan: PlanSpec;
  resolveConnection: ConnectionResolver;
  redactor: Redactor;
  signal: AbortSignal;
  onEvent: ProbeEventListener;
}

export interface LocationOutcome {
  /** Complete, cancelled, or partial (when `error` says the place failed mid-run). */
  result?: RunResult;
  /** What went wrong with the place itself, naming it; already meant for the user's eyes. */
  error?: string;
}

export interface ProbeLocation {
  id: string;
  /** How results from here are labelled: "this machine", or the runner's region. */
  label: string;
  description: string;
  kind: 'local' | 'runner';
  /** The runner's configured name, for runner places. */
  runner?: string;
  run(request: RunRequest): Promise<LocationOutcome>;
}

export const LOCAL_LABEL = 'this machine';

export function localLocation(registry: DriverRegistry): ProbeLocation {
  return {
    id: 'local',
    label: LOCAL_LABEL,
    description: 'the VS Code extension host, where this editor runs its extensions',
    kind: 'local',
    async run(request) {
      // The engine (and its histogram library) loads on the first probe, not at activation.
      const { runPlan } = await import('../../core/engine');
      const result = await runPlan(request.plan, {
        registry,
        tool: TOOL,
        location: { kind: 'local', label: 'this machine (VS Code)' },
        ...request,
      });
      return { result };
    },
  };
}

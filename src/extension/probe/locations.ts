/**
 * Where a probe runs. Today only this machine; remote runners (DESIGN.md: same engine, events over
 * NDJSON) plug in here as more ProbeLocations, and the "where to run" step lists them.
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

export interface ProbeLocation {
  id: string;
  label: string;
  description: string;
  run(request: RunRequest): Promise<RunResult>;
}

export function localLocation(registry: DriverRegistry): ProbeLocation {
  return {
    id: 'local',
    label: '$(vm) This machine',
    description: 'the VS Code extension host, where this editor runs its extensions',
    async run(request) {
      // The engine (and its histogram library) loads on the first probe, not at activation.
      const { runPlan } = await import('../../core/engine');
      return runPlan(request.plan, {
        registry,
        tool: TOOL,
        location: { kind: 'local', label: 'this machine (VS Code)' },
        ...request,
      });
    },
  };
}

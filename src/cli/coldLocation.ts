/**
 * This machine as a place that can run the `cold` kind: the engine gets a preparer that reads the
 * Neon API key from the environment and may run suspend commands (the user wrote them in their own
 * config and runs the CLI themselves). Fold into the local place when places are reshaped.
 */
import { createColdPreparer } from '../cold/preparer';
import type { DriverRegistry } from '../core/driver';
import { runPlan } from '../core/engine';
import type { PlanSpec } from '../shared/plan';
import type { Redactor } from '../shared/redact';
import { TOOL } from '../shared/version';
import type { Location } from './locations';

export function localColdLocation(
  plan: PlanSpec,
  registry: DriverRegistry,
  redactor: Redactor,
  connections: Map<string, string>,
  env: NodeJS.ProcessEnv,
): Location {
  const cold = createColdPreparer({
    resolveReference: async (reference) => {
      if (reference.startsWith('env:')) return env[reference.slice(4)];
      throw new Error(
        `"${reference}" lives in VS Code's secret storage, which the CLI cannot read; use "env:NEON_API_KEY" in cold.neon.apiKey and set that variable`,
      );
    },
    allowCommands: true,
  });
  return {
    label: 'this machine',
    run: async (onEvent, signal) => ({
      result: await runPlan(plan, {
        registry,
        redactor,
        tool: TOOL,
        signal,
        cold,
        resolveConnection: async (target) => connections.get(target.name) ?? '',
        ...(onEvent ? { onEvent } : {}),
      }),
    }),
  };
}

/** The commands a cold run will execute, said before the run starts. */
export function describeSuspendCommands(plan: PlanSpec): string[] {
  if (!plan.kinds.includes('cold')) return [];
  return plan.targets.flatMap((t) =>
    t.cold?.mode === 'command' && t.cold.command
      ? [`target "${t.name}" runs this suspend command before each cold sample: ${t.cold.command.join(' ')}`]
      : [],
  );
}

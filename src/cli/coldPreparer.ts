/**
 * How the CLI makes targets cold for the `cold` kind: the Neon API key comes from the environment,
 * and suspend commands may run (the user wrote them in their own config and runs the CLI themselves;
 * each is said on stderr before the run).
 */
import { createColdPreparer } from '../cold/preparer';
import type { ColdPreparer } from '../core/cold';
import type { PlanSpec } from '../shared/plan';

export function cliColdPreparer(env: NodeJS.ProcessEnv): ColdPreparer {
  return createColdPreparer({
    resolveReference: async (reference) => {
      if (reference.startsWith('env:')) return env[reference.slice(4)];
      throw new Error(
        `"${reference}" lives in VS Code's secret storage, which the CLI cannot read; use "env:NEON_API_KEY" in cold.neon.apiKey and set that variable`,
      );
    },
    allowCommands: true,
  });
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

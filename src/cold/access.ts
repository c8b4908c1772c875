/**
 * What a caller allows the cold kind to do, as plain data: the Neon API keys it resolved and whether
 * suspend commands may run. Plain data so it can cross into wherever the engine runs (the extension
 * host today, a worker thread tomorrow) and become a preparer there.
 */
import type { ColdPreparer } from '../core/cold';
import { createColdPreparer } from './preparer';

export interface ColdAccess {
  /** Resolved Neon API keys by the reference a target names (`env:NEON_API_KEY`, `secret:NAME`). */
  neonApiKeys: Record<string, string>;
  allowCommands: boolean;
  /** Why commands are refused, for the error a target with a suspend command then gets. */
  commandsRefusedBecause?: string;
}

export function coldPreparerFor(access: ColdAccess): ColdPreparer {
  return createColdPreparer({
    resolveReference: async (reference) => access.neonApiKeys[reference],
    allowCommands: access.allowCommands,
    ...(access.commandsRefusedBecause ? { commandsRefusedBecause: access.commandsRefusedBecause } : {}),
  });
}

/**
 * What a caller allows the cold kind to do, as plain data: the Neon API keys it resolved and whether
 * suspend commands may run. Plain data so it can cross into wherever the engine runs (the editor's
 * probe thread, src/probeThread/) and become a preparer there.
 */
import type { ColdPreparer } from '../core/cold';
import type { ColdAccess } from '../shared/probeThreadMessages';
import { createColdPreparer } from './preparer';

export type { ColdAccess };

export function coldPreparerFor(access: ColdAccess): ColdPreparer {
  return createColdPreparer({
    resolveReference: async (reference) => access.neonApiKeys[reference],
    allowCommands: access.allowCommands,
    ...(access.commandsRefusedBecause ? { commandsRefusedBecause: access.commandsRefusedBecause } : {}),
  });
}

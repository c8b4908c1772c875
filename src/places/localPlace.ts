/** This machine as a place: the engine runs in this process (the CLI's, or the extension host). */
import type { ColdPreparer } from '../core/cold';
import type { DriverRegistry } from '../core/driver';
import type { RawRequest } from '../shared/loadResult';
import type { RunEnvironment } from '../shared/result';
import { TOOL } from '../shared/version';
import type { Place } from './place';

export const LOCAL_LABEL = 'this machine';

export interface LocalPlaceOptions {
  registry: DriverRegistry;
  description: string;
  /** How the result names where it ran; the engine's default ("this machine") when absent. */
  location?: RunEnvironment['location'];
  /** Makes targets cold for the `cold` kind (Neon API, commands); without it only idle-wait runs. */
  cold?: ColdPreparer;
  /** Every load/schedule request as it ends (the CLI's `--raw`). */
  onRequest?: (request: RawRequest) => void;
  /** The per-run readings of the database's own time (EngineDeps.serverTimeRuns; on by default). */
  serverTimeRuns?: boolean;
}

export function localPlace(options: LocalPlaceOptions): Place {
  const { registry, description, location, cold, onRequest, serverTimeRuns } = options;
  return {
    id: 'local',
    label: LOCAL_LABEL,
    description,
    kind: 'local',
    async run(run) {
      // The engine (and its histogram library) loads on the first run, not when the place is made:
      // the extension makes this place at activation.
      const { runPlan } = await import('../core/engine');
      const result = await runPlan(run.plan, {
        registry,
        tool: TOOL,
        resolveConnection: run.resolveConnection,
        redactor: run.redactor,
        signal: run.signal,
        onEvent: run.onEvent,
        location,
        cold,
        onRequest,
        ...(serverTimeRuns !== undefined ? { serverTimeRuns } : {}),
      });
      return { ok: true, result };
    },
  };
}

/** The panel's connect anatomy and network floors, from the one shared computation (src/shared/connectPhases.ts). */
import { connectAnatomies, targetFloors } from '../../shared/connectPhases';
import type { Measurement } from '../../shared/result';
import type { RunViewModel } from '../../shared/viewModel';
import { wireRows } from '../../shared/wireRows';

/** Only what the run has: a run without any split connect keeps its view model as before. */
export function phaseViews(
  measurements: readonly Measurement[],
): Pick<RunViewModel, 'anatomy' | 'floors' | 'wire'> {
  const anatomy = connectAnatomies(measurements);
  const floors = targetFloors(measurements);
  const wire = wireRows(measurements);
  return {
    ...(anatomy.length > 0 ? { anatomy } : {}),
    ...(floors.length > 0 ? { floors } : {}),
    ...(wire.length > 0 ? { wire } : {}),
  };
}

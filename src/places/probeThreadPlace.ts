/**
 * This machine as a place, with the engine in its own worker thread (probeThreadRun.ts): the editor's
 * place for local runs, so neither the probe's figures nor the editor's typing pay for the other's
 * event loop. The CLI keeps localPlace.ts: it is a process of its own already.
 */
import type { ColdAccess } from '../shared/probeThreadMessages';
import type { PackageLookup } from '../shared/packageLookup';
import type { RunEnvironment } from '../shared/result';
import { LOCAL_LABEL } from './localPlace';
import type { Place } from './place';

export interface ProbeThreadPlaceOptions {
  /** The thread's entry file (dist/probeWorker.js beside the extension bundle). */
  threadEntryFile: string;
  description: string;
  /** How the result names where it ran (the client watch then describes that thread). */
  location: RunEnvironment['location'];
  /** What the cold kind may do in the thread (Neon API keys, suspend commands). */
  cold?: ColdAccess;
  cancelGraceMs?: number;
  /** Passed to the thread as workerData (tests' hooks). */
  workerData?: unknown;
  /**
   * The project whose installed driver packages the thread loads, read at each run (the editor's
   * workspace changes, and so does its trust); absent: the bundled ones.
   */
  packages?: () => PackageLookup | undefined;
}

export function probeThreadPlace(options: ProbeThreadPlaceOptions): Place {
  return {
    id: 'local',
    label: LOCAL_LABEL,
    description: options.description,
    kind: 'local',
    async run(run) {
      // The client (and the result builder with its histograms under it) loads with the first run, not
      // when the extension makes this place at activation.
      const { runInProbeThread } = await import('./probeThreadRun');
      const packages = options.packages?.();
      const outcome = await runInProbeThread({
        threadEntryFile: options.threadEntryFile,
        plan: run.plan,
        resolveConnection: run.resolveConnection,
        redactor: run.redactor,
        location: options.location,
        signal: run.signal,
        onEvent: run.onEvent,
        cold: options.cold,
        cancelGraceMs: options.cancelGraceMs,
        workerData: options.workerData,
        packages,
      });
      return outcome;
    },
  };
}

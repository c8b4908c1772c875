/**
 * This machine as a place whose load and schedule runs spread over several probing threads
 * (spreadThreadsRun.ts) when the plan asks for more than one (`threads`, or the default for the machine:
 * core/load/threadCount.ts); every other run goes to the place it wraps unchanged. The CLI wraps
 * its in-process place, the editor its probe thread.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { threadsFor } from '../core/load/threadCount';
import type { RawRequest } from '../shared/loadResult';
import type { PackageLookup } from '../shared/packageLookup';
import type { RunEnvironment } from '../shared/result';
import type { Place } from './place';

export interface SpreadThreadsPlaceOptions {
  /** The probe thread's entry file; when it is missing (a partial build) runs stay in one thread. */
  threadEntryFile: string;
  location: RunEnvironment['location'];
  /** Cores the default counts on; the machine's by default. */
  cores?: number;
  cancelGraceMs?: number;
  workerData?: unknown;
  /** The project whose installed driver packages the threads load, read at each run. */
  packages?: () => PackageLookup | undefined;
  /** Every load and schedule request of every thread (the CLI's `--raw`). */
  onRequest?: (request: RawRequest) => void;
}

export function spreadThreadsPlace(single: Place, options: SpreadThreadsPlaceOptions): Place {
  return {
    ...single,
    async run(run) {
      const threads = threadsFor(run.plan, options.cores ?? availableParallelism());
      // A count asked for beyond the threads that have work (threadCount.ts) is recorded as run.
      const plan =
        run.plan.threads !== undefined && run.plan.threads > threads ? { ...run.plan, threads } : run.plan;
      if (threads <= 1 || !existsSync(options.threadEntryFile)) return single.run({ ...run, plan });
      const { runSpreadOverThreads } = await import('./spreadThreadsRun');
      const packages = options.packages?.();
      return runSpreadOverThreads({
        threadEntryFile: options.threadEntryFile,
        threads,
        plan,
        resolveConnection: run.resolveConnection,
        redactor: run.redactor,
        location: options.location,
        signal: run.signal,
        onEvent: run.onEvent,
        onRequest: options.onRequest,
        cancelGraceMs: options.cancelGraceMs,
        workerData: options.workerData,
        packages,
      });
    },
  };
}

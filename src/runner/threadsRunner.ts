/**
 * The Node runner's plan runner: a load or schedule run that asks for more than one probing thread
 * (`threads`, or the default for this machine) spreads over probe threads (places/spreadThreadsRun.ts,
 * dist/runnerThread.js); everything else runs on the engine in this thread, as on every platform.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { runPlan, type EngineDeps } from '../core/engine';
import { threadsFor } from '../core/load/threadCount';
import { resultOf } from '../places/outcome';
import { runSpreadOverThreads } from '../places/spreadThreadsRun';
import type { PlanSpec } from '../shared/plan';
import { Redactor } from '../shared/redact';
import type { RunResult } from '../shared/result';

export function threadsRunner(
  threadEntryFile: string,
  cores: number = availableParallelism(),
): (plan: PlanSpec, engine: EngineDeps) => Promise<RunResult> {
  return async (plan, engine) => {
    const threads = threadsFor(plan, cores);
    // A probe thread reads the files a plan names, which a runner refuses (handler.ts): a plan naming
    // a CA file runs here, where the engine refuses it with the reason.
    const namesFiles = plan.targets.some((t) => t.tls?.caFile !== undefined);
    if (threads <= 1 || namesFiles || !existsSync(threadEntryFile)) return runPlan(plan, engine);
    const outcome = await runSpreadOverThreads({
      threadEntryFile,
      threads,
      plan,
      resolveConnection: engine.resolveConnection,
      redactor: engine.redactor ?? new Redactor(),
      location: engine.location ?? { kind: 'runner', label: 'runner' },
      signal: engine.signal ?? new AbortController().signal,
      onEvent: engine.onEvent,
      onRequest: engine.onRequest,
    });
    const result = resultOf(outcome);
    if (!result) throw new Error(outcome.ok ? 'no result' : outcome.failure.message);
    return result;
  };
}

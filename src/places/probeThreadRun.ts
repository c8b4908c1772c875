/**
 * One run in a probe thread, seen from the caller (the editor): starts a Worker, sends it the plan
 * with the connections resolved here, relays its batched events and answers with the result. Every
 * way the thread can fail comes back as data beside the partial result rebuilt from the events that
 * arrived (ResultBuilder), so a measurement is never lost: a cancel the thread does not honour within
 * the grace period ends in terminate(); a thread that crashes or exits names what happened.
 */
import { Worker } from 'node:worker_threads';
import { ProbeError } from '../core/failure';
import { ResultBuilder } from '../core/resultBuilder';
import type { ConnectionResolver } from '../core/slot';
import type { ProbeEvent } from '../shared/events';
import type { RawRequest } from '../shared/loadResult';
import type { PackageLookup } from '../shared/packageLookup';
import type { PlanSpec } from '../shared/plan';
import { envNamesOfPlan, secretsInEnvironment } from '../shared/envSecrets';
import type { Redactor } from '../shared/redact';
import type { RunEnvironment } from '../shared/result';
import {
  isFromProbeThread,
  type ColdAccess,
  type ResolvedConnection,
  type ToProbeThread,
} from '../shared/probeThreadMessages';
import { CANCEL_GRACE_MS } from './cancelGrace';
import type { PlaceFailure, PlaceOutcome } from './outcome';

export interface ProbeThreadRunOptions {
  /** The thread's entry: dist/probeWorker.js in the extension (src/probeThread/probeThreadEntry.ts in tests). */
  threadEntryFile: string;
  plan: PlanSpec;
  resolveConnection: ConnectionResolver;
  /** Learns the run's connection strings and API keys, for the results at the storage boundary. */
  redactor: Redactor;
  location: RunEnvironment['location'];
  cold?: ColdAccess;
  signal: AbortSignal;
  onEvent?: (event: ProbeEvent) => void;
  /** Every load and schedule request as it ended in the thread (the CLI's `--raw`). */
  onRequest?: (request: RawRequest) => void;
  cancelGraceMs?: number;
  /** Data the thread's entry may read (workerData); tests use it for their hooks. */
  workerData?: unknown;
  /** The project whose installed driver packages the thread loads (absent: the bundled ones). */
  packages?: PackageLookup;
}

const CANCELLED = 'cancelled by the user';
/** What it means and what to do; the caller adds where the samples measured until then are shown. */
const ADVICE =
  'so the run stopped there; run the probe again, and if it happens again, report it with the DB Probe output';

/** Never rejects: a thread that cannot start, crashes or hangs is a failed outcome. */
export async function runInProbeThread(options: ProbeThreadRunOptions): Promise<PlaceOutcome> {
  const { plan, signal, onEvent } = options;
  const connections = await resolveAll(plan, options.resolveConnection);
  for (const connection of Object.values(connections))
    if ('url' in connection) options.redactor.addSecret(connection.url);
  for (const key of Object.values(options.cold?.neonApiKeys ?? {})) options.redactor.addSecret(key);
  if (signal.aborted) return { ok: false, failure: { class: 'cancelled', message: CANCELLED } };
  const builder = new ResultBuilder();
  return new Promise<PlaceOutcome>((resolve) => {
    let settled = false;
    let graceTimer: ReturnType<typeof setTimeout> | undefined;
    let worker: Worker;
    const settle = (outcome: PlaceOutcome) => {
      if (settled) return;
      settled = true;
      if (graceTimer) clearTimeout(graceTimer);
      signal.removeEventListener('abort', cancel);
      // The run is over (its connections closed by the engine) or given up on: either way the thread
      // has nothing left to do. terminate() is idempotent once it has exited.
      void worker.terminate().catch(() => undefined);
      resolve(outcome);
    };
    const partial = (failure: PlaceFailure): PlaceOutcome => {
      const result = builder.build(failure.message);
      return { ok: false, failure, partial: result };
    };
    const cancel = () => {
      post({ type: 'cancel' });
      graceTimer = setTimeout(() => {
        // The thread did not answer in time (a driver call that ignores its abort): stop it and keep
        // what arrived, as a cancelled run.
        const result = builder.build(CANCELLED);
        settle(
          result ? { ok: true, result } : { ok: false, failure: { class: 'cancelled', message: CANCELLED } },
        );
      }, options.cancelGraceMs ?? CANCEL_GRACE_MS);
    };
    const post = (message: ToProbeThread) => {
      try {
        worker.postMessage(message);
      } catch {
        // The thread is gone; its exit event says how.
      }
    };

    try {
      worker = new Worker(options.threadEntryFile, {
        workerData: options.workerData,
      });
    } catch (error) {
      resolve({
        ok: false,
        failure: {
          class: 'internal',
          message: `the probe thread could not be started (${describe(error)}); reinstall DB Latency Probe`,
          cause: error,
        },
      });
      return;
    }
    worker.on('message', (message: unknown) => {
      // After a terminate() for a late cancel, batches still queued must not reach the caller.
      if (settled) return;
      if (!isFromProbeThread(message)) {
        settle(
          partial({
            class: 'internal',
            message: `the probe thread sent a message this version does not understand, ${ADVICE}`,
          }),
        );
        return;
      }
      switch (message.type) {
        case 'events':
          for (const event of message.events) {
            builder.add(event);
            try {
              onEvent?.(event);
            } catch {
              // As in the engine: a listener that throws (a closing window's UI) does not break the run.
            }
          }
          break;
        case 'requests':
          for (const request of message.requests) options.onRequest?.(request);
          break;
        case 'result':
          settle({ ok: true, result: message.result });
          break;
        case 'failed':
          settle(
            partial({
              class: 'internal',
              message: `the probe stopped with an internal error (${message.message}), ${ADVICE}`,
              cause: new Error(message.message),
            }),
          );
          break;
      }
    });
    worker.on('error', (error) => {
      settle(
        partial({
          class: 'cut',
          message: `the probe thread crashed (${describe(error)}) before the run finished, ${ADVICE}`,
          cause: error,
        }),
      );
    });
    worker.on('exit', (code) => {
      settle(
        partial({
          class: 'cut',
          message: `the probe thread ended unexpectedly (exit code ${code}) before the run finished, ${ADVICE}`,
        }),
      );
    });
    signal.addEventListener('abort', cancel, { once: true });
    post({
      type: 'start',
      plan,
      connections,
      // The thread (and a suspend command it starts) sees this process's environment: every secret
      // in it is masked there too (src/shared/envSecrets.ts).
      secrets: secretsInEnvironment(process.env, envNamesOfPlan(plan)),
      location: options.location,
      cold: options.cold,
      ...(options.onRequest ? { requests: true } : {}),
      packages: options.packages,
    });
  });
}

/**
 * Resolves every target's connection here (secret storage and the environment live in the caller),
 * so they cross into the thread only in its start message; a target whose connection cannot be
 * resolved carries its error, which the engine reports for that target alone.
 */
async function resolveAll(
  plan: PlanSpec,
  resolveConnection: ConnectionResolver,
): Promise<Record<string, ResolvedConnection>> {
  const entries = await Promise.all(
    plan.targets.map(async (target): Promise<[string, ResolvedConnection]> => {
      try {
        return [target.name, { url: await resolveConnection(target) }];
      } catch (error) {
        return [
          target.name,
          {
            error: {
              class: error instanceof ProbeError ? error.errorClass : 'config',
              message: error instanceof Error ? error.message : String(error),
            },
          },
        ];
      }
    }),
  );
  return Object.fromEntries(entries);
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/**
 * The engine's side of the probe thread: waits for one `start`, runs that plan with the drivers
 * loaded here, streams the engine's events back in batches, and ends with the result. A `cancel`
 * aborts the run, which then ends as a cancelled result like any other. The connection strings came
 * in the start message; every one is registered with this thread's Redactor before anything runs, and
 * nothing here logs.
 */
import { coldPreparerFor } from '../cold/access';
import type { DriverRegistry } from '../core/driver';
import { ProbeError } from '../core/failure';
import type { ProbeEvent } from '../shared/events';
import type { PackageLookup } from '../shared/packageLookup';
import type { RawRequest } from '../shared/loadResult';
import type { TargetSpec } from '../shared/plan';
import { Redactor } from '../shared/redact';
import { TOOL } from '../shared/version';
import { lowerThreadPriority, runsEmbedded } from './threadPriority';
import { EventBatch, type BatchPort } from './eventBatch';
import { isToProbeThread, type ToProbeThread } from '../shared/probeThreadMessages';

/** The part of a MessagePort this needs (parentPort in the thread, a stand-in in a test). */
export interface ThreadPort extends BatchPort {
  on(event: 'message', listener: (value: unknown) => void): unknown;
}

/** `registryFor` makes the run's registry for the project its start message names. */
export function serveProbeThread(
  port: ThreadPort,
  registryFor: (packages: PackageLookup | undefined) => DriverRegistry,
): void {
  const controller = new AbortController();
  let started = false;
  port.on('message', (value) => {
    if (!isToProbeThread(value)) return;
    if (value.type === 'cancel') controller.abort();
    else if (!started) {
      started = true;
      void run(port, registryFor(value.packages), value, controller.signal);
    }
  });
}

async function run(
  port: ThreadPort,
  registry: DriverRegistry,
  start: Extract<ToProbeThread, { type: 'start' }>,
  signal: AbortSignal,
): Promise<void> {
  const redactor = new Redactor();
  const urls = Object.values(start.connections).flatMap((c) => ('url' in c ? [c.url] : []));
  for (const url of urls) redactor.addSecret(url);
  for (const secret of start.secrets) redactor.addSecret(secret);
  for (const key of Object.values(start.cold?.neonApiKeys ?? {})) redactor.addSecret(key);
  if (runsEmbedded(urls)) lowerThreadPriority();
  const batch = new EventBatch<ProbeEvent>(port, (events) => ({ type: 'events', events }));
  const requests = start.requests
    ? new EventBatch<RawRequest>(port, (list) => ({ type: 'requests', requests: list }))
    : undefined;
  try {
    // Loaded here, not at the thread's start, so a start message is answered as soon as it can be.
    const { runPlan } = await import('../core/engine');
    const result = await runPlan(start.plan, {
      registry,
      tool: TOOL,
      resolveConnection: resolverOf(start.connections),
      redactor,
      signal,
      location: start.location,
      // The thread shares its process with the editor: its CPU figure is this thread's own.
      clientScope: 'thread',
      onEvent: (event) => batch.add(event, event.type === 'done'),
      ...(requests ? { onRequest: (request: RawRequest) => requests.add(request) } : {}),
      ...(start.cold ? { cold: coldPreparerFor(start.cold) } : {}),
    });
    // Every request line before the events and the result: the caller has them all when it settles.
    requests?.flush();
    batch.flush();
    port.postMessage({ type: 'result', result });
  } catch (error) {
    requests?.flush();
    batch.flush();
    const message = error instanceof Error ? error.message : String(error);
    port.postMessage({ type: 'failed', message: redactor.redact(message) });
  }
}

/** The editor resolved every connection before the thread started: hand each back, or its error. */
function resolverOf(
  connections: Extract<ToProbeThread, { type: 'start' }>['connections'],
): (target: TargetSpec) => Promise<string> {
  return async (target) => {
    const resolved = connections[target.name];
    if (!resolved) throw new ProbeError('config', `no connection was resolved for target "${target.name}"`);
    if ('url' in resolved) return resolved.url;
    throw new ProbeError(resolved.error.class, resolved.error.message);
  };
}

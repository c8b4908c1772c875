/**
 * The probe thread protocol: every message between the editor (src/places/probeThreadRun.ts) and the
 * worker thread that runs the engine (src/probeThread/probeThreadEntry.ts). One union per direction, keyed on
 * `type`, with guards each side runs before trusting what arrived. The thread streams the same
 * ProbeEvents the runner API streams, in batches so a fast run does not flood the editor's loop.
 */
import type { ErrorClass } from './errors';
import type { ProbeEvent } from './events';
import { isRecord, isStringArray } from './guards';
import { isRawRequest, type RawRequest } from './loadResult';
import { isPackageLookup, type PackageLookup } from './packageLookup';
import type { PlanSpec } from './plan';
import type { RunEnvironment, RunResult } from './result';

/**
 * What the cold kind may do where the engine runs, as plain data (it crosses into the probe thread): the
 * Neon API keys resolved for the run and whether suspend commands may run.
 */
export interface ColdAccess {
  /** Resolved Neon API keys by the reference a target names (`env:NEON_API_KEY`, `secret:NAME`). */
  neonApiKeys: Record<string, string>;
  allowCommands: boolean;
  /** Why commands are refused, for the error a target with a suspend command then gets. */
  commandsRefusedBecause?: string;
}

/**
 * A target's connection as the editor resolved it (secret storage, environment): the string, or why
 * there is none (the engine then reports that target's setup error, as it would have in-process).
 */
export type ResolvedConnection = { url: string } | { error: { class: ErrorClass; message: string } };

/** Editor -> probe thread. */
export type ToProbeThread =
  /**
   * The only message that carries secrets: the connection strings (and Neon API keys) of this run.
   * The thread registers every one with its Redactor before anything runs, and never logs them.
   */
  | {
      type: 'start';
      plan: PlanSpec;
      connections: Record<string, ResolvedConnection>;
      /** Further secrets of the run (runner tokens, API keys) that messages must never carry back. */
      secrets: string[];
      location: RunEnvironment['location'];
      cold?: ColdAccess;
      /** Send every load and schedule request back (`requests` messages), for the CLI's `--raw`. */
      requests?: boolean;
      /** The project whose installed driver packages the thread loads; absent: the bundled ones. */
      packages?: PackageLookup;
    }
  /** Stop the run; the thread answers with its (partial) result like any run's end. */
  | { type: 'cancel' };

/** Probe thread -> editor. Every string in them has passed the thread's Redactor. */
export type FromProbeThread =
  /** Events in the order the engine emitted them; sent between samples (src/probeThread/eventBatch.ts). */
  | { type: 'events'; events: ProbeEvent[] }
  /** Load and schedule requests as they ended, when the start asked for them; batched like events. */
  | { type: 'requests'; requests: RawRequest[] }
  /** The run ended (completed, cancelled or timed out) after every event was sent. */
  | { type: 'result'; result: RunResult }
  /** The engine threw: a bug, not a database failure (those are samples and `error` events). */
  | { type: 'failed'; message: string };

/** How long the thread holds events before sending them as one message. */
export const EVENT_BATCH_MS = 50;
/** A batch is sent early once it holds this many events. */
export const EVENT_BATCH_MAX = 1000;

export function isToProbeThread(value: unknown): value is ToProbeThread {
  if (!isRecord(value)) return false;
  switch (value.type) {
    case 'start':
      return (
        isRecord(value.plan) &&
        Array.isArray(value.plan.targets) &&
        isRecord(value.connections) &&
        Object.values(value.connections).every(isResolvedConnection) &&
        isStringArray(value.secrets) &&
        isRecord(value.location) &&
        typeof value.location.label === 'string' &&
        (value.cold === undefined || isColdAccess(value.cold)) &&
        (value.requests === undefined || typeof value.requests === 'boolean') &&
        (value.packages === undefined || isPackageLookup(value.packages))
      );
    case 'cancel':
      return true;
    default:
      return false;
  }
}

export function isFromProbeThread(value: unknown): value is FromProbeThread {
  if (!isRecord(value)) return false;
  switch (value.type) {
    case 'events':
      return (
        Array.isArray(value.events) && value.events.every((e) => isRecord(e) && typeof e.type === 'string')
      );
    case 'requests':
      return Array.isArray(value.requests) && value.requests.every(isRawRequest);
    case 'result':
      return (
        isRecord(value.result) &&
        typeof value.result.id === 'string' &&
        typeof value.result.state === 'string' &&
        Array.isArray(value.result.measurements)
      );
    case 'failed':
      return typeof value.message === 'string';
    default:
      return false;
  }
}

function isResolvedConnection(value: unknown): value is ResolvedConnection {
  if (!isRecord(value)) return false;
  if (typeof value.url === 'string') return true;
  return (
    isRecord(value.error) && typeof value.error.class === 'string' && typeof value.error.message === 'string'
  );
}

function isColdAccess(value: unknown): value is ColdAccess {
  return (
    isRecord(value) &&
    isRecord(value.neonApiKeys) &&
    Object.values(value.neonApiKeys).every((k) => typeof k === 'string') &&
    typeof value.allowCommands === 'boolean'
  );
}

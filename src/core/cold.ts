/**
 * What the `cold` kind (kinds/coldKind.ts) asks of its caller: a preparer that makes a target cold, the
 * idle-wait one that needs nothing but a timer, and the plan's cold settings.
 */
import type { ColdWaitStep } from '../shared/events';
import { COLD_DEFAULTS, type ColdPlanSpec, type TargetSpec } from '../shared/plan';
import { waitFor } from './coldWait';
import { ProbeError } from './failure';

export interface ColdWait {
  step: ColdWaitStep;
  /** What is being waited for, for a progress line; never a secret (it is redacted anyway). */
  message: string;
  waitedMs: number;
  totalMs?: number;
}

export interface ColdPrepareRequest {
  target: TargetSpec;
  /** The resolved connection string (e.g. to read a Neon endpoint id from its host). */
  url: string;
  signal: AbortSignal;
  /** Longest the whole preparation may take. */
  timeoutMs: number;
  onWait(wait: ColdWait): void;
  /** Secrets the preparer resolves (an API key) are masked everywhere from then on. */
  registerSecret(secret: string): void;
}

/** Makes one target cold; resolves once the next connection will find it suspended. */
export type ColdPreparer = (request: ColdPrepareRequest) => Promise<void>;

/**
 * The preparer when the caller gave none (library callers, the remote runner): only idle-wait, which
 * needs nothing but a timer. Suspending through an API or a command is the caller's to allow.
 */
export const idleWaitOnlyPreparer: ColdPreparer = async (request) => {
  const cold = request.target.cold;
  if (cold?.mode !== 'idle-wait' || cold.idleMs === undefined) {
    throw new ProbeError(
      'config',
      `cold mode "${cold?.mode ?? 'none'}" is not available here (only idle-wait is); run the cold kind from the dbprobe CLI or the VS Code extension`,
    );
  }
  await idleWait(cold.idleMs, request);
};

export function idleWait(idleMs: number, request: ColdPrepareRequest): Promise<void> {
  const message = `waiting ${Math.round(idleMs / 1000)} s of idle time so the database sleeps`;
  request.onWait({ step: 'idle', message, waitedMs: 0, totalMs: idleMs });
  return waitFor(idleMs, request.signal, (waitedMs) =>
    request.onWait({ step: 'idle', message, waitedMs, totalMs: idleMs }),
  );
}

export function coldSettings(plan: { cold?: ColdPlanSpec }): ColdPlanSpec {
  return plan.cold ?? COLD_DEFAULTS;
}

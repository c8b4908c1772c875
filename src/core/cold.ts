/**
 * The `cold` kind: make the target cold (through a preparer the caller supplies), then time a new
 * connection + first query, then at once a hot one on another new connection. Cold start = cold
 * minus hot, as in the Neon benchmark; both figures are kept.
 */
import type { ColdWaitStep } from '../shared/events';
import { COLD_DEFAULTS, type ColdPlanSpec, type TargetSpec } from '../shared/plan';
import { waitFor } from './coldWait';
import { ProbeError, withHint } from './failure';
import { TimeoutSignal } from './timeoutSignal';
import { initialKind, type KindStrategy, type SampleContext } from './kinds';
import type { TargetSlot } from './slot';

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

/** What the engine hands the cold kind: the preparer, the plan's settings and the progress sink. */
export interface ColdRun {
  prepare: ColdPreparer;
  settings: ColdPlanSpec;
  signal: AbortSignal;
  onWait(target: string, wait: ColdWait): void;
  registerSecret(secret: string): void;
}

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

/**
 * What to do when making a target cold failed: the suspend step is the target's "cold" settings, not
 * its connection string, which may be fine (the hot samples say so).
 */
export const COLD_HINT =
  'This failed while making the target cold, before any connection: check the target\'s "cold" settings in dbprobe.json (cold.mode; a cold.command must run by hand from this folder; cold.neon needs apiKey, projectId and an endpoint) and cold.suspendTimeoutMs.';

/** Per target: samples taken so far, so the pause comes between samples and not before the first. */
const samplesTaken = new WeakMap<TargetSlot, number>();

export function coldKind(run: ColdRun): KindStrategy {
  return {
    kind: 'cold',
    reused: [],
    async sample(slot, ctx) {
      const taken = samplesTaken.get(slot) ?? 0;
      samplesTaken.set(slot, taken + 1);
      const waitStart = performance.now();
      if (taken > 0 && run.settings.pauseMs > 0) {
        const totalMs = run.settings.pauseMs;
        const message = `pausing ${totalMs} ms between cold samples`;
        run.onWait(slot.spec.name, { step: 'pause', message, waitedMs: 0, totalMs });
        await waitFor(totalMs, run.signal, (waitedMs) =>
          run.onWait(slot.spec.name, { step: 'pause', message, waitedMs, totalMs }),
        );
      }
      await makeCold(slot, run);
      const waitMs = Math.round(performance.now() - waitStart);
      const cold = await initialKind.sample(slot, ctx);
      const hot = await initialKind.sample(slot, ctx);
      return {
        ...cold,
        cold: {
          waitMs,
          hotUs: hot.us,
          ...(hot.connectUs !== undefined ? { hotConnectUs: hot.connectUs } : {}),
        },
      };
    },
    async finish(slot: TargetSlot, _ctx: SampleContext) {
      samplesTaken.delete(slot);
    },
  };
}

async function makeCold(slot: TargetSlot, run: ColdRun): Promise<void> {
  if (slot.url === undefined || !slot.driver)
    throw (slot.setupError as Error | undefined) ?? new Error('target is not ready');
  if (!slot.spec.cold)
    throw new ProbeError(
      'config',
      `target "${slot.spec.name}" has no "cold" settings; say how to make it cold`,
      COLD_HINT,
    );
  // Its own timer, not AbortSignal.timeout under AbortSignal.any: see timeoutSignal.ts.
  const budget = new TimeoutSignal(run.settings.suspendTimeoutMs, run.signal);
  try {
    await run.prepare({
      target: slot.spec,
      url: slot.url,
      signal: budget.signal,
      timeoutMs: run.settings.suspendTimeoutMs,
      onWait: (wait) => run.onWait(slot.spec.name, wait),
      registerSecret: run.registerSecret,
    });
  } catch (error) {
    if (run.signal.aborted) throw new ProbeError('cancelled', 'cold preparation cancelled');
    if (budget.timedOut) {
      // What it was waiting for when the time ran out, when the preparer names it (the Neon API, a
      // suspend command, an endpoint still active).
      const waitingFor =
        error instanceof ProbeError && error.errorClass === 'timeout' ? `: ${error.message}` : '';
      throw new ProbeError(
        'timeout',
        `dbprobe stopped waiting: making "${slot.spec.name}" cold took longer than cold.suspendTimeoutMs (${run.settings.suspendTimeoutMs} ms)${waitingFor}`,
        COLD_HINT,
      );
    }
    throw withHint(error, COLD_HINT);
  } finally {
    budget.dispose();
  }
}

export function coldSettings(plan: { cold?: ColdPlanSpec }): ColdPlanSpec {
  return plan.cold ?? COLD_DEFAULTS;
}

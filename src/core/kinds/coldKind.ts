/**
 * The `cold` kind: make the target cold (through a preparer the caller supplies), then time a new
 * connection + first query, then at once a hot one on another new connection. Cold start = cold
 * minus hot, as in the Neon benchmark; both figures are kept. A cold sample costs a suspend: its own
 * count (cold.samples), and no warm-up (a warm-up would be hot).
 */
import { coldSettings, type ColdPreparer, type ColdWait } from '../cold';
import { waitFor } from '../coldWait';
import { ProbeError, withHint } from '../failure';
import { runSamples, type Sampler } from '../sampleLoop';
import type { TargetSlot } from '../slot';
import { TimeoutSignal } from '../timeoutSignal';
import type { ColdPlanSpec } from '../../shared/plan';
import { sampleInitial } from './initialKind';
import type { Kind } from './kind';

/**
 * What to do when making a target cold failed: the suspend step is the target's "cold" settings, not
 * its connection string, which may be fine (the hot samples say so).
 */
const COLD_HINT =
  'This failed while making the target cold, before any connection: check the target\'s "cold" settings in dbprobe.json (cold.mode; a cold.command must run by hand from this folder; cold.neon needs apiKey, projectId and an endpoint) and cold.suspendTimeoutMs.';

export const coldKind: Kind = {
  name: 'cold',
  reused: [],
  eventSamplesPerTarget: (plan) => coldSettings(plan).samples,
  coldMode: (slot) => slot.spec.cold?.mode,
  run(slots, states, context) {
    const settings = coldSettings(context.plan);
    const { emit, redactor } = context;
    const run: ColdRun = {
      prepare: context.prepareCold,
      settings,
      signal: context.stopped,
      onWait: (target, wait) =>
        emit?.({ type: 'wait', target, kind: 'cold', ...wait, message: redactor.redact(wait.message) }),
      registerSecret: (secret) => redactor.addSecret(secret),
    };
    return runSamples('cold', coldSampler(run), slots, states, context, {
      warmup: 0,
      iterations: settings.samples,
    });
  },
};

/** What the cold sampler works with: the preparer, the plan's settings and the progress sink. */
interface ColdRun {
  prepare: ColdPreparer;
  settings: ColdPlanSpec;
  signal: AbortSignal;
  onWait(target: string, wait: ColdWait): void;
  registerSecret(secret: string): void;
}

/** The cold sampler of one run. */
function coldSampler(run: ColdRun): Sampler {
  /** Per target: samples taken so far, so the pause comes between samples and not before the first. */
  const samplesTaken = new WeakMap<TargetSlot, number>();
  return {
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
      const cold = await sampleInitial(slot, ctx);
      const hot = await sampleInitial(slot, ctx);
      return {
        ...cold,
        cold: {
          waitMs,
          hotUs: hot.us,
          ...(hot.connectUs !== undefined ? { hotConnectUs: hot.connectUs } : {}),
        },
      };
    },
    async finish(slot: TargetSlot) {
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

/**
 * What the duration kinds (`load` and `schedule`: kinds/loadKind.ts, kinds/scheduleKind.ts) share:
 * each target in turn (they are not interleaved: a target's whole duration is one piece), outcomes
 * recorded in the target's MeasurementState so errors, kept samples and the histogram work as for
 * every kind, a level's common start and progress, and the raw log of every request.
 */
import type { PlanSpec } from '../../shared/plan';
import { elapsedUs } from '../clock';
import { toFailure } from '../failure';
import { encodeHistogram } from '../histogram';
import type { KindContext } from '../kinds/kind';
import type { MeasurementState } from '../measurementState';
import type { TargetSlot } from '../slot';
import type { LatencyRecorder } from '../stats';
import { LevelProgress } from './levelProgress';
import type { LevelHooks, OutcomeSink, RequestTimes } from './sink';
import { commonStartMs, waitForWallClock } from './timetable';
import type { RawRequest } from '../../shared/loadResult';

export type DurationKind = 'load' | 'schedule';

/** Each request's clock readings as a RawRequest, in µs from the level's start. */
export class RawLog {
  private originNs: bigint | undefined;

  constructor(
    private readonly deps: KindContext,
    private readonly at: { target: string; kind: DurationKind; level: number },
  ) {}

  /** Wraps the level's hooks to learn when its clock started. */
  hooks(inner: LevelHooks): LevelHooks {
    if (!this.deps.onRequest) return inner;
    return {
      ...inner,
      started: (startNs, starts) => {
        this.originNs = startNs;
        inner.started?.(startNs, starts);
      },
    };
  }

  add(times: RequestTimes, error?: RawRequest['error']): void {
    const onRequest = this.deps.onRequest;
    if (!onRequest) return;
    const origin = this.originNs ?? times.intendedNs;
    onRequest({
      ...this.at,
      intendedUs: elapsedUs(origin, times.intendedNs),
      ...(times.startNs !== undefined ? { startUs: elapsedUs(origin, times.startNs) } : {}),
      endUs: elapsedUs(origin, times.endNs),
      ok: error === undefined,
      ...(error !== undefined ? { error } : {}),
    });
  }
}

/**
 * Runs `runTarget` for each target in turn, skipping a target that could not start or stopped; the
 * figures each run leaves in `finishLater` are made once the last target is done.
 */
export async function eachTarget(
  slots: readonly TargetSlot[],
  states: readonly MeasurementState[],
  context: KindContext,
  runTarget: (
    slot: TargetSlot,
    state: MeasurementState,
    targetIndex: number,
    finishLater: (() => void)[],
  ) => Promise<void>,
): Promise<void> {
  // Figures (percentile scans, histograms encoded for a fan-out's merge) are made after the last
  // level: they take tens of milliseconds, which between two levels would make a place late for the
  // next level's common start.
  const finishLater: (() => void)[] = [];
  for (const [i, slot] of slots.entries()) {
    const state = states[i];
    if (context.ctx.scope.cancelled) break;
    if (!state || !slot.driver || state.stoppedEarly) continue;
    await runTarget(slot, state, i, finishLater);
  }
  for (const finish of finishLater) finish();
}

export function sinkFor(slot: TargetSlot, state: MeasurementState, deps: KindContext): OutcomeSink {
  const atUs = (ns: bigint) => elapsedUs(deps.runStartNs, ns);
  // One timing object for every query of the level: recordSuccess reads it and keeps nothing of it.
  const timing = { us: 0 };
  return {
    success: (startNs, us) => {
      timing.us = us;
      state.recordSuccess(false, atUs(startNs), timing);
    },
    failure: (atNs, error) =>
      state.recordFailure(false, atUs(atNs), toFailure(error, deps.redactor, slot.driver?.classify)),
    hopeless: () => state.stoppedEarly !== undefined,
  };
}

/**
 * A fan-out's common start (the level waits for it once its connections are open, and records how
 * late it was) and progress events, when someone listens.
 */
export class LevelWatch {
  startLagMs: number | undefined;
  private readonly progress: LevelProgress | undefined;

  constructor(
    private readonly plan: PlanSpec,
    private readonly deps: KindContext,
    readonly at: { kind: DurationKind; target: string; targetIndex: number; levelIndex: number },
    info: { level: number; levels: number; durationS: number },
  ) {
    this.progress = deps.emit
      ? new LevelProgress(
          { target: at.target, kind: at.kind, levelIndex: at.levelIndex, ...info },
          deps.ctx.clock,
          deps.emit,
        )
      : undefined;
  }

  /** The level's hooks: wait for the common start (fan-out), then report progress from its clock. */
  hooks(): LevelHooks {
    const fanOut = this.plan.fanOut;
    const { kind, targetIndex, levelIndex } = this.at;
    const progress = this.progress;
    return {
      ...(fanOut
        ? {
            ready: async () => {
              const atMs = commonStartMs(this.plan, fanOut, kind, targetIndex, levelIndex);
              this.startLagMs = await waitForWallClock(atMs, this.deps.ctx.scope);
            },
          }
        : {}),
      ...(progress ? { started: (startNs, starts) => progress.began(startNs, starts) } : {}),
    };
  }

  countError(): void {
    if (this.progress) this.progress.errors += 1;
  }

  /** One query (load) or whole request (schedule) answered. */
  countRequest(): void {
    if (this.progress) this.progress.completed += 1;
  }

  end(): void {
    this.progress?.end();
  }
}

/** A recorder's histogram, for a fan-out's exact merge. */
export function encoded(recorder: LatencyRecorder) {
  return encodeHistogram(recorder.histogram, recorder.moments);
}

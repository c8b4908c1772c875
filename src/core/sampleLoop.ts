/**
 * The sample-by-sample kinds (`initial`, `subsequent`, `cold`): each step of the schedule takes one
 * sample, records it and tells the listener.
 *
 * Done between one answer and the next request, that bookkeeping was the harness's largest part of
 * the gap between two queries (~3 µs of ~6 on the 2-core testbed, against 0.5 µs in a raw
 * `await client.query()` loop), and a longer gap lets the server's side of the next round trip start
 * colder: a raw pg loop's p50 rose ~0.2 µs per µs of gap added. So when a target's requests reach the
 * socket within the driver call (Sampler.requestOnWire), a sample's record waits for the next
 * request and is made while that answer travels: a request already on the wire cannot be delayed by
 * work done before the engine yields, and its answer cannot be read until it does. Only short,
 * bounded work runs there: the recorders take the value (a full batch enters the histogram after the
 * answer, MeasurementState.tidy), and the event, whose listener may take any time, goes out after
 * the answer. Where the request may wait on a later tick (fetch, a connect), the sample is finished
 * before the next one starts, as before.
 */
import type { ErrorClass } from '../shared/errors';
import type { ProbeEvent, SamplePhase } from '../shared/events';
import type { ProbeKind, TargetOrder } from '../shared/plan';
import type { Redactor } from '../shared/redact';
import { elapsedUs, type Clock } from './clock';
import { toFailure } from './failure';
import type { SampleContext } from './connection';
import type { KindContext } from './kinds/kind';
import type { LoopTurn } from './loopTurn';
import type { MeasurementState } from './measurementState';
import type { SampleTiming } from './sampleTiming';
import { cpuPressureReader, cpuWaitReader } from './hostState';
import { StepCursor } from './stepCursor';
import { SampleBudget } from './sampleBudget';
import type { TargetSlot } from './slot';

/** How one sample of a sample-by-sample kind is taken. */
export interface Sampler {
  sample(slot: TargetSlot, ctx: SampleContext): Promise<SampleTiming>;
  /** Called once per target after the kind's last sample: what the samples kept open goes. */
  finish(slot: TargetSlot, ctx: SampleContext): Promise<void>;
  /**
   * Asked right after sample() returned: true when that sample's request was already handed to its
   * socket within the call, so nothing the caller does before it yields can delay the request, only
   * run while the answer is on its way (the engine does the last sample's bookkeeping there).
   * Absent or false: the request may still be waiting on a later tick (fetch, a pool, a connect).
   */
  requestOnWire?(slot: TargetSlot): boolean;
}

/**
 * A sample-by-sample kind's whole run: `warmup` + `iterations` samples per target in the plan's
 * order, then each target's finish.
 */
export async function runSamples(
  kind: ProbeKind,
  sampler: Sampler,
  slots: readonly TargetSlot[],
  states: readonly MeasurementState[],
  context: KindContext,
  counts: { warmup: number; iterations: number; alternateEvery?: number },
): Promise<void> {
  const { ctx } = context;
  await runSampleKind({
    kind,
    sampler,
    slots,
    states,
    ...counts,
    order: context.plan.order,
    ctx,
    clock: ctx.clock,
    runStartNs: context.runStartNs,
    stopped: context.stopped,
    loop: context.loop,
    redactor: context.redactor,
    ...(context.emit ? { emit: context.emit } : {}),
    ...(context.budgetEndNs !== undefined ? { budgetEndNs: context.budgetEndNs } : {}),
  });
  await Promise.all(slots.map((slot) => sampler.finish(slot, ctx).catch(() => undefined)));
}

export interface SampleLoop {
  kind: ProbeKind;
  sampler: Sampler;
  slots: readonly TargetSlot[];
  states: readonly MeasurementState[];
  warmup: number;
  iterations: number;
  /** Rounds after which the order within a round turns around (StepCursor); absent: never. */
  alternateEvery?: number;
  order: TargetOrder;
  ctx: SampleContext;
  clock: Clock;
  /** The run's start: samples' `atUs` count from it. */
  runStartNs: bigint;
  /** The run's cancel and time limit. */
  stopped: AbortSignal;
  loop: LoopTurn;
  redactor: Redactor;
  /** Absent when nobody listens: no event object per sample then. */
  emit?: (event: ProbeEvent) => void;
  /** When the default count must be done (KindContext.budgetEndNs); absent: the count is kept. */
  budgetEndNs?: bigint;
  /** The probing thread's cumulative CPU wait (tests inject one); default: the platform's. */
  cpuWait?: () => number | undefined;
  /** The host's cumulative CPU pressure (tests inject one); default: the platform's. */
  cpuPressure?: () => number | undefined;
}

/** Takes every sample of one kind, in the plan's order, until the schedule ends or the run stops. */
export async function runSampleKind(run: SampleLoop): Promise<void> {
  const { sampler, slots, states, ctx, clock, stopped, loop } = run;
  const held = new HeldSample(run);
  // The thread's wait for a CPU, read around each sample (outside its timed span): the host's share.
  const cpuWait = run.cpuWait ?? cpuWaitReader();
  const cpuPressure = run.cpuPressure ?? cpuPressureReader();
  /** Per target: its last sample's request was on the wire when the sampler's call returned. */
  const onWire = slots.map(() => false);
  // One cursor read in place, no step object per sample (stepCursor.ts).
  const step = new StepCursor(slots.length, run.warmup, run.iterations, run.order, run.alternateEvery);
  const budget =
    run.budgetEndNs !== undefined && run.order === 'interleaved'
      ? new SampleBudget(run.budgetEndNs, run.iterations)
      : undefined;
  let round = -1;
  try {
    while (step.next()) {
      if (stopped.aborted) break;
      // At each measured round's start: the default count shortens when the rounds left do not fit.
      if (budget && step.phase === 'measure' && step.index !== round) {
        const nowNs = clock.nowNs();
        if (round < 0) budget.measuring(nowNs);
        else {
          const fits = budget.roundDone(nowNs);
          if (fits !== undefined) {
            step.shorten(fits);
            for (const s of states) s.shortenedTo = fits;
            held.shortenedTo = fits;
            if (step.index >= fits) break;
          }
        }
        round = step.index;
      }
      const slot = slots[step.target];
      const state = states[step.target];
      if (!slot || !state || state.stoppedEarly) continue;
      let nowNs = clock.nowNs();
      // Between samples, never inside one: see loopTurn.ts for who would wait otherwise.
      if (loop.due(nowNs)) {
        held.release();
        await loop.turn();
        if (stopped.aborted) break;
        nowNs = clock.nowNs();
      }
      const atUs = elapsedUs(run.runStartNs, nowNs);
      // Held past this sample's start only when this target's last request was on the wire within
      // its call: otherwise (an HTTP client, a fake driver, a first sample) the bookkeeping runs now,
      // so a slow sample (a connect, a cold start) never keeps the last one's event waiting.
      if (!onWire[step.target]) held.release();
      let sampled: SampleTiming;
      const waitBefore = cpuWait();
      const pressureBefore = cpuPressure();
      try {
        const pending = sampler.sample(slot, ctx);
        const sent = sampler.requestOnWire?.(slot) === true;
        onWire[step.target] = sent;
        if (sent) held.recordInFlight();
        sampled = await pending;
        const waitAfter = waitBefore === undefined ? undefined : cpuWait();
        const pressureAfter = pressureBefore === undefined ? undefined : cpuPressure();
        if (waitAfter !== undefined) sampled.cpuWaitUs = Math.max(0, Math.round(waitAfter - waitBefore!));
        if (pressureAfter !== undefined)
          sampled.cpuPressureUs = Math.max(0, Math.round(pressureAfter - pressureBefore!));
      } catch (error) {
        held.release();
        // A sample cut short by cancellation says nothing about the database.
        if (stopped.aborted) break;
        // From the same stamp as atUs: the time the attempt took until it failed.
        const failedAfterUs = elapsedUs(nowNs, clock.nowNs());
        const failure = toFailure(error, run.redactor, slot.driver?.classify);
        state.recordFailure(step.phase === 'warmup', atUs, failure, failedAfterUs);
        held.tell(slot, step.phase, step.index, atUs, { error: failure.class, failedAfterUs });
        continue;
      }
      held.release();
      held.hold(slot, state, step.phase, step.index, atUs, sampled);
    }
  } finally {
    // A measured sample is never lost: a cancel, a time limit or a throw still records it.
    held.release();
  }
}

/**
 * The last measured sample, until its bookkeeping runs: one object for the whole loop, its fields
 * overwritten per sample.
 */
class HeldSample {
  private waiting = false;
  /** Its record is made (recordInFlight); the event and the tidying remain. */
  private recorded = false;
  private slot: TargetSlot | undefined;
  private state: MeasurementState | undefined;
  private phase: SamplePhase = 'measure';
  private index = 0;
  private atUs = 0;
  private sampled: SampleTiming | undefined;
  /** The kind's count once it shortened to fit the run: every later sample event says it. */
  shortenedTo: number | undefined;

  constructor(private readonly run: SampleLoop) {}

  hold(
    slot: TargetSlot,
    state: MeasurementState,
    phase: SamplePhase,
    index: number,
    atUs: number,
    sampled: SampleTiming,
  ): void {
    this.slot = slot;
    this.state = state;
    this.phase = phase;
    this.index = index;
    this.atUs = atUs;
    this.sampled = sampled;
    this.waiting = true;
    this.recorded = false;
  }

  /** Makes the held sample's record while another answer may be arriving: short work only. */
  recordInFlight(): void {
    if (!this.waiting || this.recorded) return;
    this.record(true);
  }

  /** Finishes the held sample (its record, its batch, its event); nothing when none is held. */
  release(): void {
    const { slot, state, sampled } = this;
    if (!this.waiting || !slot || !state || !sampled) return;
    if (!this.recorded) this.record(false);
    this.waiting = false;
    this.sampled = undefined;
    state.tidy();
    if (!this.run.emit) return;
    const warmup = this.phase === 'warmup';
    const timing = this.timingOf(sampled);
    // The sample event carries the sample record's fields, and the reasons for unmeasured steps on
    // the first measured sample of a target and kind (a driver gives the same ones each time). Most
    // samples have none: they go out as they are, with no copy.
    const outcome =
      (timing.unmeasured === undefined && timing.wireUnmeasured === undefined) ||
      (!warmup && state.firstReasons())
        ? timing
        : withoutReasons(timing);
    this.tell(slot, this.phase, this.index, this.atUs, outcome);
  }

  private record(inFlight: boolean): void {
    const { state, sampled } = this;
    if (!state || !sampled) return;
    this.recorded = true;
    state.recordSuccess(this.phase === 'warmup', this.atUs, this.timingOf(sampled), sampled.cold, inFlight);
  }

  /** Only a cold sample carries its pair: the others go on as they are, no copy per sample. */
  private timingOf(sampled: SampleTiming): Omit<SampleTiming, 'cold'> {
    return sampled.cold ? withoutCold(sampled) : sampled;
  }

  /** The sample event, when somebody listens. */
  tell(
    slot: TargetSlot,
    phase: SamplePhase,
    index: number,
    atUs: number,
    outcome: Omit<SampleTiming, 'cold'> | { error: ErrorClass; failedAfterUs: number },
  ): void {
    if (!this.run.emit) return;
    const event: ProbeEvent = {
      type: 'sample',
      target: slot.spec.name,
      kind: this.run.kind,
      phase,
      index,
      atUs,
      ...outcome,
    };
    // Set only once it shortened: the other samples' events stay as they were, no spread per sample.
    if (this.shortenedTo !== undefined) event.shortenedTo = this.shortenedTo;
    this.run.emit(event);
  }
}

function withoutReasons(
  timing: Omit<SampleTiming, 'cold'>,
): Omit<SampleTiming, 'cold' | 'unmeasured' | 'wireUnmeasured'> {
  const { unmeasured: _reasons, wireUnmeasured: _wireReasons, ...record } = timing;
  return record;
}

/** A cold sample's timing without its pair (the sample event carries the record's fields only). */
function withoutCold(timing: SampleTiming): Omit<SampleTiming, 'cold'> {
  const { cold: _cold, ...rest } = timing;
  return rest;
}

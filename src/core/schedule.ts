/**
 * The order samples are taken in. Interleaved (A B C A B C ...) by default so drift in the network or
 * the machine hits every target alike; sequential finishes one target before starting the next.
 */
import type { SamplePhase } from '../shared/events';
import type { TargetOrder } from '../shared/plan';

export interface Step {
  target: number;
  phase: SamplePhase;
  index: number;
}

/**
 * Walks the schedule in place: `next()` moves to the next step and says whether there is one; the
 * step is read from the cursor's own fields. The engine's sample loop reads it once per sample, so
 * it allocates nothing per step (a generator made an iterator result and a step object each time).
 */
export class StepCursor implements Step {
  target = 0;
  phase: SamplePhase = 'warmup';
  index = 0;
  private position = -1;
  private readonly perTarget: number;
  private readonly total: number;

  constructor(
    private readonly targetCount: number,
    private readonly warmup: number,
    iterations: number,
    private readonly order: TargetOrder,
  ) {
    this.perTarget = warmup + iterations;
    this.total = targetCount * this.perTarget;
  }

  next(): boolean {
    this.position += 1;
    if (this.position >= this.total) return false;
    if (this.order === 'sequential') {
      this.target = Math.floor(this.position / this.perTarget);
      this.place(this.position % this.perTarget);
    } else {
      // Phase by phase, and within a phase every target once per index.
      const warmupSteps = this.warmup * this.targetCount;
      const inPhase = this.position < warmupSteps ? this.position : this.position - warmupSteps;
      this.target = inPhase % this.targetCount;
      this.phase = this.position < warmupSteps ? 'warmup' : 'measure';
      this.index = Math.floor(inPhase / this.targetCount);
    }
    return true;
  }

  /** A sequential step's phase and index from its place in its target's run. */
  private place(offset: number): void {
    this.phase = offset < this.warmup ? 'warmup' : 'measure';
    this.index = offset < this.warmup ? offset : offset - this.warmup;
  }
}

/** The whole schedule as step objects (tests and callers that keep the steps). */
export function* schedule(
  targetCount: number,
  warmup: number,
  iterations: number,
  order: TargetOrder,
): Generator<Step> {
  const cursor = new StepCursor(targetCount, warmup, iterations, order);
  while (cursor.next()) yield { target: cursor.target, phase: cursor.phase, index: cursor.index };
}

/**
 * The order samples are taken in. Interleaved (A B C A B C ...) by default so drift in the network or
 * the machine hits every target alike; sequential finishes one target before starting the next.
 */
import type { SamplePhase } from '../shared/events';
import type { TargetOrder } from '../shared/plan';

/**
 * Walks the schedule in place: `next()` moves to the next step and says whether there is one; the
 * step is read from the cursor's own fields. The engine's sample loop reads it once per sample, so
 * it allocates nothing per step (a generator made an iterator result and a step object each time).
 */
export class StepCursor {
  target = 0;
  phase: SamplePhase = 'warmup';
  index = 0;
  private position = -1;
  private readonly perTarget: number;
  private total: number;

  /**
   * `alternateEvery` (interleaved only; 0: never): the order within a round runs backwards on every
   * other stretch of this many rounds (A B, A B, B A, B A, ... for 2), so no target always goes
   * first. Two targets that share a connection (a layer over its raw driver, one of the kind's
   * connections per round) then each follow the connection's idle gap as often as the other.
   */
  constructor(
    private readonly targetCount: number,
    private readonly warmup: number,
    iterations: number,
    private readonly order: TargetOrder,
    private readonly alternateEvery = 0,
  ) {
    this.perTarget = warmup + iterations;
    this.total = targetCount * this.perTarget;
  }

  /**
   * Ends the schedule after `iterations` measured rounds (interleaved order: rounds are the
   * schedule's own stretches, so nothing taken moves). Never before the step under way.
   */
  shorten(iterations: number): void {
    if (this.order === 'sequential') return;
    const total = this.targetCount * (this.warmup + iterations);
    this.total = Math.max(this.position + 1, Math.min(this.total, total));
  }

  next(): boolean {
    this.position += 1;
    if (this.position >= this.total) return false;
    // Sequential: target by target, each its warm-up then its measures. Interleaved: phase by phase,
    // and within a phase every target once per index.
    const sequential = this.order === 'sequential';
    const warmupSteps = sequential ? this.warmup : this.warmup * this.targetCount;
    const position = sequential ? this.position % this.perTarget : this.position;
    const inPhase = position < warmupSteps ? position : position - warmupSteps;
    this.phase = position < warmupSteps ? 'warmup' : 'measure';
    this.index = sequential ? inPhase : Math.floor(inPhase / this.targetCount);
    const within = inPhase % this.targetCount;
    const backwards = this.alternateEvery > 0 && Math.floor(this.index / this.alternateEvery) % 2 === 1;
    this.target = sequential
      ? Math.floor(this.position / this.perTarget)
      : backwards
        ? this.targetCount - 1 - within
        : within;
    return true;
  }
}

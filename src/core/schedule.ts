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

export function* schedule(
  targetCount: number,
  warmup: number,
  iterations: number,
  order: TargetOrder,
): Generator<Step> {
  const phases: [SamplePhase, number][] = [
    ['warmup', warmup],
    ['measure', iterations],
  ];
  if (order === 'sequential') {
    for (let target = 0; target < targetCount; target++) {
      for (const [phase, count] of phases)
        for (let index = 0; index < count; index++) yield { target, phase, index };
    }
    return;
  }
  for (const [phase, count] of phases) {
    for (let index = 0; index < count; index++) {
      for (let target = 0; target < targetCount; target++) yield { target, phase, index };
    }
  }
}

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { StepCursor } from '../../src/core/stepCursor';

/** The cursor's steps as labels: A, B, C for targets, w for warm-up, then the index. */
function schedule(targets: number, warmup: number, iterations: number, order: 'interleaved' | 'sequential') {
  const cursor = new StepCursor(targets, warmup, iterations, order);
  const steps: string[] = [];
  while (cursor.next())
    steps.push(`${'ABC'[cursor.target]}${cursor.phase === 'warmup' ? 'w' : ''}${cursor.index}`);
  return steps;
}

test('interleaved order alternates targets, warm-up first', () => {
  assert.deepEqual(schedule(2, 1, 2, 'interleaved'), ['Aw0', 'Bw0', 'A0', 'B0', 'A1', 'B1']);
});

test('sequential order finishes one target before the next', () => {
  assert.deepEqual(schedule(2, 1, 2, 'sequential'), ['Aw0', 'A0', 'A1', 'Bw0', 'B0', 'B1']);
});

test('no warm-up and a single target', () => {
  assert.deepEqual(schedule(1, 0, 3, 'interleaved'), ['A0', 'A1', 'A2']);
});

test('the cursor walks every order and size as the nested loops do', () => {
  // The loops the cursor replaced, written out: phase by phase (interleaved) or target by target.
  const nested = (
    targets: number,
    warmup: number,
    iterations: number,
    order: 'interleaved' | 'sequential',
  ) => {
    const steps: string[] = [];
    const phases: [string, number][] = [
      ['w', warmup],
      ['', iterations],
    ];
    if (order === 'sequential') {
      for (let t = 0; t < targets; t++)
        for (const [p, n] of phases) for (let i = 0; i < n; i++) steps.push(`${'ABC'[t]}${p}${i}`);
    } else {
      for (const [p, n] of phases)
        for (let i = 0; i < n; i++) for (let t = 0; t < targets; t++) steps.push(`${'ABC'[t]}${p}${i}`);
    }
    return steps;
  };
  for (const order of ['interleaved', 'sequential'] as const)
    for (let targets = 1; targets <= 3; targets++)
      for (let warmup = 0; warmup <= 2; warmup++)
        for (let iterations = 0; iterations <= 3; iterations++)
          assert.deepEqual(
            schedule(targets, warmup, iterations, order),
            nested(targets, warmup, iterations, order),
            `${order} ${targets}x(${warmup}+${iterations})`,
          );
});

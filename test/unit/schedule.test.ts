import assert from 'node:assert/strict';
import { test } from 'node:test';
import { schedule } from '../../src/core/schedule';

const labels = (steps: Iterable<{ target: number; phase: string; index: number }>) =>
  [...steps].map((s) => `${'ABC'[s.target]}${s.phase === 'warmup' ? 'w' : ''}${s.index}`);

test('interleaved order alternates targets, warm-up first', () => {
  assert.deepEqual(labels(schedule(2, 1, 2, 'interleaved')), ['Aw0', 'Bw0', 'A0', 'B0', 'A1', 'B1']);
});

test('sequential order finishes one target before the next', () => {
  assert.deepEqual(labels(schedule(2, 1, 2, 'sequential')), ['Aw0', 'A0', 'A1', 'Bw0', 'B0', 'B1']);
});

test('no warm-up and a single target', () => {
  assert.deepEqual(labels(schedule(1, 0, 3, 'interleaved')), ['A0', 'A1', 'A2']);
});

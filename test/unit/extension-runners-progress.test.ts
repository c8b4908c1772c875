import assert from 'node:assert/strict';
import { test } from 'node:test';
import { PlacesProgress } from '../../src/extension/probe/placesProgress';
import type { ProbeEvent } from '../../src/shared/events';
import { TEST_HEADER } from '../helpers/events';

const start = (targets: string[], total: number): ProbeEvent => ({
  type: 'start',
  runId: 'r',
  targets,
  kinds: ['initial'],
  totalSamples: total,
  header: TEST_HEADER,
});
const sample = (target: string, us = 10): ProbeEvent => ({
  type: 'sample',
  target,
  kind: 'initial',
  phase: 'measure',
  index: 0,
  atUs: 0,
  us,
});

test('progress per place: one bar that reaches 100% and one figure per place', () => {
  const progress = new PlacesProgress(['this machine', 'us-east-1']);
  assert.equal(progress.message(), 'this machine: starting · us-east-1: starting');
  let total = progress.handle(0, start(['a'], 2))?.increment ?? 0;
  total += progress.handle(0, sample('a'))?.increment ?? 0;
  assert.equal(progress.message(), 'this machine 50% · us-east-1: starting');
  total += progress.handle(1, start(['a'], 4))?.increment ?? 0;
  total += progress.handle(1, sample('a'))?.increment ?? 0;
  assert.equal(progress.message(), 'this machine 50% · us-east-1 25%');
  total += progress.settle(1, 'failed').increment;
  total += progress.handle(0, sample('a'))?.increment ?? 0;
  total += progress.settle(0, 'done').increment;
  assert.equal(Math.round(total), 100);
  assert.equal(progress.message(), 'this machine: done · us-east-1: failed');
});

test('progress in one place reads as before: per target', () => {
  const progress = new PlacesProgress(['this machine']);
  progress.handle(0, start(['pg', 'redis'], 4));
  progress.handle(0, sample('pg'));
  assert.equal(progress.message(), 'pg initial 1/2 · redis initial 0/2');
});

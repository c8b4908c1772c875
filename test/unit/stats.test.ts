import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LatencyRecorder } from '../../src/core/stats';

test('statistics of a known sample set are exact below 32 ms', () => {
  const recorder = new LatencyRecorder();
  // 1..1000 µs: p50 = 500, p90 = 900, p99 = 990, p99.9 = 999, mean 500.5, sample stddev 288.8194...
  for (let us = 1; us <= 1000; us++) recorder.record(us);
  recorder.recordError();
  const s = recorder.summary();
  assert.equal(s.count, 1000);
  assert.equal(s.errors, 1);
  assert.equal(s.errorRate, 1 / 1001);
  assert.equal(s.minUs, 1);
  assert.equal(s.maxUs, 1000);
  assert.equal(s.meanUs, 500.5);
  assert.equal(s.stddevUs, 288.819);
  assert.equal(s.p50Us, 500);
  assert.equal(s.p90Us, 900);
  assert.equal(s.p95Us, 950);
  assert.equal(s.p99Us, 990);
  assert.equal(s.p999Us, 999);
});

test('an empty recorder reports zeros, not NaN', () => {
  const s = new LatencyRecorder().summary();
  assert.deepEqual(
    [s.count, s.minUs, s.meanUs, s.stddevUs, s.p50Us, s.maxUs, s.errorRate],
    [0, 0, 0, 0, 0, 0, 0],
  );
});

test('values above 32.768 ms keep 4 significant digits', () => {
  const recorder = new LatencyRecorder();
  recorder.record(123_456);
  const s = recorder.summary();
  assert.equal(s.maxUs, 123_456, 'max is exact');
  assert.ok(Math.abs(s.p50Us - 123_456) / 123_456 < 1e-4, `p50 ${s.p50Us} within 0.01%`);
});

test('sub-microsecond samples count as 1 µs', () => {
  const recorder = new LatencyRecorder();
  recorder.record(0);
  assert.equal(recorder.summary().minUs, 1);
});

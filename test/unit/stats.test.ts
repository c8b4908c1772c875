import assert from 'node:assert/strict';
import { test } from 'node:test';
import { LatencyRecorder } from '../../src/core/stats';
import { newHistogram, valuesAtPercentiles } from '../../src/core/histogram';

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

test('the one-pass percentile scan gives exactly what getValueAtPercentile gives', () => {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const percentiles = [50, 90, 95, 99, 99.9, 100];
  for (const [label, draw, n] of [
    ['sub-ms', () => 1 + Math.floor(random() * 900), 1_000],
    ['tens of ms', () => 20_000 + Math.floor(random() ** 3 * 400_000), 5_000],
    [
      'a heavy tail',
      () => (random() < 0.99 ? 300 + Math.floor(random() * 50) : 2_000_000 + Math.floor(random() * 1e9)),
      3_000,
    ],
    ['one value', () => 170_123, 7],
  ] as const) {
    const histogram = newHistogram();
    for (let i = 0; i < n; i++) histogram.recordValue(draw());
    const expected = percentiles.map((p) => histogram.getValueAtPercentile(p));
    assert.deepEqual(valuesAtPercentiles(histogram, percentiles), expected, label);
  }
});

test('values recorded while an answer may be arriving count the same once tidied or summarised', () => {
  const held = new LatencyRecorder();
  const direct = new LatencyRecorder();
  for (let i = 1; i <= 5_000; i++) {
    held.recordHeld(i);
    direct.record(i);
    if (i % 700 === 0) held.flushIfFull();
  }
  assert.deepEqual(held.summary(), direct.summary());
  assert.equal(held.summary().count, 5_000);
});

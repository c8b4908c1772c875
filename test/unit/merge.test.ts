import assert from 'node:assert/strict';
import { test } from 'node:test';
import { encodeHistogram } from '../../src/core/histogram';
import { mergeHistograms } from '../../src/core/merge';
import { LatencyRecorder } from '../../src/core/stats';

function recorderOf(values: number[], errors = 0): LatencyRecorder {
  const r = new LatencyRecorder();
  values.forEach((v) => r.record(v));
  for (let i = 0; i < errors; i++) r.recordError();
  return r;
}

test('merging encoded histograms equals recording every sample in one', () => {
  // Deterministic spread across the exact and the rounded ranges.
  const values = Array.from({ length: 3000 }, (_, i) => 50 + ((i * 7919) % 90_000));
  const a = recorderOf(values.slice(0, 1100), 2);
  const b = recorderOf(values.slice(1100), 3);
  const all = recorderOf(values, 5);

  const merged = mergeHistograms([
    { histogram: encodeHistogram(a.histogram, a.moments), errors: a.errors },
    { histogram: encodeHistogram(b.histogram, b.moments), errors: b.errors },
  ]);
  const expected = all.summary();
  assert.equal(merged.stats.count, expected.count);
  assert.equal(merged.stats.errors, 5);
  for (const key of ['minUs', 'maxUs', 'p50Us', 'p90Us', 'p95Us', 'p99Us', 'p999Us'] as const) {
    assert.equal(merged.stats[key], expected[key], key);
  }
  assert.ok(Math.abs(merged.stats.meanUs - expected.meanUs) < 1e-3, 'mean');
  assert.ok(Math.abs(merged.stats.stddevUs - expected.stddevUs) < 1e-2, 'stddev');
  assert.equal(
    merged.histogram.data,
    encodeHistogram(all.histogram, all.moments).data,
    'same encoded buckets',
  );
});

test('merging nothing gives an empty result', () => {
  const merged = mergeHistograms([]);
  assert.equal(merged.stats.count, 0);
});

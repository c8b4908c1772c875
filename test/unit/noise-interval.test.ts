/** The timing tests' allowance (test/helpers/noiseInterval.ts): an interval that holds a known shift, and the band verdict. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { outsideBand, p50Difference, scaleInterval } from '../helpers/noiseInterval';

/** Deterministic samples around `centre` with a long right tail, as latencies have. */
function samples(centre: number, n: number, seed: number): number[] {
  let state = seed;
  return Array.from({ length: n }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    const u = state / 2 ** 31;
    return centre + 200 * u + (u > 0.9 ? 5_000 * (u - 0.9) : 0);
  });
}

test('the interval of a 20 ms shift holds it, and a band it meets is not missed', () => {
  const plain = samples(1_000, 50, 1);
  const slowed = samples(21_000, 50, 2);
  const d = p50Difference(plain, slowed, 'shift');
  assert.ok(d.lowUs <= 20_000 && 20_000 <= d.highUs + 200, JSON.stringify(d));
  assert.ok(d.highUs - d.lowUs < 300, `narrow for steady samples: ${JSON.stringify(d)}`);
  assert.equal(outsideBand(d, 19_500, 21_500), false);
  assert.equal(outsideBand(d, 39_500, 41_500), true, 'a round trip more is established');
  assert.equal(outsideBand(d, 0, 1_000), true);
});

test('identical sides: the interval holds 0; scaled to round trips it keeps its order', () => {
  const d = p50Difference(samples(1_000, 100, 3), samples(1_000, 100, 4), 'twins');
  assert.ok(d.lowUs <= 0 && d.highUs >= 0, JSON.stringify(d));
  const trips = scaleInterval(p50Difference(samples(0, 50, 5), samples(60_000, 50, 6), 'trips'), 1 / 20_000);
  assert.ok(trips.lowUs <= trips.highUs && Math.abs(trips.pointUs - 3) < 0.05, JSON.stringify(trips));
  assert.equal(outsideBand(trips, 2.7, 3.3), false);
});

test('the same samples give the same interval (seeded by the name)', () => {
  const [a, b] = [samples(1_000, 40, 7), samples(1_500, 40, 8)];
  assert.deepEqual(p50Difference(a, b, 'again'), p50Difference(a, b, 'again'));
});

/**
 * The p50 of slow minus plain, sample by sample: a run interleaves the two targets, so the i-th
 * samples of each ran side by side and a stretch of load on the shared machine (other probes, a
 * browser) slows both alike; the p50 of the differences leaves out the pairs it hit unevenly. The
 * difference of the two p50s (accuracy.test.ts, with 50 samples a side) needs many more samples to
 * be as steady. Divided by a toxiproxy delay per turn, it is the delay-derived round-trip count.
 */
import assert from 'node:assert/strict';
import type { Measurement } from '../../src/shared/result';

export function pairedP50(slow: Measurement, plain: Measurement, netOfCpu = false): number {
  const us = (m: Measurement) =>
    m.samples.values.map((s) => (s.us ?? NaN) - (netOfCpu ? (s.wire?.clientCpuUs ?? NaN) : 0));
  const [a, b] = [us(slow), us(plain)];
  assert.equal(a.length, b.length, 'as many samples a side');
  const differences = a.map((value, i) => value - b[i]!).sort((x, y) => x - y);
  return differences[Math.floor(differences.length / 2)]!;
}

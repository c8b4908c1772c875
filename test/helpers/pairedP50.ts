/**
 * The p50 of slow minus plain, sample by sample: a run interleaves the two targets, so the i-th
 * samples of each ran side by side and a stretch of load on the shared machine (other probes, a
 * browser) slows both alike; the p50 of the differences leaves out the pairs it hit unevenly. The
 * difference of the two p50s (accuracy.test.ts, with 50 samples a side) needs many more samples to
 * be as steady. Divided by a toxiproxy delay per turn, it is the delay-derived round-trip count.
 */
import assert from 'node:assert/strict';
import { mulberry32, seedFromText } from '../../src/shared/judgement/bootstrap';
import type { Measurement } from '../../src/shared/result';

export function pairedP50(slow: Measurement, plain: Measurement, netOfCpu = false): number {
  const us = (m: Measurement) =>
    m.samples.values.map((s) => (s.us ?? NaN) - (netOfCpu ? (s.wire?.clientCpuUs ?? NaN) : 0));
  const [a, b] = [us(slow), us(plain)];
  assert.equal(a.length, b.length, 'as many samples a side');
  const differences = a.map((value, i) => value - b[i]!).sort((x, y) => x - y);
  return differences[Math.floor(differences.length / 2)]!;
}

/**
 * The 95% interval of pairedP50, resampling the pairs (seeded: the same samples, the same interval).
 * How far the host's noise leaves the paired p50 uncertain in this very run: a test that derives a
 * count from it decides only once the interval is narrow enough to tell one count from the next.
 */
export function pairedP50Interval(slow: Measurement, plain: Measurement): [number, number] {
  const a = slow.samples.values.map((s) => s.us ?? NaN);
  const b = plain.samples.values.map((s) => s.us ?? NaN);
  const differences = a.map((value, i) => value - b[i]!);
  const random = mulberry32(seedFromText(`${slow.target}\u0000${plain.target}\u0000${slow.kind}`));
  const medians: number[] = [];
  for (let r = 0; r < 1_000; r++) {
    const drawn = differences.map(() => differences[Math.floor(random() * differences.length)]!);
    drawn.sort((x, y) => x - y);
    medians.push(drawn[Math.floor(drawn.length / 2)]!);
  }
  medians.sort((x, y) => x - y);
  return [medians[25]!, medians[974]!];
}

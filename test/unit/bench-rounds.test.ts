/**
 * The benchmarks' rounds and intervals (scripts/bench/rounds.ts): the interval is the bootstrap's
 * over rounds, the same for the same rounds, and a bench adds rounds until the interval is within 1%
 * of the figure or its cap, then says "not settled".
 */
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { mulberry32 } from '../../src/shared/judgement/bootstrap';
import {
  formatFigure,
  isSettled,
  measureInRounds,
  roundsBlockLength,
  roundsInterval,
} from '../../scripts/bench/rounds';
import type { BenchResult } from '../../scripts/bench/result';

const mean = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0) / xs.length;

test('the interval is seeded: the same rounds give the same interval, and it holds the figure', () => {
  const random = mulberry32(7);
  const rounds = Array.from({ length: 200 }, () => 1 + (random() - 0.5) * 0.2);
  const a = roundsInterval(rounds, mean, 'figure');
  const b = roundsInterval(rounds, mean, 'figure');
  assert.deepEqual(a, b);
  assert.ok(a[0] < mean(rounds) && mean(rounds) < a[1], `${a} holds ${mean(rounds)}`);
  // Uniform noise of ±10% has sd 5.8%: the 95% half-width of a mean of 200 is about 1.96 x 0.058 / √200.
  const half = (a[1] - a[0]) / 2;
  assert.ok(half > 0.006 && half < 0.011, `half-width ${half}`);
});

test('settled means a half-width of at most 1% of the figure', () => {
  assert.equal(isSettled(1, 0.991, 1.009), true);
  assert.equal(isSettled(1, 0.98, 1.01), false);
  assert.equal(isSettled(2, 1.981, 2.019), true);
  assert.equal(isSettled(NaN, 0, 0), false);
});

test('the printed line: name=ratio [low, high] rounds=N, and "not settled" when it is not', () => {
  const figure = { name: 'x_ratio', unit: 'ratio', about: '', value: 1.01234, low: 1.0, high: 1.02 };
  assert.equal(formatFigure({ ...figure, settled: true }, 40), 'x_ratio=1.0123 [1.0000, 1.0200] rounds=40');
  assert.equal(
    formatFigure({ ...figure, settled: false }, 40),
    'x_ratio=1.0123 [1.0000, 1.0200] rounds=40 not settled',
  );
});

async function run(
  noise: number,
  maxRounds: number,
  drift = 0,
  minRounds = 10,
): Promise<{ result: BenchResult; asked: number }> {
  const random = mulberry32(11);
  const outDir = mkdtempSync(path.join(os.tmpdir(), 'dbprobe-bench-rounds-'));
  let asked = 0;
  const log = console.log;
  console.log = () => {};
  try {
    const result = await measureInRounds<{ a: number; b: number }>({
      bench: 'unit',
      command: 'unit test',
      minRounds,
      maxRounds,
      timeCapS: 60,
      checkEvery: 5,
      outDir,
      round: async () => {
        asked += 1;
        // `drift`: the second half of the rounds (of maxRounds) reads that much higher.
        return { a: 1 + (random() - 0.5) * noise + (asked > maxRounds / 2 ? drift : 0), b: 1 };
      },
      figures: [
        {
          name: 'a_ratio',
          about: 'a / b',
          value: (rs) => mean(rs.map((r) => r.a)) / mean(rs.map((r) => r.b)),
        },
      ],
    });
    const saved = JSON.parse(readFileSync(path.join(outDir, 'unit.json'), 'utf8')) as BenchResult;
    assert.deepEqual(saved, result, 'the JSON file is the result');
    return { result, asked };
  } finally {
    console.log = log;
  }
}

test('a quiet figure stops as soon as its interval is within 1%', async () => {
  const { result, asked } = await run(0.02, 1_000);
  assert.equal(result.stoppedBy, 'settled');
  assert.equal(result.rounds, 10, 'settled at the first check');
  assert.equal(asked, 10);
  const [figure] = result.figures;
  assert.ok(figure?.settled);
  assert.ok(result.machine.cores > 0 && result.machine.node === process.version);
});

test('a noisy figure keeps adding rounds, then says it is not settled', async () => {
  const { result, asked } = await run(2, 60);
  assert.equal(result.stoppedBy, 'round cap');
  assert.equal(asked, 60);
  const [figure] = result.figures;
  assert.equal(figure?.settled, false);
  assert.ok(figure.low < figure.value && figure.value < figure.high);
});

test('a figure whose halves disagree is not settled: its blocks widen the interval, and it says drifted', async () => {
  // 400 quiet rounds (no stop before), the second 200 reading 4% higher (the machine's load changed
  // mid-run). Rounds resampled one at a time give a narrow interval around the mix, which no other
  // run would reproduce; blocks of consecutive rounds keep the step and widen it.
  const { result } = await run(0.002, 400, 0.04, 400);
  assert.equal(result.stoppedBy, 'round cap', 'it kept adding rounds');
  const [figure] = result.figures;
  assert.ok(figure, 'one figure');
  const rounds = Array.from({ length: 400 }, (_, i) => 1 + (i >= 200 ? 0.04 : 0));
  const [oneLow, oneHigh] = roundsInterval(rounds, mean, 'a_ratio', 2_000, 1);
  assert.ok(
    (oneHigh - oneLow) / 2 < 0.01,
    `one at a time: half-width ${(oneHigh - oneLow) / 2} looks settled`,
  );
  assert.ok(
    (figure.high - figure.low) / 2 > 0.01 * figure.value,
    `in blocks: half-width ${(figure.high - figure.low) / 2} is not`,
  );
  assert.equal(figure.drifted, true);
  assert.equal(figure.settled, false);
  assert.match(formatFigure(figure, result.rounds), /not settled \(drifted: 1\.00\d\d in the first half/);
});

/** Rounds whose level wanders (AR(1), phi 0.95, sd 2%) under 2% noise: a shared machine's drifting load. */
function wandering(seed: number, count: number): number[] {
  const random = mulberry32(seed);
  const normal = (): number => (random() + random() + random() + random() - 2) * 1.7;
  const phi = 0.95;
  let level = 0.02 * normal();
  return Array.from({ length: count }, () => {
    level = phi * level + Math.sqrt(1 - phi * phi) * 0.02 * normal();
    return 1 + level + 0.02 * normal();
  });
}

test('two consecutive runs of drifting rounds: one-at-a-time intervals miss each other, block intervals overlap', () => {
  const overlap = (a: [number, number], b: [number, number]): boolean => a[0] <= b[1] && b[0] <= a[1];
  const pairs = 50;
  let apartOne = 0;
  let apartBlocks = 0;
  for (let seed = 0; seed < pairs; seed++) {
    const both = wandering(100 + seed, 600);
    const [first, second] = [both.slice(0, 300), both.slice(300)];
    if (!overlap(roundsInterval(first, mean, 'x', 1_000, 1), roundsInterval(second, mean, 'x', 1_000, 1)))
      apartOne += 1;
    if (!overlap(roundsInterval(first, mean, 'x', 1_000), roundsInterval(second, mean, 'x', 1_000)))
      apartBlocks += 1;
    assert.ok(roundsBlockLength(first, mean) > 5, `seed ${seed}: block ${roundsBlockLength(first, mean)}`);
  }
  // Measured: 30 of 50 pairs apart one at a time, 3 of 50 in blocks.
  assert.ok(apartOne >= 20, `one at a time: ${apartOne} of ${pairs} pairs apart`);
  assert.ok(apartBlocks <= 5, `in blocks: ${apartBlocks} of ${pairs} pairs apart`);
});

test('rounds one cannot read a figure from alone fall back to the n^(1/3) block', () => {
  const ratio = (rs: readonly number[]): number => mean(rs) / (rs.length > 1 ? 1 : 0);
  assert.equal(roundsBlockLength([1, 2, 3, 4, 5, 6, 7, 8, 9], ratio), 3);
  const [low, high] = roundsInterval([1, 2, 3, 4, 5, 6, 7, 8, 9], ratio, 'x', 200);
  assert.ok(Number.isFinite(low) && low <= high, `${low}..${high}`);
});

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
import { mulberry32 } from '../../src/shared/bootstrap';
import { formatFigure, isSettled, measureInRounds, roundsInterval } from '../../scripts/bench/rounds';
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

test('a figure whose halves disagree is not settled, however narrow its interval', async () => {
  // 400 quiet rounds (no stop before), the second 200 reading 4% higher (the machine's load changed
  // mid-run): the bootstrap's interval over all 400 is narrow, yet no other run would reproduce the mix.
  const { result } = await run(0.002, 400, 0.04, 400);
  assert.equal(result.stoppedBy, 'round cap', 'it kept adding rounds');
  const [figure] = result.figures;
  assert.ok(
    figure && (figure.high - figure.low) / 2 < 0.01 * figure.value,
    'its interval alone looks settled',
  );
  assert.equal(figure.drifted, true);
  assert.equal(figure.settled, false);
  assert.match(formatFigure(figure, result.rounds), /not settled \(drifted: 1\.00\d\d in the first half/);
});

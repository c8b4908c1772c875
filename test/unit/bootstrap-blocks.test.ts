/**
 * The bootstrap on samples that are not independent: a busy host's slow spells span many consecutive
 * samples. Two identical regime-switching processes (runs of slow samples of random length) must not
 * be told apart more often than a 95% interval allows, and a real 20% shift must still be found.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { blockLength } from '../../src/shared/judgement/blockLength';
import { bootstrapSide, differenceInterval, mulberry32 } from '../../src/shared/judgement/bootstrap';
import { compareTargets } from '../../src/shared/judgement/differences';
import { fakeResult } from '../helpers/extensionRunResult';

/**
 * Latencies around 1 ms that alternate between fast and slow (twice as slow) spells of geometric
 * length: slow spells last `meanSpell` samples on average and hold `slowShare` of the samples.
 */
function regimes(count: number, seed: number, meanSpell = 5, slowShare = 0.3): number[] {
  const random = mulberry32(seed);
  const out: number[] = [];
  let slow = random() < slowShare;
  for (let spells = 0; out.length < count && spells < 10 * count; spells++) {
    const mean = slow ? meanSpell : (meanSpell * (1 - slowShare)) / slowShare;
    const length = Math.max(1, Math.round(-Math.log(1 - random()) * mean));
    for (let i = 0; i < length && out.length < count; i++) {
      const z = (random() + random() + random() + random() - 2) * 1.7;
      out.push(Math.round(1_000 * Math.exp(0.15 * z) * (slow ? 2 : 1)));
    }
    slow = !slow;
  }
  return out;
}

const TRIALS = 200;
const SAMPLES = 400;
const RESAMPLES = 1_000;
const excludesZero = (i: { lowUs: number; highUs: number }): boolean => i.lowUs > 0 || i.highUs < 0;

test('identical autocorrelated processes: samples one at a time "differ" often, blocks about 5% of the time', () => {
  let independent = 0;
  let blocks = 0;
  for (let trial = 0; trial < TRIALS; trial++) {
    const a = regimes(SAMPLES, 1_000 + 2 * trial);
    const b = regimes(SAMPLES, 1_001 + 2 * trial);
    const one = { resamples: RESAMPLES, blockLength: 1 };
    if (
      excludesZero(
        differenceInterval(bootstrapSide(a, `a${trial}`, one), bootstrapSide(b, `b${trial}`, one), 50),
      )
    )
      independent += 1;
    const own = { resamples: RESAMPLES };
    if (
      excludesZero(
        differenceInterval(bootstrapSide(a, `a${trial}`, own), bootstrapSide(b, `b${trial}`, own), 50),
      )
    )
      blocks += 1;
  }
  // Measured: 53 of 200 one at a time, 11 of 200 in blocks (5.5%; a 95% interval's share is 10).
  assert.ok(independent >= 0.2 * TRIALS, `one at a time excluded 0 in ${independent} of ${TRIALS}`);
  assert.ok(blocks <= 0.07 * TRIALS, `blocks excluded 0 in ${blocks} of ${TRIALS} (at most 7% allowed)`);
});

test('a real 20% shift on the same autocorrelated processes is still established', () => {
  let found = 0;
  for (let trial = 0; trial < TRIALS; trial++) {
    const a = regimes(SAMPLES, 1_000 + 2 * trial);
    const b = regimes(SAMPLES, 1_001 + 2 * trial).map((us) => us * 1.2);
    const interval = differenceInterval(
      bootstrapSide(a, `a${trial}`, { resamples: RESAMPLES }),
      bootstrapSide(b, `b${trial}`, { resamples: RESAMPLES }),
      50,
    );
    // Never the wrong way round; found when the whole interval says b is slower.
    assert.ok(
      interval.highUs > 0,
      `trial ${trial}: the interval ${interval.lowUs}..${interval.highUs} favours b`,
    );
    if (interval.lowUs > 0) found += 1;
  }
  // Measured: 174 of 200.
  assert.ok(found >= 0.8 * TRIALS, `the shift established in ${found} of ${TRIALS}`);
});

test('block length: near n^(1/3) for independent samples, longer where slow spells are long', () => {
  const random = mulberry32(7);
  const independent = Array.from({ length: 1_000 }, () => 1_000 + Math.round(500 * random()));
  assert.ok(blockLength(independent) <= 2 * Math.cbrt(1_000), `independent: ${blockLength(independent)}`);
  const spells = regimes(1_000, 8, 20);
  assert.ok(blockLength(spells) >= 20, `spells of 20: ${blockLength(spells)}`);
  // The same values out of order lose their spells: the length reads the order samples came in.
  const shuffled = [...spells].sort(() => random() - 0.5);
  assert.ok(blockLength(shuffled) < blockLength(spells) / 2, `shuffled: ${blockLength(shuffled)}`);
  assert.equal(blockLength([5, 1, 3]), 1);
  assert.ok(blockLength(new Array<number>(100).fill(7)) >= 1, 'constant samples: a length all the same');
});

test('the cap keeps the order samples were taken in: every tenth sample of a long run, in order', () => {
  const long = regimes(20_000, 9, 200);
  const side = bootstrapSide(long, 'long');
  assert.equal(side.used, 2_000);
  const everyTenth = long.filter((_, i) => i % 10 === 0);
  assert.equal(side.blockLength, blockLength(everyTenth));
  assert.ok(side.blockLength >= 20, `capped run of spells: block ${side.blockLength}`);
});

test('the Differences table reads each target samples in the order taken', () => {
  const spells = regimes(400, 10, 20);
  const result = fakeResult(
    [
      { name: 'left', driver: 'pg', transport: 'tcp' },
      { name: 'right', driver: 'pg', transport: 'tcp' },
    ],
    [
      { target: 'left', kind: 'initial', p50Us: 1_000, samplesUs: spells },
      { target: 'right', kind: 'initial', p50Us: 1_000, samplesUs: regimes(400, 11, 20) },
    ],
  );
  // Drawn from the samples in the order taken, seeded as the table seeds them: the table's interval
  // must be this one (shuffled samples would give another block length, and another interval).
  const left = bootstrapSide(spells, 'initial\u0000left');
  const right = bootstrapSide(regimes(400, 11, 20), 'initial\u0000right');
  assert.equal(left.blockLength, blockLength(spells));
  assert.ok(left.blockLength >= 20, `block ${left.blockLength}`);
  const expected = differenceInterval(left, right, 50);
  const p50 = compareTargets(result).comparisons[0]?.differences.find((d) => d.percentile === 50);
  assert.ok(p50, 'the pair was compared at p50');
  assert.deepEqual([p50.lowUs, p50.highUs], [expected.lowUs, expected.highUs]);
});

test('a side drawn again from equal samples is the same draw; other samples are drawn anew', () => {
  const samples = regimes(400, 10, 20);
  const first = bootstrapSide(samples, 'cache\u0000a');
  assert.equal(bootstrapSide([...samples], 'cache\u0000a'), first, 'equal samples: the kept draw');
  const changed = [...samples];
  changed[7] = changed[7]! + 1;
  const other = bootstrapSide(changed, 'cache\u0000a');
  assert.notEqual(other, first, 'one sample changed: drawn anew');
  assert.notEqual(bootstrapSide(samples, 'cache\u0000b'), first, 'another seed: drawn anew');
  assert.notEqual(
    bootstrapSide(samples, 'cache\u0000a', { resamples: 500 }),
    first,
    'other options: drawn anew',
  );
});

/**
 * The client watch's verdict on loop stalls (src/core/clientWatch.ts judgeStalls), on synthetic
 * samples: stalls that at least doubled a typical sample, on at least 1% of the samples, name the
 * client; a driver's own uneven work (a fraction of a sample) or a handful of stalls do not.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeStalls, type Stall } from '../../src/core/clientWatch';
import type { Measurement, SampleRecord } from '../../src/shared/result';

/** n samples of `us` each, 1 ms apart; `inflated` indexes took `extraUs` more. */
function measurement(n: number, us: number, inflated: ReadonlyMap<number, number> = new Map()): Measurement {
  const values: SampleRecord[] = [];
  for (let i = 0; i < n; i++) values.push({ atUs: i * 100_000, us: us + (inflated.get(i) ?? 0) });
  return {
    target: 'pg',
    kind: 'initial',
    stats: {
      count: n,
      errors: 0,
      errorRate: 0,
      minUs: us,
      meanUs: us,
      stddevUs: 0,
      p50Us: us,
      p90Us: us,
      p95Us: us,
      p99Us: us,
      p999Us: us,
      maxUs: us,
    },
    samples: { cap: n, dropped: 0, values },
  } as unknown as Measurement;
}

/** A stall of `lengthUs` inside each listed sample. */
function stallsIn(m: Measurement, indexes: readonly number[], lengthUs: number): Stall[] {
  return indexes.map((i) => {
    const at = m.samples.values[i]!.atUs + 100;
    return { fromUs: at, toUs: at + lengthUs };
  });
}

function judge(m: Measurement, stalls: Stall[]) {
  return judgeStalls(stalls, { measurements: [m], embedded: new Set(), offsetUs: 0 });
}

test('50 ms stalls in 2% of 3 ms samples name the client', () => {
  const hit = Array.from({ length: 16 }, (_, i) => 10 + i * 40);
  const m = measurement(800, 3_000, new Map(hit.map((i) => [i, 50_000])));
  const limited = judge(m, stallsIn(m, hit, 50_000));
  assert.equal(limited.length, 1);
  assert.match(limited[0]!.note, /event-loop delay during 16 samples/);
});

test('stalls shorter than a typical sample are the driver’s own unevenness, not the client’s limit', () => {
  // 2 ms stalls in 5% of 3 ms connects: a busy host stretches a driver's own callbacks this much.
  const hit = Array.from({ length: 10 }, (_, i) => 5 + i * 19);
  const m = measurement(200, 3_000, new Map(hit.map((i) => [i, 2_000])));
  assert.deepEqual(judge(m, stallsIn(m, hit, 2_000)), []);
});

test('long stalls on fewer than 1% of the samples cannot move the p99 and are not named', () => {
  const hit = [100, 300, 500, 700];
  const m = measurement(800, 300, new Map(hit.map((i) => [i, 20_000])));
  assert.deepEqual(judge(m, stallsIn(m, hit, 20_000)), []);
  // Nine of 800, over 1%, are named.
  const more = [...hit, 110, 310, 510, 710, 750];
  const m2 = measurement(800, 300, new Map(more.map((i) => [i, 20_000])));
  assert.equal(judge(m2, stallsIn(m2, more, 20_000)).length, 1);
});

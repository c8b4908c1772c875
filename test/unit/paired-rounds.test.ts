/**
 * Two sides taken round by round on shared connections (an ORM layer over its raw driver): at p50
 * the interval is of the median of the rounds' own differences, so what each round's moment added to
 * both cancels in its difference. A small layer amid a large shared spread is established; the same
 * samples drawn as two independent sides are not, or only with a far wider interval.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import {
  bootstrapSide,
  differenceInterval,
  intervalEnds,
  mulberry32,
  pairedSides,
} from '../../src/shared/judgement/bootstrap';
import { layerOverheads } from '../../src/shared/judgement/layerOverhead';
import type { RunResult } from '../../src/shared/result';

/** Rounds whose moments move both sides by up to 120 µs; the layer adds 12 µs (± 2) to each. */
function rounds(n: number): { raw: number[]; layer: number[] } {
  const random = mulberry32(42);
  const raw: number[] = [];
  const layer: number[] = [];
  for (let i = 0; i < n; i++) {
    const moment = 150 + 120 * random();
    raw.push(moment);
    layer.push(moment + 12 + 4 * (random() - 0.5));
  }
  return { raw, layer };
}

test('a saved kysely-over-pg run: the median of the rounds differences establishes what the medians did not', () => {
  // A real run (npm run bench:verdict, quiet 2-core VM): kysely over the testbed's pg, 100 rounds on
  // 4 shared connections. The difference of the two medians, drawn with the same rounds, was
  // +10 µs (95% CI -1 to +17): "within noise". Each round's own difference cancels its moment.
  const result = JSON.parse(
    readFileSync(path.join(__dirname, '..', 'fixtures', 'results', 'orm-kysely-paired.json'), 'utf8'),
  ) as RunResult;
  const warm = layerOverheads(result).find((o) => o.kind === 'subsequent');
  assert.ok(warm, 'the layer was compared on the warm query');
  assert.equal(warm.established, true, warm.sentence);
  assert.ok(
    warm.lowUs > 0 && warm.lowUs <= warm.overheadUs && warm.overheadUs <= warm.highUs,
    JSON.stringify(warm),
  );
  assert.match(
    warm.sentence,
    /adds 0\.0\d\d ms to each warm query over pg \(the median of per-query differences on shared connections, 95% CI \+0\.0\d\d to \+0\.0\d\d ms\)/,
  );

  // The same rounds' medians, side against side: the interval the old figure had.
  const values = (target: string) =>
    result.measurements
      .find((m) => m.target === target && m.kind === 'subsequent')!
      .samples.values.map((v) => v.us!);
  const [a, b] = pairedSides(
    { values: values('pg') },
    { values: values('pg · kysely') },
    'subsequent\u0000pg\u0000pg · kysely',
  );
  const medians = Float64Array.from(a.resampled[50], (x, i) => b.resampled[50][i]! - x);
  const [low] = intervalEnds(medians);
  assert.ok(low <= 0, `the difference of the medians does not exclude 0 (low end ${low} µs)`);
});

test('synthetic rounds: a 12 µs layer amid a 120 µs shared spread, established and narrow', () => {
  const { raw, layer } = rounds(100);
  const [a, b] = pairedSides({ values: raw }, { values: layer }, 'paired\u0000test');
  const paired = differenceInterval(a, b, 50);
  assert.ok(paired.diffUs > 10 && paired.diffUs < 14, `median of differences ${paired.diffUs}`);
  assert.ok(paired.lowUs > 0 && paired.highUs - paired.lowUs < 4, JSON.stringify(paired));
  const apart = differenceInterval(
    bootstrapSide(raw, 'apart\u0000raw'),
    bootstrapSide(layer, 'apart\u0000layer'),
    50,
  );
  assert.ok(
    apart.highUs - apart.lowUs > 5 * (paired.highUs - paired.lowUs),
    `independent sides: ${JSON.stringify(apart)}`,
  );
});

test('paired sides beyond p50 still compare the two percentiles, and no pair shares rounds with another', () => {
  const { raw, layer } = rounds(400);
  const [a, b] = pairedSides({ values: raw }, { values: layer }, 'paired\u0000tail');
  const p95 = differenceInterval(a, b, 95);
  assert.equal(p95.diffUs, b.point[95] - a.point[95]);
  const other = bootstrapSide(layer, 'other\u0000side');
  const mixed = differenceInterval(a, other, 50);
  assert.equal(mixed.diffUs, other.point[50] - a.point[50], 'a paired side against an unpaired one: medians');
});

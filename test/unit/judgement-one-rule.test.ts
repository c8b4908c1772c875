/**
 * One comparison rule: the Differences table (compareTargets), the ranking's tie groups (judgeRun)
 * and the change gate (judgeChanges with no noise band) must say the same of the same pair.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { compareTargets } from '../../src/shared/judgement/differences';
import { judgeChanges } from '../../src/shared/judgement/judgeChanges';
import { judgeRun } from '../../src/shared/judgement/judgeRun';
import type { ProbeKind } from '../../src/shared/plan';
import { fakeResult } from '../helpers/extensionRunResult';
import { around } from '../helpers/projectionResult';

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.ceil(values.length / 2) - 1]!;

function oneRun(id: string, kind: ProbeKind, sides: { name: string; samplesUs: number[] }[]) {
  return fakeResult(
    sides.map((s) => ({ name: s.name, driver: 'pg', transport: 'tcp' })),
    sides.map((s) => ({ target: s.name, kind, p50Us: median(s.samplesUs), samplesUs: s.samplesUs })),
    { id },
  );
}

// Pairs on both sides of each kind's floor: 20% of the faster + 0.5 ms for initial, 50% + 0.5 ms for subsequent.
const PAIRS: { kind: ProbeKind; aUs: number; bUs: number }[] = [
  { kind: 'initial', aUs: 10_000, bUs: 10_000 },
  { kind: 'initial', aUs: 10_000, bUs: 10_400 },
  { kind: 'initial', aUs: 10_000, bUs: 11_040 },
  { kind: 'initial', aUs: 10_000, bUs: 11_500 },
  { kind: 'initial', aUs: 10_000, bUs: 12_600 },
  { kind: 'initial', aUs: 10_000, bUs: 20_000 },
  { kind: 'subsequent', aUs: 300, bUs: 330 },
  { kind: 'subsequent', aUs: 300, bUs: 900 },
  { kind: 'subsequent', aUs: 300, bUs: 1_100 },
  { kind: 'subsequent', aUs: 300, bUs: 3_000 },
];

test('the Differences table, the tie groups and the change gate agree on every pair', () => {
  const verdicts: string[] = [];
  for (const { kind, aUs, bUs } of PAIRS) {
    const a = around(aUs, aUs / 10, 401);
    const b = around(bUs, bUs / 10, 401);
    const both = oneRun('both', kind, [
      { name: 'a', samplesUs: a },
      { name: 'b', samplesUs: b },
    ]);
    const table = compareTargets(both).comparisons[0]!.differences.find((d) => d.percentile === 50)!;
    const groups = judgeRun(both).rankings.find(
      (r) => r.question === (kind === 'initial' ? 'new connection' : 'warm query'),
    )!.groups.length;
    const gate = judgeChanges(
      oneRun('base', kind, [{ name: 'db', samplesUs: a }]),
      oneRun('head', kind, [{ name: 'db', samplesUs: b }]),
      {
        noiseShare: 0,
      },
    ).changes[0]!.percentiles.find((p) => p.percentile === 50)!;
    const label = `${kind} ${aUs} vs ${bUs}`;
    assert.equal(groups === 2, table.established, `${label}: tie groups vs table`);
    assert.equal(
      gate.verdict === 'regressed',
      table.established,
      `${label}: gate ${gate.verdict} vs table ${table.text}`,
    );
    verdicts.push(`${label}: ${table.established ? 'established' : 'not established'}`);
  }
  // The pairs straddle each floor, so the agreement above is about both answers, not one.
  assert.deepEqual(verdicts, [
    'initial 10000 vs 10000: not established',
    'initial 10000 vs 10400: not established',
    'initial 10000 vs 11040: not established',
    'initial 10000 vs 11500: not established',
    'initial 10000 vs 12600: established',
    'initial 10000 vs 20000: established',
    'subsequent 300 vs 330: not established',
    'subsequent 300 vs 900: not established',
    'subsequent 300 vs 1100: established',
    'subsequent 300 vs 3000: established',
  ]);
});

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

// Pairs from equal to far apart, judged with no minimum effect and with one of 20%: the run's own
// intervals decide the first, and the user's minimum holds back what lies below it in the second.
const PAIRS: { kind: ProbeKind; aUs: number; bUs: number }[] = [
  { kind: 'initial', aUs: 10_000, bUs: 10_000 },
  { kind: 'initial', aUs: 10_000, bUs: 10_050 },
  { kind: 'initial', aUs: 10_000, bUs: 11_040 },
  { kind: 'initial', aUs: 10_000, bUs: 12_600 },
  { kind: 'subsequent', aUs: 300, bUs: 300 },
  { kind: 'subsequent', aUs: 300, bUs: 330 },
  { kind: 'subsequent', aUs: 300, bUs: 900 },
];
const MIN_EFFECTS = [undefined, { share: 0.2 }] as const;

test('the Differences table, the tie groups and the change gate agree on every pair', () => {
  const verdicts: string[] = [];
  for (const minEffect of MIN_EFFECTS) {
    for (const { kind, aUs, bUs } of PAIRS) {
      const a = around(aUs, aUs / 10, 401);
      const b = around(bUs, bUs / 10, 401);
      const both = oneRun('both', kind, [
        { name: 'a', samplesUs: a },
        { name: 'b', samplesUs: b },
      ]);
      if (minEffect) both.plan.minEffect = minEffect;
      const table = compareTargets(both).comparisons[0]!.differences.find((d) => d.percentile === 50)!;
      const groups = judgeRun(both).rankings.find(
        (r) => r.question === (kind === 'initial' ? 'new connection' : 'warm query'),
      )!.groups.length;
      const gate = judgeChanges(
        oneRun('base', kind, [{ name: 'db', samplesUs: a }]),
        oneRun('head', kind, [{ name: 'db', samplesUs: b }]),
        minEffect ? { minEffect } : {},
      ).changes[0]!.percentiles.find((p) => p.percentile === 50)!;
      const label = `${kind} ${aUs} vs ${bUs}${minEffect ? ' (min 20%)' : ''}`;
      assert.equal(groups === 2, table.established, `${label}: tie groups vs table`);
      assert.equal(
        gate.verdict === 'regressed',
        table.established,
        `${label}: gate ${gate.verdict} vs table ${table.text}`,
      );
      verdicts.push(`${label}: ${table.established ? 'established' : 'not established'}`);
    }
  }
  // Both answers occur, and the minimum effect is what turns the middle pairs from one to the other.
  assert.deepEqual(verdicts, [
    'initial 10000 vs 10000: not established',
    'initial 10000 vs 10050: not established',
    'initial 10000 vs 11040: established',
    'initial 10000 vs 12600: established',
    'subsequent 300 vs 300: not established',
    'subsequent 300 vs 330: established',
    'subsequent 300 vs 900: established',
    'initial 10000 vs 10000 (min 20%): not established',
    'initial 10000 vs 10050 (min 20%): not established',
    'initial 10000 vs 11040 (min 20%): not established',
    'initial 10000 vs 12600 (min 20%): established',
    'subsequent 300 vs 300 (min 20%): not established',
    'subsequent 300 vs 330 (min 20%): not established',
    'subsequent 300 vs 900 (min 20%): established',
  ]);
});

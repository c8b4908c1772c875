/**
 * Two targets interleaved in one run on a busy host: a gap made by one side's samples waiting for a
 * CPU longer than the other's, at the same moments, is the host's, not the targets' (hostEvidence.ts
 * interleavedWaitsCoincide); a gap with no such wait behind it stays established.
 */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { compareTargets } from '../../src/shared/judgement/differences';
import { judgeRun } from '../../src/shared/judgement/judgeRun';
import { interleavedWaitsCoincide } from '../../src/shared/judgement/hostEvidence';
import type { RunResult } from '../../src/shared/result';

const twins = (): RunResult =>
  JSON.parse(
    readFileSync(path.join(__dirname, '..', 'fixtures', 'results', 'twins-beside-hog.json'), 'utf8'),
  ) as RunResult;

test('a saved run of one pg twice beside a CPU hog: the gap is the wait, not a winner', () => {
  // A real run (two `yes` processes on the 2-core VM, initial, 100 samples a side): twin-a 12.1 vs
  // twin-b 10.7 ms, 95% CI excluding 0 by 0.11 ms, while twin-a's samples waited 0.94 ms longer each.
  const result = twins();
  const p50 = compareTargets(result).comparisons[0]!.differences.find((d) => d.percentile === 50)!;
  assert.ok(p50.highUs < 0, `the interval alone excludes 0: ${p50.lowUs} to ${p50.highUs}`);
  assert.equal(p50.established, false);
  assert.equal(p50.notEstablishedBy, 'host');
  assert.match(
    p50.text,
    /^difference at p50 between twin-a and twin-b not attributable: twin-a's samples waited for a CPU 0\.944 ms longer each than twin-b's at the same moments \(3\.83 vs 2\.89 ms a sample\); /,
  );
  const lines = judgeRun(result).lines;
  assert.ok(!lines.some((l) => /twin-[ab] fastest/.test(l)), lines.join('\n'));
  assert.match(
    lines[0]!,
    /^New connection here: twin-a behind twin-b not attributable: twin-a's samples waited/,
  );
});

test('the same gap with equal waits on both sides is established', () => {
  const result = twins();
  // The same latencies, each sample's wait set to its side's mean over both: no side waited more.
  const all = result.measurements.flatMap((m) => m.samples.values.map((s) => s.cpuWaitUs ?? 0));
  const even = all.reduce((a, b) => a + b, 0) / all.length;
  for (const m of result.measurements) for (const s of m.samples.values) s.cpuWaitUs = even;
  const p50 = compareTargets(result).comparisons[0]!.differences.find((d) => d.percentile === 50)!;
  assert.equal(p50.established, true, p50.text);
  assert.match(p50.text, /^twin-b is 1\.365 ms faster than twin-a at p50/);
});

test('the rule: the slower side must have waited more, by at least the established part', () => {
  const interval = { diffUs: 1000, lowUs: 100, highUs: 1900 }; // b slower by 0.1 ms at least
  const said = (aWait: number, bWait: number) =>
    interleavedWaitsCoincide({ name: 'a', waitUs: aWait }, { name: 'b', waitUs: bWait }, interval);
  assert.equal(said(500, 600)?.busier, 'b', 'b waited 0.1 ms more: the established part');
  assert.equal(said(500, 599), undefined, 'less than the established part');
  assert.equal(said(900, 600), undefined, 'the faster side waited more: not the host');
  assert.equal(
    interleavedWaitsCoincide(
      { name: 'a', waitUs: 0 },
      { name: 'b', waitUs: 5000 },
      { diffUs: 9, lowUs: -1, highUs: 20 },
    ),
    undefined,
    'nothing established, nothing to explain',
  );
  assert.equal(
    interleavedWaitsCoincide({ name: 'a', waitUs: undefined }, { name: 'b', waitUs: 900 }, interval),
    undefined,
  );
});

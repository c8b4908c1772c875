/** Where the bootstrap differences show: the Markdown export, the panel's and the compare view's models. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import { buildCompareViewModel } from '../../src/extension/model/compareViewModel';
import { buildRunViewModel } from '../../src/extension/model/runViewModel';
import { FORMATTERS } from '../../src/report/formatters';
import type { RunResult } from '../../src/shared/result';
import { fakeResult } from '../helpers/extensionRunResult';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';

/** Constant latencies through the real engine: "tcp" queries take 1 ms, "http" ones 8 ms, "twin" 1 ms. */
async function engineRun(): Promise<RunResult> {
  const clock = new FakeClock();
  const registry = fakeRegistry([
    fakeDriver('tcp', clock, { connectUs: [20_000], queryUs: [1_000] }, new FakeDriverStats()),
    fakeDriver('http', clock, { connectUs: [0], queryUs: [8_000] }, new FakeDriverStats()),
    fakeDriver('twin', clock, { connectUs: [20_000], queryUs: [1_000] }, new FakeDriverStats()),
  ]);
  return runPlan(plan([target('tcp'), target('http'), target('twin')], { iterations: 20, warmup: 1 }), {
    registry,
    resolveConnection: async () => 'fake://u:p@h/db',
    tool: TOOL,
    clock,
    watchClient: false,
  });
}

test('markdown: a differences table with the sentence, n per side, and "not established" at 0', async () => {
  const md = FORMATTERS.markdown(await engineRun());
  assert.match(md, /## Differences between targets/);
  assert.match(md, /2,000 resamples, seeded/);
  const subsequent = md.split('\n').filter((line) => line.startsWith('| subsequent |'));
  assert.equal(subsequent.length, 3, 'three targets, three pairs');
  const tcpHttp = subsequent.find((line) => line.startsWith('| subsequent | tcp | http |'));
  assert.ok(tcpHttp, subsequent.join('\n'));
  assert.match(tcpHttp, /\| 20 \/ 20 \| \+7\.000 \| \+7\.000 to \+7\.000 \|/);
  assert.match(tcpHttp, /tcp is 7\.000 ms faster than http at p50 \(95% CI 7\.000 to 7\.000 ms\)/);
  const twins = subsequent.find((line) => line.startsWith('| subsequent | tcp | twin |'));
  assert.match(twins ?? '', /difference at p50 between tcp and twin not established: twin - tcp = 0\.000 ms/);
});

test('markdown: the same run formats to the same intervals (seeded)', async () => {
  const run = fakeResult(
    [
      { name: 'a', driver: 'pg', transport: 'tcp' },
      { name: 'b', driver: 'pg', transport: 'tcp' },
    ],
    [
      {
        target: 'a',
        kind: 'subsequent',
        p50Us: 500,
        samplesUs: Array.from({ length: 40 }, (_, i) => 400 + ((i * 37) % 200)),
      },
      {
        target: 'b',
        kind: 'subsequent',
        p50Us: 520,
        samplesUs: Array.from({ length: 40 }, (_, i) => 420 + ((i * 53) % 200)),
      },
    ],
  );
  const section = (md: string) => md.slice(md.indexOf('## Differences'), md.indexOf('\n---\n'));
  assert.ok(section(FORMATTERS.markdown(run)).includes('| subsequent | a | b | 40 / 40 |'));
  assert.equal(section(FORMATTERS.markdown(run)), section(FORMATTERS.markdown(structuredClone(run))));
});

test('panel: the run view model carries every pair per kind, and the targets left out', async () => {
  const model = buildRunViewModel(await engineRun());
  const { comparisons, skipped } = model.differences;
  assert.deepEqual(
    comparisons.map((c) => `${c.kind}:${c.a}-${c.b}`),
    [
      'initial:tcp-http',
      'initial:tcp-twin',
      'initial:http-twin',
      'subsequent:tcp-http',
      'subsequent:tcp-twin',
      'subsequent:http-twin',
    ],
  );
  assert.deepEqual(skipped, []);
  const initial = comparisons[0]!.differences[0]!;
  // initial = connect + query: tcp 21 ms, http 8 ms.
  assert.equal(initial.diffUs, -13_000);
  assert.equal(initial.text, 'http is 13.000 ms faster than tcp at p50 (95% CI 13.000 to 13.000 ms)');
});

test('compare view: a differences row per target and kind both runs measured, B against A', () => {
  const targets = [{ name: 'pg', driver: 'pg', transport: 'tcp' }];
  const a = fakeResult(targets, [
    { target: 'pg', kind: 'subsequent', p50Us: 1_000, samplesUs: Array(30).fill(1_000) },
  ]);
  const b = fakeResult(
    targets,
    [{ target: 'pg', kind: 'subsequent', p50Us: 2_500, samplesUs: Array(30).fill(2_500) }],
    { id: '99999999-2222-4333-8444-555555555555' },
  );
  const model = buildCompareViewModel(a, b);
  assert.equal(model.differences.length, 1);
  const [row] = model.differences;
  assert.equal(row?.target, 'pg');
  assert.deepEqual(row?.samples, { a: 30, b: 30, keptA: 30, keptB: 30 });
  assert.equal(
    row?.differences[0]?.text,
    'run A is 1.500 ms faster than run B at p50 (95% CI 1.500 to 1.500 ms)',
  );
});

test('subsequent over four connections: the interval resamples connections, so one slow backend names no winner', () => {
  const targets = [
    { name: 'a', driver: 'pg', transport: 'tcp' },
    { name: 'b', driver: 'pg', transport: 'tcp' },
  ];
  // Each side: four connections taken in turn, each steady at its own figure (backends differ).
  const backends = (figures: number[]) => Array.from({ length: 40 }, (_, i) => figures[i % 4]!);
  const verdict = (a: number[], b: number[]) => {
    const result = fakeResult(targets, [
      { target: 'a', kind: 'subsequent', p50Us: a[0]!, samplesUs: backends(a) },
      { target: 'b', kind: 'subsequent', p50Us: b[0]!, samplesUs: backends(b) },
    ]);
    for (const m of result.measurements)
      m.samples.values.forEach((s, i) => s.us !== undefined && (s.conn = i % 4));
    const comparison = buildRunViewModel(result).differences.comparisons[0]!;
    return { comparison, p50: comparison.differences[0]! };
  };
  // The same four backends' spread on both sides, b's one slow connection where a's is fast.
  const twins = verdict([190, 200, 210, 480], [480, 190, 200, 230]);
  assert.deepEqual(twins.comparison.resampledBy, { by: 'connections', connections: 4 });
  assert.equal(twins.p50.established, false, twins.p50.text);
  // Four steady connections a side, 1.3 ms apart on every one: named.
  const apart = verdict([195, 195, 195, 195], [1_500, 1_500, 1_500, 1_500]);
  assert.equal(apart.p50.established, true);
  assert.equal(apart.p50.text, 'a is 1.305 ms faster than b at p50 (95% CI 1.305 to 1.305 ms)');
});

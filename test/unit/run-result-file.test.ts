/**
 * A saved run result is validated before compare or --baseline forms a figure from it: a real
 * result passes, each hand-made breakage is refused with its field, and the shipped JSON Schema
 * refuses the same (both come from one definition, which bounds latencies at an hour).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { readRunFile } from '../../src/cli/readRunFile';
import { runPlan } from '../../src/core/engine';
import { runResultProblem } from '../../src/core/validate/validateRunResult';
import type { RunResult } from '../../src/shared/result';
import { clientShareOf } from '../../src/shared/wireRows';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';
import { isRejected } from '../helpers/schema';
import { tempDir } from '../helpers/tempDir';

async function savedResult(): Promise<RunResult> {
  const clock = new FakeClock();
  const registry = fakeRegistry([
    fakeDriver('a', clock, { connectUs: [900], queryUs: [120, 80] }, new FakeDriverStats()),
  ]);
  const result = await runPlan(plan([target('a')], { iterations: 20, warmup: 0 }), {
    registry,
    resolveConnection: async () => 'fake://u:p@h/db',
    tool: TOOL,
    clock,
  });
  return JSON.parse(JSON.stringify(result)) as RunResult;
}

function withSamples(result: RunResult, us: unknown): RunResult {
  const copy = structuredClone(result);
  for (const sample of copy.measurements[0]!.samples.values) (sample as { us?: unknown }).us = us;
  return copy;
}

test('a real result passes; negative, text and 1e308 µs latencies are refused with the field', async () => {
  const result = await savedResult();
  assert.equal(runResultProblem(result), undefined);
  const refusals: [unknown, RegExp, boolean][] = [
    [
      -5,
      /^measurements\[0\]\.samples\.values\[0\]\.us: must be a latency in µs from 0 to 3600000000 \(an hour; got -5\)$/,
      true,
    ],
    ['abc', /\.us: must be a latency .*got "abc"/, true],
    [1e308, /\.us: .*got 1e\+308/, true],
  ];
  for (const [us, message, schemaRefuses] of refusals) {
    const broken = withSamples(result, us);
    assert.match(runResultProblem(broken) ?? '', message, String(us));
    assert.equal(isRejected('result', broken), schemaRefuses, `the schema on ${String(us)}`);
  }
  assert.match(runResultProblem({ ...result, schema: 'other' }) ?? '', /not a dbprobe run result/);
  assert.match(
    runResultProblem({
      ...result,
      measurements: [{ ...result.measurements[0], stats: { count: 'many' } }],
    }) ?? '',
    /^measurements\[0\]\.stats\.count: must be a whole number from 0/,
  );
});

test("a failure's time to failure may be absent (earlier versions), but never nonsense", async () => {
  const result = await savedResult();
  const withFailure = (sample: Record<string, unknown>) => {
    const copy = structuredClone(result);
    copy.measurements[0]!.samples.values[0] = sample as never;
    return copy;
  };
  assert.equal(runResultProblem(withFailure({ atUs: 5, error: 'timeout' })), undefined);
  assert.equal(
    runResultProblem(withFailure({ atUs: 5, error: 'timeout', failedAfterUs: 2_000_000 })),
    undefined,
  );
  for (const bad of [-1, 'slow', 1e308]) {
    const broken = withFailure({ atUs: 5, error: 'timeout', failedAfterUs: bad });
    assert.match(
      runResultProblem(broken) ?? '',
      /^measurements\[0\]\.samples\.values\[0\]\.failedAfterUs: must be a latency in µs/,
      String(bad),
    );
  }
});

test('readRunFile reads at most its bound: a larger file is refused before it is parsed', async () => {
  const dir = tempDir('run-file');
  const file = path.join(dir, 'base.json');
  writeFileSync(file, JSON.stringify(await savedResult()));
  assert.equal(readRunFile(file, 'BASE').schema, 'dbprobe.run/v1');
  assert.throws(() => readRunFile(file, 'BASE', 100), /BASE \S+ is 0\.0 MB; the limit is 0\.0 MB/);
  assert.throws(() => readRunFile('/dev/zero', 'BASE'), /not a regular file/);
});

test("the client's share of a connect is at most the whole connect", () => {
  assert.equal(clientShareOf(250, 1000), 0.25);
  assert.equal(clientShareOf(1060, 1000), 1, 'a process-wide CPU reading above the wall time');
});

/**
 * The GitHub Action (action.yml) run step by step as GitHub runs a composite action
 * (test/helpers/actionSteps.ts), against the testbed's PostgreSQL: the install step builds the CLI
 * package from this source (the default `package` input) into a folder of its own; the probe step
 * writes the Markdown to the job summary and the verdicts, result path and change to the outputs;
 * a failed threshold fails the step.
 */
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { before, test } from 'node:test';
import type { RunResult } from '../../src/shared/result';
import { readAction, runStep, type ActionContext, type ActionFile } from '../helpers/actionSteps';
import { tempDir } from '../helpers/tempDir';
import { assertNoSecret, testbedEnv } from '../helpers/testbed';

let action: ActionFile;
let installed: Record<string, string>;
const root = tempDir('action');
const workspace = path.join(root, 'workspace');
const runnerTemp = path.join(root, 'runner-temp');

function context(inputs: Record<string, string>, summary: string): ActionContext {
  return {
    env: { DATABASE_URL: testbedEnv('DBPROBE_TEST_PG_URL') },
    workspace,
    runnerTemp,
    summary,
    with: inputs,
    steps: { install: installed },
  };
}

/** The probe step alone (the install step ran once, in before()); a fresh job summary each time. */
async function probe(inputs: Record<string, string>) {
  const summary = path.join(runnerTemp, `summary-${Date.now()}.md`);
  writeFileSync(summary, '');
  const step = action.steps.find((s) => s.id === 'probe');
  assert.ok(step, 'action.yml has a step with id probe');
  const done = await runStep(action, step, context(inputs, summary));
  return { ...done, summary: readFileSync(summary, 'utf8') };
}

before(async () => {
  mkdirSync(workspace, { recursive: true });
  mkdirSync(runnerTemp, { recursive: true });
  writeFileSync(
    path.join(workspace, 'dbprobe.json'),
    JSON.stringify({
      targets: [{ name: 'testbed pg', driver: 'pg', connection: 'env:DATABASE_URL' }],
      kinds: ['initial', 'subsequent'],
      iterations: 30,
      warmup: 2,
    }),
  );
  action = readAction();
  assert.deepEqual(
    action.steps.map((s) => s.id),
    ['install', 'probe'],
  );
  installed = {};
  const install = action.steps[0]!;
  const done = await runStep(action, install, {
    ...context({}, path.join(runnerTemp, 'install.md')),
    steps: {},
  });
  assert.equal(done.code, 0, done.stderr);
  installed = done.outputs;
  assert.ok(
    installed.bin && existsSync(installed.bin),
    `the install step names the bin: ${JSON.stringify(installed)}`,
  );
  assert.ok(!installed.bin.startsWith(workspace), "the CLI is installed outside the user's project");
});

test('thresholds that hold: exit 0, the summary holds the Markdown report and the verdicts, the outputs hold them too', async () => {
  const done = await probe({
    thresholds: '*:subsequent:p95<60s\n# a comment line\n*:*:errors<1%',
    out: 'probe.json',
  });
  assert.equal(done.code, 0, done.stderr);
  assert.match(done.summary, /^# Database latency/m);
  assert.match(done.summary, /## Thresholds\n\nAll 3 threshold checks passed\./);
  assert.equal(done.outputs.passed, 'true');
  assert.equal(done.outputs['exit-code'], '0');
  assert.equal(done.outputs.result, path.join(workspace, 'probe.json'));
  const result = JSON.parse(readFileSync(done.outputs.result!, 'utf8')) as RunResult;
  assert.equal(result.measurements.find((m) => m.kind === 'subsequent')?.stats.count, 30);
  const lines = done.outputs.verdicts!.split('\n');
  assert.equal(lines.length, 3, done.outputs.verdicts);
  assert.match(
    lines[0]!,
    /^pass: target "testbed pg" subsequent p95 = \d+\.\d{3} ms, limit < 60000\.000 ms$/,
  );
  const json = JSON.parse(done.outputs['verdicts-json']!) as { passed: boolean; verdicts: unknown[] };
  assert.equal(json.passed, true);
  assert.equal(json.verdicts.length, 3);
  assertNoSecret([done.stdout, done.stderr, done.summary, JSON.stringify(done.outputs)]);
});

test('a failed threshold fails the step (exit 3) and the outputs say which', async () => {
  const done = await probe({
    thresholds: 'testbed pg:subsequent:p50<0.001ms',
    kinds: 'subsequent',
    iterations: '20',
  });
  assert.equal(done.code, 3, done.stderr);
  assert.equal(done.outputs.passed, 'false');
  assert.equal(done.outputs['exit-code'], '3');
  assert.match(
    done.outputs.verdicts!,
    /^FAIL: target "testbed pg" subsequent p50 = \d+\.\d{3} ms, limit < 0\.001 ms$/,
  );
  assert.match(done.summary, /\*\*1 of 1 threshold checks failed\.\*\*/);
  assert.ok(
    done.outputs.result && existsSync(done.outputs.result),
    'the result is written even when the gate fails',
  );
});

test('a baseline: the summary holds the change section and the outputs the change per target and kind', async () => {
  const base = await probe({ kinds: 'subsequent', out: 'base.json' });
  assert.equal(base.code, 0, base.stderr);
  const done = await probe({ kinds: 'subsequent', baseline: 'base.json', out: 'head.json' });
  assert.equal(done.code, 0, `without fail-on-regression a change only reports\n${done.stderr}`);
  assert.match(done.summary, /## Change against the baseline/);
  assert.match(
    done.stderr,
    /target "testbed pg" subsequent \(n 30 \/ 30\): (regressed|improved|no change detected)/,
  );
  // The verdict line first, then one line per target and kind.
  const [verdict, ...perTarget] = done.outputs.changes!.split('\n');
  assert.match(
    verdict ?? '',
    /^(No established change in 1 target and kind compared|testbed pg subsequent (regressed|improved))/,
  );
  assert.match(
    perTarget.join('\n'),
    /^testbed pg subsequent: (regressed|improved|no change detected); p50 [+-]?\d+\.\d{3} ms \[/,
  );
  assert.match(done.outputs.regressed!, /^(true|false)$/);
});

test('the noise input reaches the compare behind the changes and regressed outputs', async () => {
  const saved = await probe({ kinds: 'initial', out: 'noise-base.json' });
  assert.equal(saved.code, 0, saved.stderr);
  // A baseline four times as fast at initial: HEAD is about +300%, far beyond the 20% new-connection spread.
  const file = path.join(workspace, 'noise-base.json');
  const base = JSON.parse(readFileSync(file, 'utf8')) as RunResult;
  for (const m of base.measurements)
    m.samples.values = m.samples.values.map((v) =>
      v.us === undefined ? v : { ...v, us: Math.round(v.us / 4) },
    );
  writeFileSync(file, JSON.stringify(base));
  const narrow = await probe({ kinds: 'initial', baseline: 'noise-base.json', noise: '5%' });
  assert.equal(narrow.outputs.regressed, 'true', narrow.outputs.changes);
  // A band of 1000% of BASE covers +300%: the outputs must say what this band decided, not the default's.
  const wide = await probe({ kinds: 'initial', baseline: 'noise-base.json', noise: '1000%' });
  assert.equal(wide.outputs.regressed, 'false', wide.outputs.changes);
  assert.match(
    wide.outputs.changes!,
    /^No established change in 1 target and kind compared \(testbed pg initial\)\./,
  );
});

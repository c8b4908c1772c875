/**
 * The GitHub Action (action.yml) run step by step as GitHub runs a composite action
 * (test/helpers/actionSteps.ts), against the testbed's PostgreSQL. The install step puts the CLI
 * package the release script builds (`npm run release:cli`, one pack) in the runner's tool cache:
 * the first job installs it with npm, later jobs take it from the cache with no npm at all (an `npm`
 * that fails is first on their PATH), in under 10 s, whether the package input names the tarball or
 * is left empty (the action's pinned version). The probe step opens the job summary with the
 * verdicts, writes the outputs, annotates each failed threshold and regression with `::error` at
 * the target's line of the config, and keeps a sticky pull-request comment through a stand-in of
 * GitHub's API (GITHUB_API_URL): created once, then edited in place.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { after, before, test } from 'node:test';
import type { RunResult } from '../../src/shared/result';
import { startGitHubApiStandIn, type GitHubApiStandIn } from '../fixtures/githubApiStandIn';
import { readAction, runStep, type ActionContext, type ActionFile } from '../helpers/actionSteps';
import { tempDir } from '../helpers/tempDir';
import { assertNoSecret, testbedEnv } from '../helpers/testbed';

const ROOT = path.resolve(__dirname, '../..');
/** The install step with a warm tool cache (the issue's goal: the action in seconds). */
const WARM_INSTALL_LIMIT_S = 10;
const CONFIG = {
  targets: [{ name: 'testbed pg', driver: 'pg', connection: 'env:DATABASE_URL' }],
  kinds: ['initial', 'subsequent'],
  iterations: 30,
  warmup: 2,
};
/** The target's `"name"` line of the config as written below (annotations point there). */
const TARGET_LINE =
  JSON.stringify(CONFIG, null, 2)
    .split('\n')
    .findIndex((l) => l.includes('"testbed pg"')) + 1;

/**
 * The workflow commands of a step's stdout as GitHub reads them (`::error file=F,line=N::message`,
 * with `%25`, `%0A`, `%3A`, `%2C` decoded), each as `file=F,line=N,title=T: message`.
 */
function commands(stdout: string, name: string): string[] {
  const decode = (text: string) =>
    text
      .replace(/%0D/g, '\r')
      .replace(/%0A/g, '\n')
      .replace(/%3A/g, ':')
      .replace(/%2C/g, ',')
      .replace(/%25/g, '%');
  return stdout.split('\n').flatMap((line) => {
    const command = /^::(\w+)(?: ([^:]*))?::(.*)$/.exec(line);
    if (command?.[1] !== name) return [];
    const props = (command[2] ?? '').split(',').map(decode).join(',');
    return [`${props}: ${decode(command[3]!)}`];
  });
}

let action: ActionFile;
let installed: Record<string, string>;
const root = tempDir('action');
const workspace = path.join(root, 'workspace');
const runnerTemp = path.join(root, 'runner-temp');
const toolCache = path.join(root, 'tool-cache');
const version = (
  JSON.parse(readFileSync(path.join(ROOT, 'packages/cli/package.json'), 'utf8')) as { version: string }
).version;

function context(
  inputs: Record<string, string>,
  summary: string,
  extra: { env?: NodeJS.ProcessEnv; github?: Record<string, string> } = {},
): ActionContext {
  return {
    env: { DATABASE_URL: testbedEnv('DBPROBE_TEST_PG_URL'), ...extra.env },
    workspace,
    runnerTemp,
    toolCache,
    summary,
    with: inputs,
    steps: { install: installed },
    ...(extra.github ? { github: extra.github } : {}),
  };
}

/** The probe step alone (the install step ran in before()); a fresh job summary each time. */
async function probe(
  inputs: Record<string, string>,
  extra: { env?: NodeJS.ProcessEnv; github?: Record<string, string> } = {},
) {
  const summary = path.join(runnerTemp, `summary-${Date.now()}.md`);
  writeFileSync(summary, '');
  const step = action.steps.find((s) => s.id === 'probe');
  assert.ok(step, 'action.yml has a step with id probe');
  const done = await runStep(action, step, context(inputs, summary, extra));
  return { ...done, summary: readFileSync(summary, 'utf8') };
}

/** One job's install step, timed as the job sees it. */
async function install(inputs: Record<string, string>, env: NodeJS.ProcessEnv = {}) {
  const step = action.steps.find((s) => s.id === 'install');
  assert.ok(step, 'action.yml has a step with id install');
  const started = performance.now();
  const done = await runStep(action, step, {
    ...context(inputs, path.join(runnerTemp, 'install.md'), { env }),
    steps: {},
  });
  const seconds = (performance.now() - started) / 1000;
  assert.equal(done.code, 0, done.stderr);
  return { ...done, seconds };
}

/** A PATH whose `npm` fails loudly: a warm install must not need it. */
function pathWithoutNpm(): string {
  const dir = path.join(root, 'no-npm');
  mkdirSync(dir, { recursive: true });
  const stub = path.join(dir, 'npm');
  writeFileSync(stub, '#!/bin/sh\necho "npm ran on a warm tool cache: $*" >&2\nexit 97\n');
  chmodSync(stub, 0o755);
  return `${dir}${path.delimiter}${process.env.PATH ?? ''}`;
}

before(async () => {
  mkdirSync(workspace, { recursive: true });
  mkdirSync(runnerTemp, { recursive: true });
  writeFileSync(path.join(workspace, 'dbprobe.json'), `${JSON.stringify(CONFIG, null, 2)}\n`);
  action = readAction();
  assert.deepEqual(
    action.steps.map((s) => s.id),
    ['install', 'probe'],
  );
  installed = {};
  // The release script's tarball, as a release carries it (the package input may name it).
  const tarball = execFileSync(
    process.execPath,
    [path.join(ROOT, 'scripts/package/cliRelease.cjs'), '--out', path.join(workspace, 'release')],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  )
    .trim()
    .split('\n')
    .at(-1)!;
  assert.equal(path.basename(tarball), `dbprobe-${version}.tgz`);
  const fromRelease = { package: `release/dbprobe-${version}.tgz` };

  const cold = await install(fromRelease);
  assert.equal(cold.outputs['cache-hit'], 'false', cold.stderr);
  const noNpm = { PATH: pathWithoutNpm() };
  const warm = await install(fromRelease, noNpm);
  assert.equal(warm.outputs['cache-hit'], 'true', warm.stderr);
  // The default: this action's pinned version, found in the cache by its version.
  const pinned = await install({}, noNpm);
  assert.equal(pinned.outputs['cache-hit'], 'true', pinned.stderr);
  assert.equal(pinned.outputs.version, version);
  console.log(
    `install step: cold ${cold.seconds.toFixed(1)} s (npm installs the release tarball into the tool cache); ` +
      `warm ${warm.seconds.toFixed(1)} s (package input: the tarball), ${pinned.seconds.toFixed(1)} s (default: the pinned dbprobe@${version}); ` +
      `goal under ${WARM_INSTALL_LIMIT_S} s warm`,
  );
  for (const [name, run] of [
    ['warm', warm],
    ['pinned', pinned],
  ] as const)
    assert.ok(run.seconds < WARM_INSTALL_LIMIT_S, `${name} install took ${run.seconds.toFixed(1)} s`);
  installed = pinned.outputs;
  assert.equal(installed.bin, cold.outputs.bin, 'every job uses the one cached install');
  assert.ok(
    installed.bin && existsSync(installed.bin),
    `the install step names the bin: ${JSON.stringify(installed)}`,
  );
  assert.ok(installed.bin.startsWith(path.join(toolCache, 'dbprobe', version)), installed.bin);
  assert.ok(!installed.bin.startsWith(workspace), "the CLI is installed outside the user's project");
});

test('a cached version whose tarball changed is installed again, not served stale', async () => {
  const marker = path.join(toolCache, 'dbprobe', version, `${process.arch}.complete`);
  const recorded = JSON.parse(readFileSync(marker, 'utf8')) as { sha256?: string };
  assert.match(recorded.sha256 ?? '', /^[0-9a-f]{64}$/, 'a local tarball is cached with its sha256');
  writeFileSync(marker, JSON.stringify({ ...recorded, sha256: '0'.repeat(64) }));
  const again = await install({ package: `release/dbprobe-${version}.tgz` });
  assert.equal(again.outputs['cache-hit'], 'false', again.stderr);
  assert.equal(JSON.parse(readFileSync(marker, 'utf8')).sha256, recorded.sha256);
});

test('thresholds that hold: exit 0, the summary opens with the verdicts, then the report; no annotation', async () => {
  const done = await probe({
    thresholds: '*:subsequent:p95<60s\n# a comment line\n*:*:errors<1%',
    out: 'probe.json',
  });
  assert.equal(done.code, 0, done.stderr);
  assert.match(done.summary, /^## dbprobe: passed\n\n- pass: target "testbed pg" subsequent p95 = /);
  assert.match(done.summary, /^# Database latency/m);
  assert.match(done.summary, /## Thresholds\n\nAll 3 threshold checks passed\./);
  assert.deepEqual(commands(done.stdout, 'error'), []);
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

test('a failed threshold fails the step (exit 3), annotates the target in the config, and leads the summary', async () => {
  const done = await probe({
    thresholds: 'testbed pg:subsequent:p50<0.001ms\ntestbed pg:subsequent:p95<60s',
    kinds: 'subsequent',
    iterations: '20',
  });
  assert.equal(done.code, 3, done.stderr);
  assert.equal(done.outputs.passed, 'false');
  assert.equal(done.outputs['exit-code'], '3');
  assert.match(
    done.outputs.verdicts!,
    /^FAIL: target "testbed pg" subsequent p50 = \d+\.\d{3} ms, limit < 0\.001 ms$/m,
  );
  const errors = commands(done.stdout, 'error');
  assert.equal(errors.length, 1, `one annotation, for the one failed threshold:\n${done.stdout}`);
  assert.match(
    errors[0]!,
    new RegExp(
      `^file=dbprobe\\.json,line=${TARGET_LINE},title=dbprobe threshold failed: target "testbed pg" subsequent p50 = \\d+\\.\\d{3} ms, limit < 0\\.001 ms$`,
    ),
  );
  // The verdicts first, before ~KBs of tables; the CLI's own sections follow.
  assert.match(
    done.summary,
    /^## dbprobe: \*\*failed: a threshold or the regression gate failed \(exit 3\)\*\*\n\n- \*\*FAIL\*\*: target "testbed pg" subsequent p50 = [\d.]+ ms, limit < 0\.001 ms\n- pass: /,
  );
  assert.ok(done.summary.indexOf('**FAIL**') < done.summary.indexOf('# Database latency'));
  assert.match(done.summary, /\*\*1 of 2 threshold checks failed\.\*\*/);
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
    /target "testbed pg" subsequent \(n 30 \/ 30\): (regressed|improved|not attributable|no change detected)/,
  );
  // The verdict line first, then one line per target and kind.
  const [verdict, ...perTarget] = done.outputs.changes!.split('\n');
  assert.match(
    verdict ?? '',
    /^(No established change in 1 target and kind compared|testbed pg subsequent (regressed|improved))/,
  );
  assert.ok(done.summary.startsWith(`## dbprobe: passed\n\n- ${verdict}\n`), done.summary.slice(0, 300));
  assert.match(
    perTarget.join('\n'),
    /^testbed pg subsequent: (regressed|improved|not attributable|no change detected); p50 [+-]?\d+\.\d{3} ms \[/,
  );
  assert.match(done.outputs.regressed!, /^(true|false)$/);
});

test('no baseline yet (a first run): fail-on-regression and noise are set aside with a notice, not a usage error', async () => {
  const done = await probe({
    kinds: 'subsequent',
    iterations: '10',
    baseline: '',
    'fail-on-regression': '10%',
    noise: '5%',
  });
  assert.equal(done.code, 0, done.stderr);
  assert.match(
    commands(done.stdout, 'notice').join('\n'),
    /^title=dbprobe no baseline: fail-on-regression and noise are set but baseline is empty/m,
  );
  assert.equal(done.outputs.regressed, undefined);
});

test('the noise input reaches the run, the compare, the annotations and the gate', async () => {
  const saved = await probe({ kinds: 'initial', out: 'noise-saved.json' });
  assert.equal(saved.code, 0, saved.stderr);
  // Baselines ten times as fast and four times as slow at initial as a run of this machine, so the
  // verdicts do not hang on how fast the machine is: HEAD is about +900% against the first, and
  // against the second it improves by about 3x HEAD, which a band of 1000% of the faster covers
  // unless HEAD runs 3.5 times as fast as the run saved moments before it.
  // The host readings scale with the samples they were read in, so the baseline's host says what a
  // host as busy as this one's would over samples that short.
  const scaled = (name: string, factor: number) => {
    const base = JSON.parse(readFileSync(path.join(workspace, 'noise-saved.json'), 'utf8')) as RunResult;
    const times = (us: number | undefined) =>
      us === undefined ? undefined : Math.max(0, Math.round(us * factor));
    for (const m of base.measurements)
      m.samples.values = m.samples.values.map((v) =>
        v.us === undefined
          ? v
          : {
              ...v,
              us: Math.max(1, Math.round(v.us * factor)),
              ...(v.cpuWaitUs === undefined ? {} : { cpuWaitUs: times(v.cpuWaitUs) }),
              ...(v.cpuPressureUs === undefined ? {} : { cpuPressureUs: times(v.cpuPressureUs) }),
            },
      );
    writeFileSync(path.join(workspace, name), JSON.stringify(base));
    return name;
  };
  const regressions = (stdout: string) =>
    commands(stdout, 'error').filter((l) => l.includes('title=dbprobe regression'));
  const hostAnnotations = (stdout: string, name: string) =>
    commands(stdout, name).filter((l) => l.includes('title=dbprobe change not attributable'));
  const change = `target "testbed pg" initial`;
  const figures = String.raw`p50 [\d.]+ -> [\d.]+ ms: \+[\d.]+ ms \[\+[\d.]+, \+[\d.]+\] \(\+\d+\.\d%\)`;

  const fast = scaled('fast-base.json', 0.1);
  const narrowInputs = { kinds: 'initial', baseline: fast, noise: '7%', 'fail-on-regression': '10%' };
  const narrow = await probe(narrowInputs);
  // ±7.0%: the compare behind the gate judged with the input's band, not the default 5%.
  assert.match(narrow.stderr, /at least the minimum effect, 7% of the faster/, narrow.stderr);
  if (narrow.code === 0) {
    // HEAD's host waited for a CPU, per sample, at least as long as the change: a CI runner is a
    // crowded host more often than not. The product says so first, the gate holds, and the Action
    // says why in a notice; with strict-host the same run fails the gate.
    assert.match(
      narrow.stderr,
      /^Not attributable: testbed pg initial p50 [\d.]+ → [\d.]+ ms \(\+[\d.]+%\) while HEAD's host waited for a CPU \d+% of its samples' time, [\d.]+ ms a sample \(BASE \d+%\)\.$/m,
    );
    assert.equal(narrow.outputs.regressed, 'false', narrow.outputs.changes);
    assert.deepEqual(regressions(narrow.stdout), []);
    const [notice, ...others] = hostAnnotations(narrow.stdout, 'notice');
    assert.equal(others.length, 0, narrow.stdout);
    assert.match(notice ?? '', /the gate does not fail on it; set strict-host to count it$/);
    const strict = await probe({ ...narrowInputs, 'strict-host': 'true' });
    assert.equal(strict.code, 3, strict.stderr);
    const failed = [...regressions(strict.stdout), ...hostAnnotations(strict.stdout, 'error')];
    assert.equal(failed.length, 1, strict.stdout);
    assert.match(
      failed[0] ?? '',
      /fails the fail-on-regression \+10\.0% gate$|strict-host is set, so the gate counts it$/,
    );
  } else {
    assert.equal(narrow.code, 3, narrow.stderr);
    assert.equal(narrow.outputs.regressed, 'true', narrow.outputs.changes);
    const [annotation, ...more] = regressions(narrow.stdout);
    assert.equal(more.length, 0, narrow.stdout);
    assert.match(
      annotation ?? '',
      new RegExp(
        `^file=dbprobe\\.json,line=${TARGET_LINE},title=dbprobe regression: ${change} regressed \\(established by the runs' own intervals, at least 7\\.0% of the faster\\): ${figures}; it fails the fail-on-regression \\+10\\.0% gate$`,
      ),
    );
    assert.match(
      narrow.summary,
      /^## dbprobe: \*\*failed: a threshold or the regression gate failed \(exit 3\)\*\*\n\n- testbed pg initial regressed/,
    );
    assert.match(
      narrow.summary,
      /^- \*\*Gate fail-on-regression \+10\.0%: FAILED\*\*: target "testbed pg" initial p50 /m,
    );
  }

  // Against the slow baseline HEAD improved; a minimum effect of 1000% of the faster covers it.
  const wide = await probe({
    kinds: 'initial',
    baseline: scaled('slow-base.json', 4),
    noise: '1000%',
    'fail-on-regression': '10%',
  });
  assert.equal(wide.code, 0, wide.stderr);
  assert.match(
    wide.stderr,
    /at least the minimum effect, 1000% of the faster/,
    "the run's own gate took the minimum effect (--noise is its older name)",
  );
  assert.equal(wide.outputs.regressed, 'false', wide.outputs.changes);
  assert.deepEqual(regressions(wide.stdout), []);
  assert.match(
    wide.outputs.changes!,
    /^No established change in 1 target and kind compared \(testbed pg initial\)\./,
    'with the default band this change is an improvement: the compare took the input',
  );
  assert.match(wide.summary, /^- Gate fail-on-regression \+10\.0%: passed\.$/m);
});

let api: GitHubApiStandIn | undefined;
after(async () => api?.close());

test('comment-on-pr: one sticky comment through the API stand-in, created once and then edited in place', async () => {
  const token = 'ghs_standInTokenThatMustNotLeak';
  // 130 comments by a reviewer already: the action's own must be found on a later page too.
  api = await startGitHubApiStandIn({ repository: 'octo/app', issue: 7, token, seeded: 130 });
  const event = path.join(runnerTemp, 'event.json');
  writeFileSync(event, JSON.stringify({ action: 'synchronize', pull_request: { number: 7 } }));
  const extra = {
    env: {
      GITHUB_API_URL: api.url,
      GITHUB_SERVER_URL: 'https://github.test',
      GITHUB_REPOSITORY: 'octo/app',
      GITHUB_EVENT_NAME: 'pull_request',
      GITHUB_EVENT_PATH: event,
      GITHUB_RUN_ID: '4242',
    },
    // The github-token input's default, ${{ github.token }}.
    github: { token },
  };
  const mine = () =>
    api!.comments.filter((c) => c.body.includes('<!-- dbprobe-action-comment: dbprobe.json -->'));
  const writes = () => api!.seen.filter((r) => r.method !== 'GET').map((r) => `${r.method} ${r.status}`);

  const first = await probe(
    { kinds: 'subsequent', iterations: '10', thresholds: '*:subsequent:p95<60s', 'comment-on-pr': 'true' },
    extra,
  );
  assert.equal(first.code, 0, first.stderr);
  assert.deepEqual(writes(), ['POST 201'], first.stderr);
  assert.equal(api.comments.length, 131);
  assert.equal(mine().length, 1);
  const created = mine()[0]!;
  assert.match(
    created.body,
    /^<!-- dbprobe-action-comment: dbprobe\.json -->\n## dbprobe: passed\n\n- pass: target "testbed pg"/,
  );
  assert.match(created.body, /\[The job's run\]\(https:\/\/github\.test\/octo\/app\/actions\/runs\/4242\)/);
  assert.match(created.body, /<details><summary>The full report<\/summary>\n\n# Database latency/);

  const second = await probe(
    {
      kinds: 'subsequent',
      iterations: '10',
      thresholds: '*:subsequent:p50<0.001ms',
      'comment-on-pr': 'true',
    },
    extra,
  );
  assert.equal(second.code, 3, 'the failed threshold still fails the step');
  assert.deepEqual(writes(), ['POST 201', 'PATCH 200'], 'the second run edits the comment it made');
  assert.equal(api.comments.length, 131, 'no second comment');
  assert.equal(mine()[0]!.id, created.id);
  assert.match(mine()[0]!.body, /^- \*\*FAIL\*\*: target "testbed pg" subsequent p50 = /m);
  assert.ok(
    api.seen.every((r) => r.authorization === 'ok'),
    'every call carried the token',
  );
  assert.ok(
    api.seen.some((r) => r.method === 'GET' && r.path.includes('page=2')),
    'the comments were read past the first page',
  );

  // A fork's read-only token: a warning, and the step's result stands.
  api.forbid();
  const refused = await probe({ kinds: 'subsequent', iterations: '10', 'comment-on-pr': 'true' }, extra);
  assert.equal(refused.code, 0, refused.stderr);
  assert.match(
    commands(refused.stdout, 'warning').join('\n'),
    /^title=dbprobe PR comment: comment-on-pr: PATCH \/repos\/octo\/app\/issues\/comments\/\d+ answered 403 \(Resource not accessible by integration\); the job needs `permissions: pull-requests: write`/m,
  );
  for (const run of [first, second, refused]) {
    const texts = [
      run.stdout,
      run.stderr,
      run.summary,
      JSON.stringify(run.outputs),
      ...api.comments.map((c) => c.body),
    ];
    assertNoSecret(texts);
    assertNoSecret(texts, token, ['']);
  }
});

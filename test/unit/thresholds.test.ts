/** CI gates: the --threshold grammar, good and bad forms, and verdicts against a result. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CliError, EXIT } from '../../src/cli/cliError';
import { checkThresholdNames, parseThreshold, verdictsMarkdown } from '../../src/cli/thresholds';
import { evaluateThresholds, verdictText } from '../../src/shared/judgement/thresholdVerdicts';
import { fakeResult, stats } from '../helpers/extensionRunResult';

test('good forms: target, kind, statistic, operator and limit in microseconds, a rate or a count', () => {
  const cases: [string, Partial<ReturnType<typeof parseThreshold>>][] = [
    [
      'pg:subsequent:p95<50ms',
      { target: 'pg', kind: 'subsequent', stat: 'p95', limit: 50_000, inclusive: false, unit: 'latency' },
    ],
    ['*:initial:p99<=1.5s', { target: '*', kind: 'initial', stat: 'p99', limit: 1_500_000, inclusive: true }],
    ['*:*:p50 < 800us', { target: '*', kind: '*', stat: 'p50', limit: 800 }],
    ['*:*:max<900µs', { stat: 'max', limit: 900 }],
    ['x:*:p999<2ms', { stat: 'p999', limit: 2_000 }],
    ['x:*:p90<2ms', { stat: 'p90', limit: 2_000 }],
    ['x:*:mean<0.25ms', { stat: 'mean', limit: 250 }],
    ['*:*:errors<1%', { stat: 'errors', limit: 0.01, unit: 'rate' }],
    ['*:*:errors<=3', { stat: 'errors', limit: 3, unit: 'count', inclusive: true }],
    // Target names may hold colons and spaces: kind and condition are the last two parts.
    ['neon (pg): pooled:subsequent:p95<50ms', { target: 'neon (pg): pooled', kind: 'subsequent' }],
  ];
  for (const [text, expected] of cases) {
    const parsed = parseThreshold(text);
    for (const [key, value] of Object.entries(expected))
      assert.equal(parsed[key as keyof typeof parsed], value, `${text}: ${key}`);
    assert.equal(parsed.text, text);
  }
});

test('bad forms are usage errors (exit 2) that say what is wrong and the form', () => {
  const cases: [string, RegExp][] = [
    ['p95<50ms', /expected three parts separated by ":"/],
    [':subsequent:p95<50ms', /the target is empty/],
    ['*:warm:p95<50ms', /unknown kind "warm"/],
    ['*:*:p95<50', /p95 needs a time unit: ms, us or s/],
    ['*:*:p95<50%', /p95 needs a time unit/],
    ['*:*:p97<5ms', /unknown statistic "p97"/],
    ['*:*:errors<5ms', /errors take a limit in % or a count/],
    ['*:*:p95>50ms', /cannot read the condition "p95>50ms"/],
    ['*:*:p95<-1ms', /cannot read the condition/],
    ['*:*:p95<1e3ms', /cannot read the condition/],
    [`${'x'.repeat(400)}:*:p95<1ms`, /longer than 300 characters/],
  ];
  for (const [text, message] of cases) {
    assert.throws(
      () => parseThreshold(text),
      (error: unknown) => {
        assert.ok(error instanceof CliError, text);
        assert.equal(error.exitCode, EXIT.usage);
        assert.match(error.message, message);
        assert.match(error.message, /the form is TARGET:KIND:STAT<LIMIT, e\.g\./);
        return true;
      },
    );
  }
});

test('a threshold naming a target or kind the run does not probe is refused before the run', () => {
  const thresholds = [parseThreshold('pg:subsequent:p95<5ms')];
  checkThresholdNames(thresholds, ['pg', 'redis'], ['initial', 'subsequent']);
  assert.throws(
    () => checkThresholdNames(thresholds, ['redis'], ['subsequent']),
    /names target "pg", which this run does not probe; its targets: redis/,
  );
  assert.throws(() => checkThresholdNames(thresholds, ['pg'], ['initial']), /names kind "subsequent"/);
  checkThresholdNames([parseThreshold('*:*:p95<5ms')], ['redis'], ['initial']);
});

const RESULT = fakeResult(
  [
    { name: 'pg', driver: 'pg', transport: 'tcp' },
    { name: 'down', driver: 'pg', transport: 'tcp' },
  ],
  [
    { target: 'pg', kind: 'subsequent', p50Us: 400, p95Us: 900, errors: 1 },
    { target: 'pg', kind: 'initial', p50Us: 4_000, p95Us: 9_000 },
    { target: 'down', kind: 'subsequent', p50Us: 0, samplesUs: [], errors: 5 },
  ],
);

test('verdicts: measured against the limit, < strict and <= inclusive, one per matching measurement', () => {
  const verdicts = evaluateThresholds(
    [
      parseThreshold('pg:subsequent:p95<0.9ms'),
      parseThreshold('pg:subsequent:p95<=0.9ms'),
      parseThreshold('pg:*:p50<5ms'),
      parseThreshold('pg:subsequent:errors<5%'),
      parseThreshold('pg:subsequent:errors<1'),
    ],
    [{ result: RESULT }],
  );
  assert.deepEqual(
    verdicts.map((v) => [v.threshold.text, v.kind, v.measured, v.passed]),
    [
      ['pg:subsequent:p95<0.9ms', 'subsequent', 900, false],
      ['pg:subsequent:p95<=0.9ms', 'subsequent', 900, true],
      ['pg:*:p50<5ms', 'subsequent', 400, true],
      ['pg:*:p50<5ms', 'initial', 4_000, true],
      ['pg:subsequent:errors<5%', 'subsequent', 1 / 11, false],
      ['pg:subsequent:errors<1', 'subsequent', 1, false],
    ],
  );
  assert.equal(verdictText(verdicts[0]!), 'target "pg" subsequent p95 = 0.900 ms, limit < 0.900 ms');
  assert.equal(verdictText(verdicts[4]!), 'target "pg" subsequent errors = 9.1%, limit < 5.0%');
  assert.equal(verdictText(verdicts[5]!), 'target "pg" subsequent errors = 1, limit < 1');
});

test('a target with no successful sample fails a latency threshold, and says why', () => {
  const [verdict] = evaluateThresholds(
    [parseThreshold('down:*:p99<1s')],
    [{ result: RESULT, place: 'runner fra' }],
  );
  assert.equal(verdict?.passed, false);
  assert.equal(
    verdictText(verdict!),
    'target "down" subsequent from runner fra p99 no successful sample, limit < 1000.000 ms',
  );
});

test('job summary section: pass and FAIL lines, and a headline count', () => {
  const verdicts = evaluateThresholds([parseThreshold('pg:*:p50<1ms')], [{ result: RESULT }]);
  const md = verdictsMarkdown(verdicts);
  assert.match(md, /^## Thresholds\n\n\*\*1 of 2 threshold checks failed\.\*\*\n/);
  assert.match(md, /- pass: target "pg" subsequent p50 = 0\.400 ms, limit < 1\.000 ms/);
  assert.match(md, /- \*\*FAIL\*\*: target "pg" initial p50 = 4\.000 ms, limit < 1\.000 ms/);
});

test('a kind that ran nothing fails every threshold, errors<1% included (0 of 0 is not "no errors")', () => {
  const empty = fakeResult(
    [{ name: 'idle', driver: 'libsql', transport: 'file' }],
    [{ target: 'idle', kind: 'schedule', p50Us: 0, samplesUs: [], errors: 0 }],
  );
  const verdicts = evaluateThresholds(
    [parseThreshold('*:*:errors<1%'), parseThreshold('*:*:errors<=0')],
    [{ result: empty }],
  );
  assert.deepEqual(
    verdicts.map((v) => [v.passed, v.note]),
    [
      [false, 'no sample (nothing ran)'],
      [false, 'no sample (nothing ran)'],
    ],
  );
});

test('a threshold that can never be met is refused: STAT<0', () => {
  for (const text of ['*:*:errors<0', '*:*:errors<0%', '*:*:p99<0ms', '*:*:max<0.0us'])
    assert.throws(() => parseThreshold(text), /can never be met/, text);
  assert.equal(parseThreshold('*:*:errors<=0').limit, 0, 'none at all is a fair check');
});

// Scoped forms: cold start, schedule position and request, load level and kept-up.

test('scoped forms parse to the part they read', () => {
  const cases: [string, Partial<ReturnType<typeof parseThreshold>>][] = [
    ['neon:cold:start.p50<800ms', { kind: 'cold', scope: { on: 'cold-start' }, stat: 'p50', limit: 800_000 }],
    ['neon:cold:p50<2s', { kind: 'cold', scope: { on: 'kind' }, limit: 2_000_000 }],
    ['pg:schedule#1:p99<50ms', { kind: 'schedule', scope: { on: 'position', position: 1 }, stat: 'p99' }],
    ['pg:schedule:request.p99<120ms', { kind: 'schedule', scope: { on: 'request' }, limit: 120_000 }],
    ['pg:load@64:p99<20ms', { kind: 'load', scope: { on: 'level', level: 64 }, limit: 20_000 }],
    ['pg:load@64:errors<1%', { scope: { on: 'level', level: 64 }, stat: 'errors', unit: 'rate' }],
    [
      'pg:load:kept-up>=32',
      { kind: 'load', scope: { on: 'kept-up' }, limit: 32, inclusive: true, unit: 'level' },
    ],
    ['pg:load:kept-up>16', { stat: 'kept-up', limit: 16, inclusive: false }],
  ];
  for (const [text, expected] of cases) {
    const parsed = parseThreshold(text);
    for (const [key, value] of Object.entries(expected))
      assert.deepEqual(parsed[key as keyof typeof parsed], value, `${text}: ${key}`);
  }
});

test('scoped forms on the wrong kind, or unreadable, are usage errors saying the right form', () => {
  const cases: [string, RegExp][] = [
    ['pg:subsequent:start.p50<1ms', /start\.STAT reads the cold start: TARGET:cold:start\.p50<800ms/],
    ['pg:cold:start.p95<1ms', /the cold start has p50, p99, max, mean, not p95/],
    ['pg:cold:start.errors<1%', /the cold start has no errors of its own/],
    ['pg:load:request.p99<1ms', /request\.STAT reads whole schedule requests/],
    ['pg:schedule#2:request.p99<1ms', /request\.STAT reads whole schedule requests/],
    ['pg:cold:warm.p50<1ms', /unknown part "warm\."/],
    ['pg:schedule@4:p99<1ms', /"@LEVEL" picks a level of the load kind/],
    ['pg:load#1:p99<1ms', /"#POSITION" picks a query of the schedule kind/],
    ['pg:*@4:p99<1ms', /"@LEVEL" picks a level of the load kind/],
    ['pg:load@:p99<1ms', /cannot read the level ""/],
    ['pg:load@0:p99<1ms', /cannot read the level "0"/],
    ['pg:schedule#0:p99<1ms', /cannot read the position "0"/],
    ['pg:schedule#1.5:p99<1ms', /cannot read the position "1\.5"/],
    ['pg:load@64:kept-up>=32', /kept-up is read on the load kind as a whole/],
    ['pg:*:kept-up>=32', /kept-up is read on the load kind as a whole/],
    ['pg:load:kept-up<32', /kept-up takes >= or > and a level/],
  ];
  for (const [text, message] of cases)
    assert.throws(
      () => parseThreshold(text),
      (error: unknown) => {
        assert.ok(error instanceof CliError, text);
        assert.equal(error.exitCode, EXIT.usage, text);
        assert.match(error.message, message, text);
        assert.match(error.message, /load@64.*kept-up>=32/, `${text}: the form lists every scope`);
        return true;
      },
    );
});

test('a load level or schedule position the run does not probe is refused before the run', () => {
  const kinds = ['load', 'schedule'] as const;
  const plan = {
    load: { model: 'closed', levels: [1, 4, 16], durationS: 1, maxErrorRate: 0.01, latencyStat: 'p99' },
    schedule: { rate: 10, queries: 3, durationS: 1, connection: 'reuse' },
  } as unknown as Parameters<typeof checkThresholdNames>[3];
  const ok = [
    'pg:load@4:p99<1ms',
    'pg:schedule#3:p99<1ms',
    'pg:load:kept-up>=16',
    'pg:schedule:request.p99<1s',
  ];
  checkThresholdNames(ok.map(parseThreshold), ['pg'], [...kinds], plan);
  const refused: [string, RegExp][] = [
    ['pg:load@64:p99<1ms', /names load level 64, which this run does not probe; its levels: 1, 4, 16/],
    ['pg:schedule#4:p99<1ms', /names query 4 of each request, but the schedule runs 3 per request/],
    ['pg:load:kept-up>=32', /can never pass: the highest load level this run probes is 16/],
  ];
  for (const [text, message] of refused)
    assert.throws(() => checkThresholdNames([parseThreshold(text)], ['pg'], [...kinds], plan), message, text);
  // Without load settings the defaults (1, 2, 4, 8, 16 connections) are what runs.
  assert.throws(
    () => checkThresholdNames([parseThreshold('pg:load@64:p99<1ms')], ['pg'], ['load']),
    /1, 2, 4, 8, 16/,
  );
});

function scopedResult() {
  const result = fakeResult(
    [{ name: 'pg', driver: 'pg', transport: 'tcp' }],
    [
      { target: 'pg', kind: 'cold', p50Us: 900_000 },
      { target: 'pg', kind: 'schedule', p50Us: 5_000, samplesUs: Array(200).fill(5_000) },
      { target: 'pg', kind: 'load', p50Us: 3_000, samplesUs: Array(300).fill(3_000) },
    ],
  );
  const [cold, schedule, load] = result.measurements;
  const hot = stats(40_000);
  cold!.cold = {
    mode: 'neon-api',
    hot,
    hotConnect: hot,
    coldStart: {
      count: 3,
      minUs: 300_000,
      meanUs: 500_000,
      stddevUs: 1,
      p50Us: 450_000,
      p99Us: 700_000,
      maxUs: 700_000,
    },
    pairs: [],
  };
  const starts = (asked: number, dropped = 0) => ({
    asked,
    started: asked - dropped,
    late: 0,
    lateAfterUs: 1_000,
    dropped,
    askedRate: asked,
    achievedRate: asked - dropped,
    latenessP50Us: 0,
    latenessP99Us: 0,
    latenessMaxUs: 0,
  });
  schedule!.schedule = {
    rate: 100,
    queries: 2,
    durationS: 2,
    connection: 'pooled',
    starts: starts(200),
    positions: [stats(4_000, 8_000, 200), stats(1_000, 2_000, 200)],
    totals: stats(5_500, 11_000, 200),
  };
  const level = (n: number, serviceUs: number, correctedUs: number, tripped?: string) => ({
    level: n,
    durationUs: 1_000_000,
    throughput: n,
    stats: stats(serviceUs, serviceUs, 200),
    corrected: stats(correctedUs, correctedUs, 200),
    starts: starts(n),
    ...(tripped ? { tripped } : {}),
  });
  load!.load = {
    model: 'open',
    connections: 8,
    durationS: 1,
    maxErrorRate: 0.01,
    latencyStat: 'p99',
    levels: [level(100, 1_000, 1_500), level(200, 2_000, 9_000), level(400, 3_000, 80_000, 'p99 80 ms')],
    knee: { level: 400, reason: 'p99 80 ms' },
  };
  return result;
}

test('cold start, schedule position and request are judged on their own figures', () => {
  const verdicts = evaluateThresholds(
    [
      'pg:cold:start.p50<500ms',
      'pg:cold:start.max<500ms',
      'pg:cold:start.p99<1s',
      'pg:cold:p50<500ms',
      'pg:schedule#1:p99<8ms',
      'pg:schedule#2:p99<8ms',
      'pg:schedule:request.p50<5ms',
    ].map(parseThreshold),
    [{ result: scopedResult() }],
  );
  assert.deepEqual(
    verdicts.map((v) => [v.threshold.text, v.measured, v.passed, v.note]),
    [
      ['pg:cold:start.p50<500ms', 450_000, true, undefined],
      ['pg:cold:start.max<500ms', 700_000, false, undefined],
      [
        'pg:cold:start.p99<1s',
        undefined,
        false,
        'n too small: a p99 needs at least 100 successful samples, this one has 3',
      ],
      ['pg:cold:p50<500ms', 900_000, false, undefined],
      ['pg:schedule#1:p99<8ms', 8_001, false, undefined],
      ['pg:schedule#2:p99<8ms', 2_001, true, undefined],
      ['pg:schedule:request.p50<5ms', 5_500, false, undefined],
    ],
  );
  assert.equal(verdictText(verdicts[0]!), 'target "pg" cold start p50 = 450.000 ms, limit < 500.000 ms');
  assert.equal(verdictText(verdicts[4]!), 'target "pg" schedule#1 p99 = 8.001 ms, limit < 8.000 ms');
  assert.equal(verdictText(verdicts[6]!), 'target "pg" schedule request p50 = 5.500 ms, limit < 5.000 ms');
  // A cold kind whose every cold sample failed has no cold start: it fails and says why.
  const failed = scopedResult();
  failed.measurements[0]!.cold!.coldStart.count = 0;
  const [none] = evaluateThresholds([parseThreshold('pg:cold:start.p50<1s')], [{ result: failed }]);
  assert.deepEqual([none?.passed, none?.note], [false, 'no cold start measured (no successful cold sample)']);
});

test('load@LEVEL reads that level (corrected in the open model) and fails only when that level fell short', () => {
  const verdicts = evaluateThresholds(
    ['pg:load@100:p99<2ms', 'pg:load@200:p99<5ms', 'pg:load@400:p99<1s', 'pg:load:p99<1s'].map(
      parseThreshold,
    ),
    [{ result: scopedResult() }],
  );
  assert.deepEqual(
    verdicts.map((v) => [v.threshold.text, v.measured, v.passed]),
    [
      ['pg:load@100:p99<2ms', 1_501, true],
      // The service time (2 ms) would pass; the corrected 9 ms is what counts.
      ['pg:load@200:p99<5ms', 9_001, false],
      ['pg:load@400:p99<1s', 80_001, false],
      ['pg:load:p99<1s', 6_001, false],
    ],
  );
  assert.equal(verdicts[0]!.shortfall, undefined, 'level 100 kept up: level 400 is not its concern');
  assert.equal(
    verdictText(verdicts[2]!),
    'target "pg" load@400 p99 = 80.001 ms, limit < 1000.000 ms; fails whatever its figure: level 400/s did not keep up (p99 80 ms)',
  );
  // The closed model has no corrected figures: its service time is the latency.
  const closed = scopedResult();
  closed.measurements[2]!.load!.model = 'closed';
  const [v] = evaluateThresholds([parseThreshold('pg:load@200:p99<5ms')], [{ result: closed }]);
  assert.deepEqual([v?.measured, v?.passed], [2_001, true]);
});

test('kept-up: the highest level before the first that did not keep up', () => {
  const verdicts = evaluateThresholds(
    ['pg:load:kept-up>=200', 'pg:load:kept-up>=400', 'pg:load:kept-up>200'].map(parseThreshold),
    [{ result: scopedResult() }],
  );
  assert.deepEqual(
    verdicts.map((v) => [v.measured, v.passed, v.shortfall]),
    [
      [200, true, undefined],
      [200, false, undefined],
      [200, false, undefined],
    ],
  );
  assert.equal(verdictText(verdicts[1]!), 'target "pg" load kept-up = 200, limit >= 400');
  // A level that dropped requests did not keep up either; none kept up reads "none".
  const result = scopedResult();
  result.measurements[2]!.load!.levels[0]!.starts!.dropped = 3;
  const [none] = evaluateThresholds([parseThreshold('pg:load:kept-up>=100')], [{ result }]);
  assert.equal(verdictText(none!), 'target "pg" load kept-up = none, limit >= 100');
  assert.equal(none?.passed, false);
});

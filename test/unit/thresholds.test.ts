/** CI gates: the --threshold grammar, good and bad forms, and verdicts against a result. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { CliError, EXIT } from '../../src/cli/cliError';
import {
  checkThresholdNames,
  evaluateThresholds,
  parseThreshold,
  verdictsMarkdown,
  verdictText,
} from '../../src/cli/thresholds';
import { fakeResult } from '../helpers/extensionRunResult';

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

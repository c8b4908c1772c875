/** The load and schedule settings: validation, defaults, command-line flags and the pure judgements. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeLevel, scheduleModel } from '../../src/core/load/figures';
import { validatePlan } from '../../src/core/validate/validatePlan';
import { loadOverrides, sweepLevels } from '../../src/cli/loadFlags';
import { LOAD_DEFAULTS, SCHEDULE_DEFAULTS } from '../../src/shared/loadPlan';
import type { LatencyStats } from '../../src/shared/result';

const targets = [{ name: 'a', driver: 'pg', connection: 'env:A' }];

test('the kinds get their defaults (the blog: 10/s x 3 queries for 60 s; a 1..16 sweep)', () => {
  const v = validatePlan({ targets, kinds: ['schedule', 'load'] }, ['pg']);
  assert.ok(v.ok);
  assert.deepEqual(v.value.schedule, SCHEDULE_DEFAULTS);
  assert.deepEqual(SCHEDULE_DEFAULTS, { rate: 10, queries: 3, durationS: 60, connection: 'new' });
  assert.deepEqual(v.value.load, LOAD_DEFAULTS);
  const open = validatePlan({ targets, kinds: ['load'], load: { model: 'open' } }, ['pg']);
  assert.ok(open.ok);
  assert.deepEqual(open.value.load?.levels, [10, 100, 1000]);
  const plain = validatePlan({ targets }, ['pg']);
  assert.ok(plain.ok);
  assert.equal(plain.value.load, undefined, 'no load settings unless asked for');
});

test('every bad field is named with its range', () => {
  const v = validatePlan(
    {
      targets,
      kinds: ['load', 'schedule'],
      load: { model: 'closed', levels: [1, 2.5], durationS: 0, connections: 0, maxErrorRate: 2, extra: 1 },
      schedule: { rate: -1, queries: 0, connection: 'shared' },
    },
    ['pg'],
  );
  assert.ok(!v.ok);
  const paths = v.issues.map((i) => i.path).sort();
  assert.deepEqual(paths, [
    'load',
    'load.connections',
    'load.durationS',
    'load.levels',
    'load.maxErrorRate',
    'schedule.connection',
    'schedule.queries',
    'schedule.rate',
  ]);
  const levels = v.issues.find((i) => i.path === 'load.levels');
  assert.match(levels!.message, /connection counts from 1 to 1000/);
});

test('open-model levels may be fractional rates; closed-model levels are whole connections', () => {
  assert.ok(
    validatePlan({ targets, kinds: ['load'], load: { model: 'open', levels: [0.5, 2.5] } }, ['pg']).ok,
  );
  assert.ok(!validatePlan({ targets, kinds: ['load'], load: { levels: [0.5] } }, ['pg']).ok);
});

test('--sweep takes a list or a doubling range; the flags make the plan objects', () => {
  assert.deepEqual(sweepLevels('1..64'), [1, 2, 4, 8, 16, 32, 64]);
  assert.deepEqual(sweepLevels('1,10, 100'), [1, 10, 100]);
  assert.throws(() => sweepLevels('8..2'), /must go up/);
  assert.throws(() => sweepLevels('1;2'), /--sweep must be a list/);
  assert.deepEqual(loadOverrides({ concurrency: '8', duration: '5' }), {
    load: { durationS: 5, model: 'closed', levels: [8] },
    schedule: { durationS: 5 },
  });
  assert.deepEqual(loadOverrides({ rate: '50', concurrency: '4', sweep: '25,50', 'max-error-rate': '2%' }), {
    load: { model: 'open', levels: [25, 50], connections: 4, maxErrorRate: 0.02 },
    schedule: { rate: 50 },
  });
  assert.deepEqual(loadOverrides({ 'max-latency': 'p95:0.2s', queries: '5', pooled: true }), {
    load: { maxLatencyMs: 200, latencyStat: 'p95' },
    schedule: { queries: 5, connection: 'pooled' },
  });
  assert.throws(() => loadOverrides({ rate: 'x'.repeat(500) }), /too long/);
});

function stats(over: Partial<LatencyStats>): LatencyStats {
  return {
    count: 100,
    errors: 0,
    errorRate: 0,
    minUs: 1,
    meanUs: 1,
    stddevUs: 0,
    p50Us: 1,
    p90Us: 1,
    p95Us: 1,
    p99Us: 1,
    p999Us: 1,
    maxUs: 1,
    ...over,
  };
}

test('a level trips on its error rate, its latency (corrected when open) or its achieved rate', () => {
  const base = { level: 4, durationUs: 1e6, throughput: 100, stats: stats({}) };
  assert.equal(judgeLevel(base, LOAD_DEFAULTS), undefined);
  assert.match(
    judgeLevel({ ...base, stats: stats({ errors: 2, errorRate: 0.02 }) }, LOAD_DEFAULTS) ?? '',
    /error rate 2\.0% > 1\.0%/,
  );
  assert.equal(
    judgeLevel({ ...base, stats: stats({ errors: 1, errorRate: 0.01 }) }, LOAD_DEFAULTS),
    undefined,
  );
  const limited = { ...LOAD_DEFAULTS, maxLatencyMs: 50 };
  assert.match(
    judgeLevel({ ...base, stats: stats({ p99Us: 60_000 }) }, limited) ?? '',
    /p99 60\.000 ms > 50 ms/,
  );
  assert.match(
    judgeLevel({ ...base, corrected: stats({ p99Us: 70_000 }) }, limited) ?? '',
    /p99 \(corrected\) 70\.000 ms > 50 ms/,
  );
  const starts = {
    asked: 100,
    started: 100,
    late: 0,
    lateAfterUs: 1000,
    dropped: 0,
    askedRate: 100,
    achievedRate: 60,
    latenessP50Us: 1,
    latenessP99Us: 1,
    latenessMaxUs: 1,
  };
  assert.match(judgeLevel({ ...base, starts }, LOAD_DEFAULTS) ?? '', /achieved 60\/s of 100\/s/);
  // 0 of 0 is no error rate and no latency: a level that ran nothing never kept up.
  assert.equal(
    judgeLevel({ ...base, throughput: 0, stats: stats({ count: 0, p50Us: 0, p99Us: 0 }) }, LOAD_DEFAULTS),
    'no query ran in the level',
  );
  assert.match(
    judgeLevel({ ...base, starts: { ...starts, started: 50, dropped: 50 } }, LOAD_DEFAULTS) ?? '',
    /started 50 of 100 asked \(50 dropped\)/,
  );
});

test('the schedule model: initial + (K-1) x subsequent, the difference named for p50 and mean', () => {
  const model = scheduleModel(
    [
      stats({ p50Us: 80_000, meanUs: 82_000 }),
      stats({ p50Us: 20_000, meanUs: 21_000 }),
      stats({ p50Us: 22_000, meanUs: 23_000 }),
    ],
    stats({ p50Us: 126_000, meanUs: 127_000 }),
  );
  assert.ok(model);
  assert.deepEqual(model.p50, {
    statistic: 'p50',
    initialUs: 80_000,
    subsequentUs: 21_000,
    predictedUs: 122_000,
    measuredUs: 126_000,
    differenceUs: 4_000,
    differenceRate: 0.0328,
  });
  assert.equal(model.mean.predictedUs, 82_000 + 2 * 22_000);
  assert.equal(model.mean.differenceUs, 127_000 - 126_000);
  assert.match(model.note, /between its queries in the client/);
  assert.equal(scheduleModel([stats({ count: 0 })], stats({})), undefined);
});

test('editor runs read dbprobe.load / dbprobe.schedule settings; dbprobe.json wins; {} keeps the defaults', async () => {
  const { buildPlan } = await import('../../src/extension/config/planSettings');
  const fromSettings = buildPlan(
    targets,
    ['load', 'schedule'],
    { load: { levels: [2, 4] }, schedule: {} },
    undefined,
    ['pg'],
  );
  assert.ok(fromSettings.ok);
  assert.deepEqual(fromSettings.plan.load?.levels, [2, 4]);
  assert.deepEqual(fromSettings.plan.schedule, SCHEDULE_DEFAULTS);
  const fromFile = buildPlan(targets, ['load'], { load: { levels: [2, 4] } }, { load: { levels: [8] } }, [
    'pg',
  ]);
  assert.ok(fromFile.ok);
  assert.deepEqual(fromFile.plan.load?.levels, [8]);
  const bad = buildPlan(targets, ['load'], { load: { levels: 'many' } }, undefined, ['pg']);
  assert.ok(!bad.ok);
  assert.match(bad.problem, /load\.levels: must be a list/);
});

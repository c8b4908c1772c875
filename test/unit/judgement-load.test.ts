/** Load statements of the judgement (src/shared/judgement/loadVerdict.ts): one coherent sentence per level and target. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeRun } from '../../src/shared/judgement/judgeRun';
import type { LoadFigures, LoadLevelFigures } from '../../src/shared/loadResult';
import { fakeResult, stats } from '../helpers/extensionRunResult';

function level(n: number, throughput: number, extra: Partial<LoadLevelFigures> = {}): LoadLevelFigures {
  return { level: n, durationUs: 10_000_000, throughput, stats: stats(400 * n), ...extra };
}

function loadRun(levels: LoadLevelFigures[], model: LoadFigures['model'] = 'closed') {
  const run = fakeResult(
    [{ name: 'local-pg', driver: 'pg', transport: 'tcp' }],
    [{ target: 'local-pg', kind: 'load', p50Us: 500 }],
  );
  run.measurements[0]!.load = { model, durationS: 10, maxErrorRate: 0.01, latencyStat: 'p99', levels };
  return run;
}

const CLIENT = 'client-limited: one thread at 99% CPU';

test('every level kept up and the client never the limit: "kept up at every level"', () => {
  const [verdict] = judgeRun(loadRun([level(1, 2_500), level(2, 5_000), level(4, 9_000)])).load;
  assert.equal(
    verdict?.sentence,
    'local-pg kept up at every level (1 connection to 4 connections), up to 9,000 queries/s.',
  );
  assert.deepEqual(
    verdict!.levels.map((l) => l.sentence),
    [
      '1 connection: kept up, 2,500 queries/s, p50 0.40 ms.',
      '2 connections: kept up, 5,000 queries/s, p50 0.80 ms.',
      '4 connections: kept up, 9,000 queries/s, p50 1.6 ms.',
    ],
  );
});

test('a client-limited level: the headline never says "every level", and says the capacity was not reached', () => {
  const judgement = judgeRun(
    loadRun([
      level(1, 2_500),
      level(2, 5_000, { clientLimited: CLIENT }),
      level(4, 5_100, { clientLimited: CLIENT }),
    ]),
  );
  const [verdict] = judgement.load;
  assert.equal(
    verdict?.sentence,
    "local-pg kept up through 4 connections, up to 5,100 queries/s, but the client was the limit from 2 connections: the database's capacity was not reached.",
  );
  assert.doesNotMatch(verdict!.sentence, /every level/);
  assert.deepEqual(
    verdict!.levels.map((l) => [l.keptUp, l.limit]),
    [
      [true, undefined],
      [true, 'client'],
      [true, 'client'],
    ],
  );
  assert.equal(
    verdict!.levels[1]!.sentence,
    "2 connections: kept up, 5,000 queries/s, p50 0.80 ms; the client was the limit (client-limited: one thread at 99% CPU), so the database's capacity was not reached.",
  );
  assert.deepEqual(judgement.lines, [verdict!.sentence], 'the headline is a verdict line');
});

test('a level that did not keep up: where, why, and whether the client was the limit there', () => {
  const [verdict] = judgeRun(
    loadRun([level(1, 2_500), level(2, 5_000), level(4, 4_000, { tripped: 'error rate 3.2% above 1.0%' })]),
  ).load;
  assert.equal(
    verdict?.sentence,
    'local-pg kept up through 2 connections (up to 5,000 queries/s) and did not keep up at 4 connections (error rate 3.2% above 1.0%); the client was not the limit there.',
  );
  assert.deepEqual(
    verdict!.levels.map((l) => [l.keptUp, l.limit]),
    [
      [true, undefined],
      [true, undefined],
      [false, 'database'],
    ],
  );
});

test('open model: levels are rates, with the start rate achieved; a level cut short says so', () => {
  const starts = {
    asked: 1000,
    started: 990,
    late: 0,
    lateAfterUs: 1000,
    dropped: 10,
    askedRate: 100,
    achievedRate: 99,
    latenessP50Us: 10,
    latenessP99Us: 20,
    latenessMaxUs: 30,
  };
  const [verdict] = judgeRun(
    loadRun(
      [
        level(100, 99, { starts }),
        level(200, 150, { starts: { ...starts, achievedRate: 150 }, durationUs: 4_000_000, cut: true }),
      ],
      'open',
    ),
  ).load;
  assert.deepEqual(
    verdict!.levels.map((l) => l.sentence),
    [
      '100/s: kept up, 99 queries/s, started 99/s of 100/s, p50 40.0 ms.',
      '200/s: not judged (cut after 4.0 of 10 s), 150 queries/s, started 150/s of 200/s, p50 80.0 ms over the part that ran.',
    ],
  );
  assert.equal(verdict!.levels[1]!.cut, true);
  assert.equal(verdict!.levels[1]!.keptUp, false, 'a cut level is never said to have kept up');
  assert.equal(
    verdict!.sentence,
    'local-pg kept up at 100/s, up to 99 queries/s. The run stopped inside 200/s: not judged, its figures cover only part of it.',
  );
});

test('a finished level that ended early (a low rate ends with its last answer) is not "cut"', () => {
  const [verdict] = judgeRun(loadRun([level(3, 3, { durationUs: 700_000 })], 'open')).load;
  assert.equal(verdict?.sentence, 'local-pg kept up at 3/s, up to 3 queries/s.');
  assert.equal(verdict!.levels[0]!.cut, undefined);
});

test('the only level cut by a cancel: the headline never says "kept up"', () => {
  const [verdict] = judgeRun(loadRun([level(200, 190, { durationUs: 3_110_000, cut: true })], 'open')).load;
  assert.equal(
    verdict?.sentence,
    'local-pg: not judged. The run stopped inside 200/s: not judged, its figures cover only part of it.',
  );
  assert.doesNotMatch(verdict!.sentence, /kept up/);
});

test('a rate below 1/s is labelled as asked, not rounded', () => {
  const [verdict] = judgeRun(loadRun([level(0.5, 0.5)], 'open')).load;
  assert.match(verdict!.levels[0]!.sentence, /^0\.5\/s: kept up/);
});

test("a level failed on the database's refusals names the database's connection limit, not the client", () => {
  const run = loadRun([
    level(1000, 300, {
      tripped: 'error rate 69.6% > 1.0%',
      clientLimited: CLIENT,
      stats: { ...stats(4_000), errors: 696, errorRate: 0.696 },
    }),
  ]);
  const m = run.measurements[0]!;
  m.stats = { ...m.stats, errors: 696 };
  m.firstErrors = [{ class: 'closed', message: 'sorry, too many clients already', hint: '' }];
  const [verdict] = judgeRun(run).load;
  assert.equal(
    verdict?.sentence,
    'local-pg did not keep up from the first level, 1000 connections (error rate 69.6% > 1.0%); the database turned connections away there ("sorry, too many clients already"): the limit was its connection limit, not the client.',
  );
  assert.equal(verdict!.levels[0]!.limit, 'database');
  assert.doesNotMatch(verdict!.sentence, /the client was the limit/);
});

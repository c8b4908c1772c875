/**
 * The watch's health judgement: up when the last run measured every kind it probed on a target, the
 * last success carried over runs that measured nothing, and one sentence per target as written here.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  failedRunOutcome,
  healthChanges,
  judgeHealth,
  type KindOutcome,
  runOutcomeOf,
  type WatchRunOutcome,
} from '../../src/shared/judgement/judgeHealth';
import { fakeResult } from '../helpers/extensionRunResult';

const HEALTHY_AT = '2026-11-27T18:02:11.482Z';
const DOWN_AT = '2026-11-27T18:02:41.519Z';
const REFUSED = 'refused: connect ECONNREFUSED 127.0.0.1:6432';

function run(endedAt: string, kinds: KindOutcome[]): WatchRunOutcome {
  return { endedAt, kinds };
}
const ok = (target: string, kind: string, measured = 10): KindOutcome => ({
  target,
  kind,
  measured,
  failed: 0,
});
const refused = (target: string, kind: string, failed = 10): KindOutcome => ({
  target,
  kind,
  measured: 0,
  failed,
  problem: REFUSED,
});

test('a target every kind of which answered is up, dated by the run', () => {
  const [pg, ...rest] = judgeHealth(
    run(HEALTHY_AT, [ok('local-pg', 'initial'), ok('local-pg', 'subsequent', 20)]),
  );
  assert.equal(rest.length, 0);
  assert.deepEqual(pg, {
    target: 'local-pg',
    up: true,
    lastSuccessAt: HEALTHY_AT,
    kinds: [
      { kind: 'initial', up: true, lastSuccessAt: HEALTHY_AT },
      { kind: 'subsequent', up: true, lastSuccessAt: HEALTHY_AT },
    ],
    sentence: 'local-pg is up: the last run measured 30 samples (initial, subsequent), none failed',
  });
});

test('a run that measured nothing: down, the last success kept, the reason said once', () => {
  const healthy = judgeHealth(run(HEALTHY_AT, [ok('local-pg', 'initial'), ok('local-pg', 'subsequent')]));
  const [pg] = judgeHealth(
    run(DOWN_AT, [refused('local-pg', 'initial'), refused('local-pg', 'subsequent', 1)]),
    healthy,
  );
  assert.equal(pg?.up, false);
  assert.equal(pg?.lastSuccessAt, HEALTHY_AT);
  assert.deepEqual(pg?.kinds, [
    { kind: 'initial', up: false, lastSuccessAt: HEALTHY_AT },
    { kind: 'subsequent', up: false, lastSuccessAt: HEALTHY_AT },
  ]);
  assert.equal(
    pg?.sentence,
    `local-pg is down: the last run measured nothing (${REFUSED}); last success 2026-11-27T18:02:11Z`,
  );
  // A second run down keeps the same last success; the next healthy run moves it.
  const still = judgeHealth(
    run('2026-11-27T18:03:11.000Z', [refused('local-pg', 'initial'), refused('local-pg', 'subsequent')]),
    [pg!],
  );
  assert.equal(still[0]?.lastSuccessAt, HEALTHY_AT);
  const back = judgeHealth(
    run('2026-11-27T18:03:41.000Z', [ok('local-pg', 'initial'), ok('local-pg', 'subsequent')]),
    still,
  );
  assert.equal(back[0]?.up, true);
  assert.equal(back[0]?.lastSuccessAt, '2026-11-27T18:03:41.000Z');
});

test('down from the first run: no success since the watch started, no timestamp', () => {
  const [pg] = judgeHealth(run(DOWN_AT, [refused('local-pg', 'initial')]));
  assert.equal(pg?.up, false);
  assert.equal(pg?.lastSuccessAt, undefined);
  assert.deepEqual(pg?.kinds, [{ kind: 'initial', up: false }]);
  assert.equal(
    pg?.sentence,
    `local-pg is down: the last run measured nothing (${REFUSED}); no success since the watch started`,
  );
});

test('one kind measured nothing: the target is down, each kind keeps its own last success', () => {
  const healthy = judgeHealth(run(HEALTHY_AT, [ok('pg', 'initial'), ok('pg', 'subsequent')]));
  const tooMany = 'auth: sorry, too many clients already';
  const [pg] = judgeHealth(
    run(DOWN_AT, [
      { target: 'pg', kind: 'initial', measured: 0, failed: 10, problem: tooMany },
      ok('pg', 'subsequent', 10),
    ]),
    healthy,
  );
  assert.equal(pg?.up, false);
  assert.deepEqual(pg?.kinds, [
    { kind: 'initial', up: false, lastSuccessAt: HEALTHY_AT },
    { kind: 'subsequent', up: true, lastSuccessAt: DOWN_AT },
  ]);
  assert.equal(pg?.lastSuccessAt, HEALTHY_AT);
  assert.equal(
    pg?.sentence,
    `pg is down: the last run measured nothing for initial (${tooMany}); subsequent 10 samples; last success 2026-11-27T18:02:11Z`,
  );
});

test('kinds that failed for different reasons are each named; failures beside answers keep it up', () => {
  const [down] = judgeHealth(
    run(DOWN_AT, [
      refused('pg', 'initial'),
      { target: 'pg', kind: 'subsequent', measured: 0, failed: 1, problem: 'closed: Connection terminated' },
    ]),
  );
  assert.equal(
    down?.sentence,
    `pg is down: the last run measured nothing (initial: ${REFUSED}; subsequent: closed: Connection terminated); no success since the watch started`,
  );
  const [flaky] = judgeHealth(
    run(DOWN_AT, [
      { target: 'pg', kind: 'subsequent', measured: 8, failed: 2, problem: 'timeout: query timed out' },
    ]),
  );
  assert.equal(flaky?.up, true);
  assert.equal(
    flaky?.sentence,
    'pg is up: the last run measured 8 samples (subsequent), 2 failed (timeout: query timed out)',
  );
});

test('targets are judged apart, in the order of the run', () => {
  const health = judgeHealth(run(DOWN_AT, [ok('redis', 'subsequent'), refused('pg', 'subsequent')]));
  assert.deepEqual(
    health.map((h) => [h.target, h.up]),
    [
      ['redis', true],
      ['pg', false],
    ],
  );
});

test('changes: every target the first time, then only those whose up/down flipped', () => {
  const first = judgeHealth(run(HEALTHY_AT, [ok('pg', 'subsequent'), ok('redis', 'subsequent')]));
  assert.deepEqual(
    healthChanges([], first).map((h) => h.target),
    ['pg', 'redis'],
  );
  const same = judgeHealth(run(DOWN_AT, [ok('pg', 'subsequent'), ok('redis', 'subsequent')]), first);
  assert.deepEqual(healthChanges(first, same), []);
  const pgDown = judgeHealth(run(DOWN_AT, [refused('pg', 'subsequent'), ok('redis', 'subsequent')]), same);
  assert.deepEqual(
    healthChanges(same, pgDown).map((h) => h.sentence),
    [`pg is down: the last run measured nothing (${REFUSED}); last success 2026-11-27T18:02:41Z`],
  );
});

test('a result read as outcomes: every target and kind of its plan, ended at start + duration', () => {
  const result = fakeResult(
    [
      { name: 'pg', driver: 'pg', transport: 'tcp' },
      { name: 'redis', driver: 'ioredis', transport: 'tcp' },
    ],
    [
      { target: 'pg', kind: 'initial', p50Us: 900 },
      { target: 'pg', kind: 'subsequent', p50Us: 90, samplesUs: [], errors: 3 },
      { target: 'redis', kind: 'initial', p50Us: 400, samplesUs: [400, 410], errors: 1 },
    ],
    { startedAt: '2026-11-27T18:02:10.000Z', durationUs: 1_482_000 },
  );
  const outcome = runOutcomeOf(result);
  assert.equal(outcome.endedAt, '2026-11-27T18:02:11.482Z');
  assert.deepEqual(outcome.kinds, [
    { target: 'pg', kind: 'initial', measured: 10, failed: 0 },
    { target: 'pg', kind: 'subsequent', measured: 0, failed: 3, problem: 'timeout: query timed out' },
    { target: 'redis', kind: 'initial', measured: 2, failed: 1, problem: 'timeout: query timed out' },
    // The plan's kinds are initial and subsequent: the run never measured redis subsequent.
    { target: 'redis', kind: 'subsequent', measured: 0, failed: 0, problem: 'the run did not reach it' },
  ]);
  const timedOut = fakeResult(
    [{ name: 'pg', driver: 'pg', transport: 'tcp' }],
    [{ target: 'pg', kind: 'initial', p50Us: 900 }],
    { plan: { ...result.plan, kinds: ['initial', 'subsequent'] } },
    { state: 'timedOut', stopReason: 'the run reached its 10 s limit' },
  );
  assert.equal(
    runOutcomeOf(timedOut).kinds[1]?.problem,
    'the run stopped first: the run reached its 10 s limit',
  );
  assert.equal(
    runOutcomeOf(timedOut, 'the runner went away').kinds[1]?.problem,
    'the run failed: the runner went away',
  );
});

test('a run with no result: every target and kind measured nothing, for that reason', () => {
  const outcome = failedRunOutcome(['pg', 'redis'], ['subsequent'], DOWN_AT, 'the driver crashed');
  const health = judgeHealth(outcome);
  assert.deepEqual(
    health.map((h) => h.sentence),
    [
      'pg is down: the last run measured nothing (the run failed: the driver crashed); no success since the watch started',
      'redis is down: the last run measured nothing (the run failed: the driver crashed); no success since the watch started',
    ],
  );
  const long = failedRunOutcome(['pg'], ['initial'], DOWN_AT, 'x'.repeat(500));
  assert.ok((long.kinds[0]?.problem?.length ?? 0) <= 160, 'a long failure is cut');
});

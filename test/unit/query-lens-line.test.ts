/**
 * The CodeLens answers about the query: its time from the app for the target the file's own driver
 * reaches, in one line of at most 100 characters, with the rest (p99, where the time goes, the run's
 * judgement across targets) in the hover; the other targets only on request.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { lensVerdict, type LensRecord } from '../../src/extension/queries/lensText';
import { MAX_LENS_CHARS, ownTarget, queryLensLine } from '../../src/extension/queries/queryLensLine';
import { judgeRun } from '../../src/shared/judgement/judgeRun';
import { projectAt } from '../../src/shared/projection';
import { around, projectedRun } from '../helpers/projectionResult';

const AT = '2025-01-02T03:04:05.678Z';
const NOW = Date.parse(AT) + 30_000;
const PG = {
  target: 'local-pg',
  driver: 'pg',
  kind: 'subsequent' as const,
  p50Us: 400,
  p99Us: 900,
  errors: 0,
  projection: { localUs: 200, turns: 1 },
  split: { databaseUs: 50, clientUs: 60, restUs: 0, floorUs: 90 },
};
const MYSQL = {
  ...PG,
  target: 'local-mysql',
  driver: 'mysql2',
  p50Us: 300,
  projection: { localUs: 150, turns: 1 },
};
const PLANETSCALE = { ...PG, target: 'planetscale-http', driver: 'planetscale', p50Us: 8_000 };
const RECORD: LensRecord = { runId: 'r1', at: AT, targets: [MYSQL, PLANETSCALE, PG] };
const at30 = { kind: 'distance' as const, of: () => ({ kind: 'rtt' as const, rttUs: 30_000 }) };

test("a file importing only pg: the pg target's time from the app first, in one short line", () => {
  const line = queryLensLine(RECORD, NOW, ['pg'], at30);
  assert.ok(line);
  assert.equal(line.target, 'local-pg');
  const projected = projectAt(PG.projection, 30_000);
  assert.equal(projected, 30_200);
  assert.equal(
    line.title,
    '≈ 30.2 ms from your app (30 ms RTT, 1 round trip) · 0.4 ms here on local-pg · just now',
  );
  assert.ok(line.title.length <= MAX_LENS_CHARS);
  assert.equal(line.others, 2, 'the other targets are offered on request');
  // The hover holds the rest: p99, the projection's parts, where the time goes, the others' names.
  assert.match(line.hover, /^local-pg: p50 0\.4 ms \/ p99 0\.9 ms here, a warm query/);
  assert.match(line.hover, /≈ 30\.2 ms from your app: 0\.2 ms local work \+ 1 round trip x 30\.0 ms/);
  assert.match(line.hover, /0\.050 ms in the database/);
  assert.match(line.hover, /Also measured: local-mysql, planetscale-http/);
});

test('the own target is chosen by the file, never by a figure; with no driver known, the first probed', () => {
  assert.equal(ownTarget(RECORD, ['mysql2'])?.target, 'local-mysql');
  assert.equal(ownTarget(RECORD, ['planetscale'])?.target, 'planetscale-http');
  assert.equal(ownTarget(RECORD, [])?.target, 'local-mysql');
  const old: LensRecord = { ...RECORD, targets: RECORD.targets.map(({ driver: _, ...t }) => t) };
  assert.equal(ownTarget(old, ['pg'])?.target, 'local-mysql');
});

test('within 100 characters whatever the name: the age goes first, then the name is cut', () => {
  const long = { ...PG, target: 'a-very-long-target-name-for-the-production-primary-database-in-eu-west' };
  const line = queryLensLine({ ...RECORD, targets: [long] }, NOW, ['pg'], {
    kind: 'distance',
    of: () => ({ kind: 'rtt', rttUs: 2_100, place: 'eu-west-1' }),
  });
  assert.ok(line);
  assert.ok(line.title.length <= MAX_LENS_CHARS, `${line.title.length}: ${line.title}`);
  assert.match(
    line.title,
    /^≈ 2\.3 ms from your app \(eu-west-1 runner, 2\.1 ms RTT, 1 round trip\) · 0\.4 ms here on a-very/,
  );
  assert.match(line.title, /…$/);
  assert.equal(line.others, 0);
});

test('here (appRttMs 0), no location, a place with no run, a failure: each says so in one line', () => {
  assert.equal(
    queryLensLine(RECORD, NOW, ['pg'], { kind: 'here' })?.title,
    '0.4 ms from your app (it runs here) on local-pg · just now',
  );
  assert.equal(
    queryLensLine(RECORD, NOW, ['pg'], undefined)?.title,
    '0.4 ms here on local-pg · set where your app runs (dbprobe.appRttMs) · just now',
  );
  assert.equal(
    queryLensLine(RECORD, NOW, ['pg'], { kind: 'distance', of: () => ({ kind: 'unknown', place: 'eu' }) })
      ?.title,
    '0.4 ms here on local-pg · no run from the eu runner measured it · just now',
  );
  assert.equal(
    queryLensLine(RECORD, NOW, ['pg'], { kind: 'distance', of: () => undefined })?.title,
    '0.4 ms here on local-pg · just now',
    'a place still looked up: no nudge to set what is set',
  );
  const failed = {
    target: 'local-pg',
    driver: 'pg',
    kind: 'initial' as const,
    errors: 10,
    failure: { class: 'query' as const, message: `relation "x" does not exist ${'x'.repeat(200)}` },
  };
  const title = queryLensLine({ ...RECORD, targets: [failed] }, NOW, ['pg'], at30)?.title ?? '';
  assert.match(title, /^query rejected on local-pg: relation "x" does not exist/);
  assert.ok(title.length <= MAX_LENS_CHARS);
});

test("the hover ends with the run's judgement across targets, in the judgement's own words", () => {
  const run = projectedRun([
    { name: 'a', tcpUs: 100, subsequent: { samplesUs: around(300, 30), wire: { roundTrips: 1 } } },
    { name: 'b', tcpUs: 100, subsequent: { samplesUs: around(3_000, 300), wire: { roundTrips: 1 } } },
  ]);
  const verdict = lensVerdict(judgeRun(run).rankings);
  assert.ok(verdict.length > 0);
  const line = queryLensLine(RECORD, NOW, ['pg'], at30, verdict);
  assert.ok(line?.hover.includes(verdict[0]!.sentence));
});

/** pg_sleep(0.02) on one pg target at 3 ms from the app: 20.1 ms of it in the database. */
const SLEEPY = {
  ...PG,
  target: 'testbed-pg',
  p50Us: 20_600,
  projection: { localUs: 20_400, turns: 1 },
  split: { databaseUs: 20_100, restUs: 300, floorUs: 200 },
};
const at3 = { kind: 'distance' as const, of: () => ({ kind: 'rtt' as const, rttUs: 3_000 }) };

test('with the database time, the line says where the time from the app goes, its parts adding up', () => {
  const line = queryLensLine({ ...RECORD, targets: [{ ...SLEEPY, target: 'pg' }, MYSQL] }, NOW, ['pg'], at3);
  assert.equal(
    line?.title,
    '≈ 23.4 ms from your app on pg: 20.1 in the database, 3.0 distance (1 round trip x 3 ms), 0.3 rest',
  );
  // 20.1 + 3.0 + 0.3 = 23.4: the parts are the projected figure's, only the distance at the app's RTT.
  assert.equal(projectAt(SLEEPY.projection, 3_000), 23_400);
  // The figure here is in the hover, as is the split with its units.
  assert.match(line?.hover ?? '', /^pg: p50 20\.6 ms \/ p99 0\.9 ms here/);
  assert.match(
    line?.hover ?? '',
    /Where it goes: 20\.1 ms in the database, 3\.0 ms distance \(1 round trip x 3\.0 ms\), 0\.3 ms rest/,
  );
});

test('a split line too long for its name: without it when probed on one target, else the plain line', () => {
  const alone = queryLensLine({ ...RECORD, targets: [SLEEPY] }, NOW, ['pg'], at3)?.title ?? '';
  assert.equal(
    alone,
    '≈ 23.4 ms from your app: 20.1 in the database, 3.0 distance (1 round trip x 3 ms), 0.3 rest',
  );
  assert.ok(alone.length <= MAX_LENS_CHARS, `${alone.length}`);
  // Beside other targets the name says which one answered: the split goes to the hover.
  const beside = queryLensLine({ ...RECORD, targets: [SLEEPY, MYSQL] }, NOW, ['pg'], at3)?.title ?? '';
  assert.equal(
    beside,
    '≈ 23.4 ms from your app (3 ms RTT, 1 round trip) · 20.6 ms here on testbed-pg · just now',
  );
  // A database time past the figure here (one EXPLAIN ANALYZE on a busy host): the rest is negative,
  // said by its size as every part is.
  const over = { ...SLEEPY, split: { ...SLEEPY.split, databaseUs: 21_500, restUs: -622 } };
  assert.match(
    queryLensLine({ ...RECORD, targets: [over] }, NOW, ['pg'], at3)?.title ?? '',
    /21\.5 in the database, 3\.0 distance \(1 round trip x 3 ms\), -0\.6 rest$/,
  );
  // No database time: the plain line, whatever the number of targets.
  const { split: _, ...plain } = SLEEPY;
  assert.equal(
    queryLensLine({ ...RECORD, targets: [plain] }, NOW, ['pg'], at3)?.title,
    '≈ 23.4 ms from your app (3 ms RTT, 1 round trip) · 20.6 ms here on testbed-pg · just now',
  );
});

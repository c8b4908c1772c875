/**
 * A runner place as the app's location (dbprobe.appLocation): the RTT is that place's
 * measured floor to the target in the newest run from there that has one, and the CodeLens and the
 * heartbeat say which place and RTT they projected to, or that no run from there measured the target.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { describeHeartbeat } from '../../src/extension/heartbeat/heartbeatWindow';
import { AppDistances } from '../../src/extension/queries/appDistances';
import {
  appDistance,
  findPlaceFloor,
  locationOfRtt,
  runIsAtPlace,
  type PlaceRunSummary,
} from '../../src/extension/queries/appLocation';
import {
  lensTitles,
  pickFigures,
  withProjection,
  type LensRecord,
} from '../../src/extension/queries/lensText';
import { floorOf, projectAt } from '../../src/shared/projection';
import type { RunResult } from '../../src/shared/result';
import { flat, PG, projectedRun } from '../helpers/projectionResult';

const NOW = Date.parse('2025-01-02T03:04:05.678Z');

/** pg from a runner in eu-west: TCP connect 2.1 ms, warm query 2.4 ms (one turn): floor 2.1 ms. */
const FROM_EU_WEST = projectedRun([
  {
    ...PG,
    tcpUs: 2_100,
    initial: { samplesUs: flat(9_000), wire: { roundTrips: 4, tcpHandshakes: 1 } },
    subsequent: { samplesUs: flat(2_400), wire: { roundTrips: 1, tcpHandshakes: 0 } },
  },
]);
/** pg from the same runner, older, nearer (1.5 ms): must lose to the newer run. */
const OLDER = projectedRun([
  { ...PG, tcpUs: 1_500, subsequent: { samplesUs: flat(1_600), wire: { roundTrips: 1 } } },
]);
/** A run from there with no floor for pg: TCP not seen, round trips not counted. */
const NO_FLOOR = projectedRun([{ name: 'pg', subsequent: { samplesUs: flat(2_000) } }]);

const summary = (
  id: string,
  startedAt: string,
  location: string,
  extra: Partial<PlaceRunSummary> = {},
): PlaceRunSummary => ({
  id,
  startedAt,
  location,
  locationKind: location.startsWith('runner') ? 'runner' : 'local',
  targets: [{ name: 'pg' }],
  ...extra,
});

const RUNS: PlaceRunSummary[] = [
  summary('older', '2025-01-01T00:00:00Z', 'runner eu-west'),
  summary('newest-no-floor', '2025-01-02T02:00:00Z', 'runner eu-west'),
  summary('eu', '2025-01-02T01:00:00Z', 'runner eu-west'),
  summary('local', '2025-01-02T03:00:00Z', 'this machine'),
  summary('us', '2025-01-02T03:00:00Z', 'runner us-east'),
  summary('other-target', '2025-01-02T03:00:00Z', 'runner eu-west', { targets: [{ name: 'redis' }] }),
];
const RESULTS: Record<string, RunResult> = {
  older: OLDER,
  'newest-no-floor': NO_FLOOR,
  eu: FROM_EU_WEST,
  local: projectedRun([PG]),
  us: projectedRun([{ ...PG, tcpUs: 80_000 }]),
  'other-target': projectedRun([{ ...PG, name: 'redis' }]),
};
const load = async (id: string) => RESULTS[id];

function localRecord(): LensRecord {
  const result = projectedRun([PG]);
  const figures = withProjection(pickFigures('pg', result.measurements)!, result.measurements);
  return { runId: result.id, at: result.startedAt, targets: [figures] };
}

test('a run is at a place by its region label, or by its column in a run group (region or "region (name)")', () => {
  assert.ok(runIsAtPlace(summary('a', 'x', 'runner eu-west'), 'eu-west'));
  assert.ok(runIsAtPlace(summary('a', 'x', 'runner eu-west'), ' eu-west '), 'the setting is trimmed');
  assert.ok(!runIsAtPlace(summary('a', 'x', 'runner eu-west-2'), 'eu-west'), 'a longer region is another');
  assert.ok(!runIsAtPlace(summary('a', 'x', 'this machine'), 'this machine'), 'this machine is no runner');
  const grouped = summary('g', 'x', 'runner eu-west', { group: { id: 'g1', place: 'eu-west (fra)' } });
  assert.ok(runIsAtPlace(grouped, 'fra'), "the runner's configured name, as the group column shows it");
  assert.ok(runIsAtPlace(grouped, 'eu-west'));
  assert.ok(!runIsAtPlace(grouped, 'ams'));
  assert.ok(!runIsAtPlace(summary('a', 'x', 'runner eu-west'), ''));
});

test("the place's RTT: the floor in the newest run from there that has one for the target", async () => {
  const loaded: string[] = [];
  const found = await findPlaceFloor('eu-west', 'pg', RUNS, async (id) => {
    loaded.push(id);
    return load(id);
  });
  assert.deepEqual(loaded, ['newest-no-floor', 'eu'], 'newest first; other places and targets never read');
  assert.deepEqual(found, { rttUs: 2_100, runId: 'eu' });
  assert.equal(found.rttUs, floorOf(FROM_EU_WEST.measurements, 'pg')?.us, 'the projection module floor');
  assert.equal(await findPlaceFloor('ap-south', 'pg', RUNS, load), undefined, 'no run from there');
  assert.equal(await findPlaceFloor('eu-west', 'mysql', RUNS, load), undefined, 'no run of that target');
  const unreadable = await findPlaceFloor('eu-west', 'pg', RUNS, async (id) => {
    if (id === 'eu') throw new Error('gone');
    return load(id);
  });
  assert.deepEqual(unreadable, { rttUs: 1_500, runId: 'older' }, 'an unreadable run is passed over');
});

test('CodeLens: projected to the place floor, the place and its RTT named; equal to projectAt', () => {
  const record = localRecord();
  const floor = { rttUs: 2_100, runId: 'eu' };
  const distance = appDistance({ kind: 'place', place: 'eu-west' }, floor);
  // pg subsequent here: p50 300 µs, floor 100 µs, 1 turn: local 200 µs; at 2.1 ms, 2.3 ms.
  assert.equal(projectAt(record.targets[0]!.projection!, 2_100), 2_300);
  assert.deepEqual(
    lensTitles(record, NOW, () => distance),
    ['p50 0.3 ms here · ≈ 2.3 ms from your app (eu-west runner, 2.1 ms RTT) / p99 0.6 ms on pg, just now'],
  );
  assert.deepEqual(
    lensTitles(record, NOW, () => appDistance({ kind: 'rtt', rttMs: 3 }, undefined)),
    ['p50 0.3 ms here · ≈ 3.2 ms from your app (3 ms RTT) / p99 0.6 ms on pg, just now'],
  );
});

test('CodeLens: a place with no run that measured the target says so, with no projection', () => {
  const distance = appDistance({ kind: 'place', place: 'ap-south' }, undefined);
  const [title] = lensTitles(localRecord(), NOW, () => distance);
  assert.equal(
    title,
    'p50 0.3 ms / p99 0.6 ms on pg, just now · no projection: no run from the ap-south runner has measured pg',
  );
  assert.doesNotMatch(title!, /from your app|≈/);
});

test('AppDistances: an RTT at once; a place looked up once per target, then redrawn; cleared by a new run', async () => {
  let redraws = 0;
  let lists = 0;
  const distances = new AppDistances(
    {
      list: async () => {
        lists++;
        return RUNS;
      },
      load,
    },
    () => redraws++,
  );
  assert.deepEqual(distances.distanceFor({ kind: 'rtt', rttMs: 3 }, 'pg'), { kind: 'rtt', rttUs: 3_000 });
  assert.equal(distances.distanceFor(undefined, 'pg'), undefined);
  // appRttMs 0 is here: no projection (a "0 ms RTT" one would print less than was measured).
  assert.deepEqual(locationOfRtt(0), { kind: 'here' });
  assert.deepEqual(locationOfRtt(3), { kind: 'rtt', rttMs: 3 });
  assert.equal(locationOfRtt(undefined), undefined);
  assert.equal(distances.distanceFor(locationOfRtt(0), 'pg'), undefined);
  const place = { kind: 'place', place: 'eu-west' } as const;
  assert.equal(distances.distanceFor(place, 'pg'), undefined, 'not looked up yet');
  assert.equal(distances.distanceFor(place, 'pg'), undefined, 'still pending: no second lookup');
  await waitFor(() => redraws === 1);
  assert.equal(lists, 1);
  assert.deepEqual(distances.distanceFor(place, 'pg'), { kind: 'rtt', rttUs: 2_100, place: 'eu-west' });
  assert.deepEqual(distances.distanceFor({ kind: 'place', place: 'nowhere' }, 'pg'), undefined);
  await waitFor(() => redraws === 2);
  assert.deepEqual(distances.distanceFor({ kind: 'place', place: 'nowhere' }, 'pg'), {
    kind: 'unknown',
    place: 'nowhere',
  });
  distances.clear();
  assert.equal(distances.distanceFor(place, 'pg'), undefined, 'a new run: looked up again');
  await waitFor(() => redraws === 3);
  assert.equal(lists, 3);
});

test('heartbeat: the place and its measured RTT in the tooltip, or why there is no projection', () => {
  const settings = { intervalSeconds: 30, warnAboveMs: 100 };
  const sample = { count: 5, errors: 0, p50Us: 450, level: 'ok' as const };
  const { text, tooltip } = describeHeartbeat({ name: 'pg', driver: 'pg' }, sample, settings, {
    projected: { us: 2_450, appRttMs: 2.1, place: 'eu-west', turns: 1, floorUs: 100 },
  });
  assert.equal(text, '$(pulse) pg 0.5 ms here · ≈ 2.5 ms from your app (eu-west runner, 2.1 ms RTT)');
  assert.match(tooltip, /At your app \(the eu-west runner, whose measured RTT to pg is 2\.1 ms\): ≈ 2\.5 ms/);
  const none = describeHeartbeat({ name: 'pg', driver: 'pg' }, sample, settings, {
    missingPlace: 'ap-south',
  });
  assert.equal(none.text, '$(pulse) pg 0.5 ms');
  assert.match(
    none.tooltip,
    /No projection: no saved run from the ap-south runner \(dbprobe\.appLocation\) has measured pg/,
  );
});

/** Polls a condition for at most 2 s (the lookups are promise chains over in-memory data). */
async function waitFor(condition: () => boolean): Promise<void> {
  const deadline = Date.now() + 2_000;
  while (!condition()) {
    assert.ok(Date.now() < deadline, 'timed out waiting for the lookup');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Projection to the app's distance: the arithmetic, the floor, the marks and the overtakes. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { floorOf, INITIAL_CWND_BYTES, projectAt, projectRun } from '../../src/shared/projection';
import { findOvertakes } from '../../src/shared/judgement/projectionOvertakes';
import { readRtts } from '../../src/shared/projectionRtts';
import { around, flat, PG, projectedRun as run, type Side } from '../helpers/projectionResult';

test('local part = p50 - turns x floor; projected = local + turns x RTT, TCP handshake counted', () => {
  const set = projectRun(run([PG]), { rttsMs: [0.1, 10, 80], maxQueries: 3 });
  const pg = set.targets[0]!;
  assert.deepEqual(pg.floor, { us: 100, source: 'tcp' });
  // initial: 4 round trips + 1 handshake = 5 turns; 2,000 - 5 x 100 = 1,500 local.
  assert.equal(pg.initial?.turns, 5);
  assert.equal(pg.initial?.localUs, 1_500);
  assert.deepEqual(pg.initialAtUs, [2_000, 51_500, 401_500]);
  // subsequent: 1 turn, 300 - 100 = 200 local.
  assert.equal(pg.subsequent?.localUs, 200);
  assert.deepEqual(pg.subsequentAtUs, [300, 10_200, 80_200]);
  // A request of k queries on one new connection: initial + (k - 1) x subsequent, at each RTT.
  assert.deepEqual(pg.requestsAtUs, [
    [2_000, 51_500, 401_500],
    [2_300, 61_700, 481_700],
    [2_600, 71_900, 561_900],
  ]);
  assert.equal(pg.initial?.lowerBound, undefined);
});

test('at the measured floor every projection gives back the measured p50', () => {
  const set = projectRun(run([PG]), { rttsMs: [0.1] });
  for (const t of set.targets) {
    assert.equal(projectAt(t.initial!, t.floor.us), t.initial!.p50Us);
    assert.equal(projectAt(t.subsequent!, t.floor.us), t.subsequent!.p50Us);
  }
});

test('no TCP seen: the floor is the fastest subsequent query per round trip, and says so', () => {
  const ws: Side = {
    name: 'ws',
    initial: { samplesUs: flat(5_000), wire: { roundTrips: 2, tcpHandshakes: 1 } },
    subsequent: { samplesUs: [...flat(400, 39), 240], wire: { roundTrips: 1, tcpHandshakes: 0 } },
  };
  const result = run([ws]);
  assert.deepEqual(floorOf(result.measurements, 'ws'), { us: 240, source: 'subsequent' });
  const t = projectRun(result, { rttsMs: [10] }).targets[0]!;
  assert.equal(t.initial?.localUs, 5_000 - 3 * 240);
});

test('a TCP connect slower than a whole warm query is not the floor: the fastest query per round trip is', () => {
  // The editor's probe thread on a busy machine: TCP p50 2.2 ms beside 0.17 ms warm queries.
  const busy: Side = {
    ...PG,
    tcpUs: 2_200,
    subsequent: { samplesUs: [...flat(171, 39), 150], wire: { roundTrips: 1, tcpHandshakes: 0 } },
  };
  const result = run([busy]);
  assert.deepEqual(floorOf(result.measurements, 'pg'), { us: 150, source: 'subsequent' });
  const t = projectRun(result, { rttsMs: [1] }).targets[0]!;
  assert.equal(t.subsequent?.localUs, 21);
  assert.deepEqual(t.subsequentAtUs, [1_021], 'never a negative latency');
});

test('kinds without counted round trips are skipped with the reason the result gives', () => {
  const bare: Side = {
    name: 'file',
    tcpUs: 50,
    initial: {
      samplesUs: flat(900),
      wire: { unmeasured: { roundTrips: 'an embedded database has no socket' } },
    },
    subsequent: { samplesUs: flat(90) },
  };
  const set = projectRun(run([bare, PG]));
  assert.deepEqual(
    set.targets.map((t) => t.target),
    ['pg'],
  );
  assert.deepEqual(set.skipped, [
    {
      target: 'file',
      kind: 'initial',
      reason: 'round trips not counted: an embedded database has no socket',
    },
    { target: 'file', kind: 'subsequent', reason: 'round trips not counted in this result' },
  ]);
  const nowhere = projectRun(run([{ name: 'x', initial: { samplesUs: flat(900) } }]));
  assert.match(nowhere.skipped[0]?.reason ?? '', /no measured RTT/);
});

test('a response beyond an initial congestion window marks the projection a lower bound', () => {
  const big: Side = {
    ...PG,
    name: 'big',
    subsequent: { samplesUs: flat(900), wire: { roundTrips: 1, bytesReceived: INITIAL_CWND_BYTES + 1 } },
  };
  const t = projectRun(run([big])).targets[0]!;
  assert.deepEqual(t.subsequent?.lowerBound, { bytesReceived: INITIAL_CWND_BYTES + 1 });
  assert.equal(t.initial?.lowerBound, undefined);
});

test('an overtake is named with its RTT and interval when the local-part difference is established', () => {
  // pg: 5 turns, local ~500; http: 2 turns, local ~2,800; the lines cross at 2,300 / 3 µs.
  const pg: Side = {
    name: 'pg',
    tcpUs: 100,
    initial: { samplesUs: around(1_000, 50), wire: { roundTrips: 4, tcpHandshakes: 1 } },
  };
  const http: Side = {
    name: 'http',
    tcpUs: 100,
    initial: { samplesUs: around(3_000, 50), wire: { roundTrips: 1, tcpHandshakes: 1 } },
  };
  const result = run([pg, http]);
  const overtakes = findOvertakes(result, projectRun(result));
  assert.equal(overtakes.length, 1);
  const o = overtakes[0]!;
  assert.equal(o.state, 'established');
  assert.equal(o.winner, 'http');
  assert.equal(o.loser, 'pg');
  assert.ok(Math.abs(o.rttUs - 2_300 / 3) < 1e-6, String(o.rttUs));
  assert.ok(o.lowUs! > 0 && o.lowUs! <= o.rttUs && o.rttUs <= o.highUs!, `${o.lowUs} ${o.rttUs} ${o.highUs}`);
  assert.match(o.text, /^http overtakes pg \(initial\) from 0\.767 ms RTT \(95% CI /);
  assert.match(o.text, /3 fewer turns outweigh 2\.300 ms more local work/);
});

test('an overtake whose local-part interval contains 0 is said to be within noise, with no RTT named', () => {
  const pg: Side = {
    name: 'pg',
    tcpUs: 100,
    initial: { samplesUs: around(1_000, 50, 40), wire: { roundTrips: 4, tcpHandshakes: 1 } },
  };
  // Two modes: the median sits on the high one, a resample's often on the low one.
  const bimodal: Side = {
    name: 'bimodal',
    tcpUs: 100,
    initial: { samplesUs: [...flat(300, 19), ...flat(3_300, 21)], wire: { roundTrips: 1, tcpHandshakes: 1 } },
  };
  const result = run([pg, bimodal]);
  const [o] = findOvertakes(result, projectRun(result));
  assert.equal(o?.state, 'noise');
  assert.equal(o?.lowUs, undefined);
  assert.match(o?.text ?? '', /within noise \(initial\): .* contains 0$/);
});

test('a local-part difference below the minimum effect is within noise; parallel lines never overtake', () => {
  // Same initial turns everywhere (parallel): only the subsequent lines can cross.
  const initial = { samplesUs: flat(5_000), wire: { roundTrips: 3, tcpHandshakes: 1 } };
  const a: Side = {
    name: 'a',
    tcpUs: 100,
    initial,
    subsequent: { samplesUs: around(1_000, 10), wire: { roundTrips: 2 } },
  };
  const b: Side = {
    name: 'b',
    tcpUs: 100,
    initial,
    subsequent: { samplesUs: around(1_200, 10), wire: { roundTrips: 1 } },
  };
  const c: Side = { ...b, name: 'c' };
  const result = run([a, b, c]);
  // b and c: same turns, parallel lines. a vs b and a vs c: local 800 vs 1,100, 300 < 50% of 1,000.
  result.plan.minEffect = { share: 0.5 };
  const overtakes = findOvertakes(result, projectRun(result));
  assert.equal(overtakes.length, 2);
  for (const o of overtakes) {
    assert.equal(o.state, 'noise');
    assert.match(o.text, /is below the minimum effect \(50% of the faster\)/);
  }
  // With no minimum effect (the default) the run's interval alone decides: the crossing is named.
  delete result.plan.minEffect;
  for (const o of findOvertakes(result, projectRun(result))) assert.equal(o.state, 'established', o.text);
});

test('RTT lists: the flag and the setting read alike, sorted; bad ones say what to give', () => {
  assert.deepEqual(readRtts('30, 1,10', '--rtt'), { rttsMs: [1, 10, 30] });
  assert.deepEqual(readRtts([80, 0.5, 80], 'dbprobe.projection.rtts'), { rttsMs: [0.5, 80] });
  assert.match(readRtts('', '--rtt').error ?? '', /--rtt is empty; give 1 to 12 round-trip times/);
  assert.match(readRtts('1,fast', '--rtt').error ?? '', /"fast" is not a round-trip time/);
  assert.match(readRtts([-1], 'x').error ?? '', /"-1" is not a round-trip time/);
  assert.match(readRtts('2000', '--rtt').error ?? '', /from 0 to 1000/);
  assert.match(
    readRtts(
      Array.from({ length: 13 }, (_, i) => i),
      'x',
    ).error ?? '',
    /has 13 round-trip times/,
  );
});

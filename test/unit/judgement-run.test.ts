/** The one judgement of a run (src/shared/judgement/judgeRun.ts) over hand-built results whose answer is known. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { judgeOptionsOf, judgeRun } from '../../src/shared/judgement/judgeRun';
import { shortMs } from '../../src/shared/judgement/shortMs';
import { around, projectedRun, type Side } from '../helpers/projectionResult';

const counted = (roundTrips: number, tcpHandshakes: number) => ({ roundTrips, tcpHandshakes });

/** pg-like: 4 round trips + a TCP handshake per new connection, 1 per warm query. */
function pgLike(name: string, initialUs: number, subsequentUs: number): Side {
  return {
    name,
    tcpUs: 100,
    initial: { samplesUs: around(initialUs, initialUs / 10), wire: counted(4, 1) },
    subsequent: { samplesUs: around(subsequentUs, subsequentUs / 10), wire: counted(1, 0) },
  };
}

/** HTTP-like: 1 round trip + a TCP handshake per new connection, but more local work. */
function edgeLike(name: string, initialUs: number, subsequentUs: number): Side {
  return {
    name,
    tcpUs: 100,
    initial: { samplesUs: around(initialUs, initialUs / 10), wire: counted(1, 1) },
    subsequent: { samplesUs: around(subsequentUs, subsequentUs / 10), wire: counted(1, 0) },
  };
}

test('identical targets: one tie group per question, and a sentence that says nothing is established', () => {
  const judgement = judgeRun(projectedRun([pgLike('a', 2_000, 300), pgLike('b', 2_000, 300)]));
  assert.deepEqual(judgement.lines, [
    'New connection here: a and b tied (2.0, 2.0 ms): no difference established with 41 samples a target.',
    'Warm query here: a and b tied (0.30, 0.30 ms): no difference established with 41 samples a target.',
    'Request of 5 queries here: a and b tied (3.2, 3.2 ms): no difference established with 41 samples a target.',
  ]);
  for (const r of judgement.rankings) {
    assert.equal(r.groups.length, 1, r.sentence);
    assert.deepEqual(r.why, []);
  }
  // 41 samples cannot support a p99: absent, with one note.
  assert.ok(judgement.rankings[0]!.groups[0]!.every((e) => e.p99Us === undefined));
  assert.ok(judgement.notes.some((n) => n.startsWith('p99 is given only from 100 successful samples')));
});

test('one clearly faster: its own group first; a 5% gap at initial stays tied (the 20% new-connection spread)', () => {
  const judgement = judgeRun(
    projectedRun([pgLike('slow', 10_000, 3_000), pgLike('fast', 2_000, 300), pgLike('twin', 2_100, 310)]),
  );
  assert.deepEqual(judgement.lines, [
    'New connection here: fast and twin tied fastest (2.0, 2.1 ms); slow behind (10.0 ms).',
    'Warm query here: fast and twin tied fastest (0.30, 0.31 ms); slow behind (3.0 ms).',
    'Request of 5 queries here: fast and twin tied fastest (3.2, 3.3 ms); slow behind (22.0 ms).',
  ]);
  const initial = judgement.rankings[0]!;
  assert.deepEqual(
    initial.groups.map((g) => g.map((e) => e.target)),
    [['fast', 'twin'], ['slow']],
  );
  assert.deepEqual(initial.why, [
    'fast and slow: 5 round trips each for a new connection, so the gap is local work, the same at every RTT',
  ]);
});

test('a tie on few samples says on how many: figures far apart that too few samples cannot tell apart', () => {
  // Five samples a side are too few for any comparison, so the two stay in one group whatever their
  // figures; the sentence says what the tie rests on, in the measurement's own count.
  const few = (name: string, us: number): Side => ({
    name,
    tcpUs: 100,
    initial: { samplesUs: around(us * 7, us / 10, 5), wire: counted(4, 1) },
    subsequent: { samplesUs: around(us, us / 10, 5), wire: counted(1, 0) },
  });
  const judgement = judgeRun(projectedRun([few('libsql', 150), few('pg', 900)]));
  const warm = judgement.rankings.find((r) => r.question === 'warm query' && r.at === 'here');
  assert.equal(
    warm?.sentence,
    'Warm query here: libsql and pg tied (0.15, 0.90 ms): no difference established with 5 samples a target.',
  );
});

test('lines crossing at an RTT: fewer round trips win at the app RTT though they lose here', () => {
  const run = projectedRun([pgLike('pg', 2_000, 300), edgeLike('edge', 6_000, 300)]);
  const here = judgeRun(run);
  assert.equal(
    here.rankings.some((r) => r.at === 'app'),
    false,
    'no app RTT given: no app ranking',
  );
  const judgement = judgeRun(run, { appRttMs: 12 });
  const initial = judgement.rankings.filter((r) => r.question === 'new connection');
  assert.deepEqual(
    initial.map((r) => [r.at, r.rttMs, r.sentence]),
    [
      ['here', undefined, 'New connection here: pg fastest (2.0 ms); edge behind (6.0 ms).'],
      ['app', 12, 'New connection at 12 ms RTT (projected): edge fastest (29.8 ms); pg behind (61.5 ms).'],
    ],
  );
  // local parts: pg 2000 - 5 x 100 = 1500, edge 6000 - 2 x 100 = 5800: they cross at 4300 / 3 µs.
  assert.deepEqual(initial[0]!.why, [
    'pg: 5 round trips for a new connection, edge 2: edge ahead from 1.4 ms RTT on',
  ]);
  assert.deepEqual(initial[1]!.why, [
    'edge: 2 round trips for a new connection, pg 5: ahead from 1.4 ms RTT on',
  ]);
  // Each target's figure at the app RTT is carried in the here ranking too.
  assert.deepEqual(
    initial[0]!.groups.flat().map((e) => [e.target, e.p50Us, e.appP50Us]),
    [
      ['pg', 2_000, 61_500],
      ['edge', 6_000, 29_800],
    ],
  );
  // Same round trips per warm query: the same gap at every RTT, so no overtake and the same groups.
  const warm = judgement.rankings.filter((r) => r.question === 'warm query');
  assert.deepEqual(
    warm.map((r) => r.sentence),
    [
      'Warm query here: edge and pg tied (0.30, 0.30 ms): no difference established with 41 samples a target.',
      'Warm query at 12 ms RTT (projected): edge and pg tied (12.2, 12.2 ms): no difference established with 41 samples a target.',
    ],
  );
});

test('different workloads are never ranked together; a class of one target gets a note, not a ranking', () => {
  const run = projectedRun([
    pgLike('pg', 2_000, 300),
    pgLike('mysql', 9_000, 3_000),
    pgLike('redis', 500, 100),
  ]);
  run.targets.find((t) => t.name === 'mysql')!.query = 'select 1;';
  run.targets.find((t) => t.name === 'redis')!.query = 'PING';
  const judgement = judgeRun(run);
  assert.equal(
    judgement.rankings[0]!.sentence,
    'New connection here (SELECT 1): pg fastest (2.0 ms); mysql behind (9.0 ms).',
  );
  assert.ok(judgement.rankings.every((r) => r.workload === 'SELECT 1'));
  assert.ok(judgement.rankings.every((r) => !r.groups.flat().some((e) => e.target === 'redis')));
  assert.deepEqual(
    judgement.notes.filter((n) => n.includes('redis')),
    ['redis is the only target running PING: nothing to rank it against.'],
  );
});

test('a preset that sends SELECT 1 joins the SELECT 1 class; another preset is its own', () => {
  const run = projectedRun([pgLike('a', 2_000, 300), pgLike('b', 2_000, 300), pgLike('c', 2_000, 300)]);
  run.targets[1]!.query = 'workload select-1: SELECT 1';
  run.targets[2]!.query = 'workload point-read: one row by primary key';
  const judgement = judgeRun(run);
  assert.deepEqual(
    judgement.rankings[0]!.groups.flat().map((e) => e.target),
    ['a', 'b'],
  );
  assert.ok(
    judgement.notes.includes('c is the only target running workload point-read: nothing to rank it against.'),
  );
});

test("a chain of small steps: a gap is measured from the group's fastest member, not from its neighbour", () => {
  // Each step is 15% (below the user's 20% minimum effect); z is 30% behind x.
  const run = projectedRun([pgLike('x', 10_000, 300), pgLike('y', 11_500, 300), pgLike('z', 13_200, 300)]);
  run.plan.minEffect = { share: 0.2 };
  const judgement = judgeRun(run);
  assert.equal(
    judgement.rankings[0]!.sentence,
    'New connection here: x and y tied fastest (10.0, 11.5 ms); z behind (13.2 ms).',
  );
});

test('a target whose every sample failed is named as failed, never as tied', () => {
  const run = projectedRun([pgLike('pg', 2_000, 300), pgLike('lite', 1_000, 100)]);
  for (const m of run.measurements.filter((x) => x.target === 'lite')) {
    m.stats = { ...m.stats, count: 0, errors: 5 };
    m.samples.values = m.samples.values.map((v) => ({ atUs: v.atUs, error: 'query' as const }));
    m.firstErrors = [{ class: 'query', message: 'no such function: now', hint: 'check the query' }];
  }
  const { notes } = judgeRun(run);
  assert.ok(
    notes.includes('lite (initial) is not ranked: every sample failed (query: no such function: now).'),
    notes.join('\n'),
  );
  assert.ok(!notes.some((n) => n.includes('lite') && n.includes('tied')), notes.join('\n'));
});

test('the only target: no ranking, but its own figures where the ranking would be, and at the app RTT', () => {
  const run = projectedRun([pgLike('pg', 2_000, 300)]);
  const here = judgeRun(run);
  assert.deepEqual(here.rankings, []);
  // 41 samples: no p99 in the sentence.
  assert.deepEqual(here.lines, ['pg here: new connection p50 2.0 ms; warm query p50 0.30 ms.']);
  assert.deepEqual(
    here.alone.map((a) => a.target),
    ['pg'],
  );
  assert.ok(here.notes.includes('pg is the only target running SELECT 1: nothing to rank it against.'));
  // 5 turns a connect, 1 a query, from a floor of 0.1 ms: 2.0 + 5 x 19.9 = 101.5 and 0.3 + 19.9 ms.
  assert.deepEqual(judgeRun(run, { appRttMs: 20 }).lines, [
    'pg here: new connection p50 2.0 ms; warm query p50 0.30 ms; at 20 ms RTT (projected): new connection p50 102 ms; warm query p50 20.2 ms.',
  ]);
});

test('a target alone in its workload is stated beside the others’ ranking; one whose samples all failed is not', () => {
  const run = projectedRun([
    pgLike('pg', 2_000, 300),
    pgLike('mysql', 9_000, 3_000),
    pgLike('redis', 500, 100),
  ]);
  run.targets.find((t) => t.name === 'redis')!.query = 'PING';
  const judgement = judgeRun(run);
  assert.deepEqual(
    judgement.alone.map((a) => a.sentence),
    ['redis here (PING): new connection p50 0.50 ms; warm query p50 0.10 ms.'],
  );
  assert.equal(judgement.lines.indexOf(judgement.alone[0]!.sentence), judgement.rankings.length);
  for (const m of run.measurements.filter((x) => x.target === 'redis')) m.stats = { ...m.stats, count: 0 };
  assert.deepEqual(judgeRun(run).alone, []);
});

test('the only target with too few samples to compare gets no "not compared" note: nothing was to be', () => {
  const five = (us: number) => [us, us * 0.9, us * 1.1, us * 0.95, us * 1.05];
  const run = projectedRun([
    {
      name: 'pg',
      tcpUs: 100,
      initial: { samplesUs: five(2_000), wire: counted(4, 1) },
      subsequent: { samplesUs: five(300), wire: counted(1, 0) },
    },
  ]);
  const judgement = judgeRun(run);
  assert.equal(judgement.alone.length, 1);
  assert.deepEqual(
    judgement.notes.filter((n) => n.includes('not compared')),
    [],
  );
});

test('the app location first: its rankings before here; with none, the crossover that flips the ranking', () => {
  const run = projectedRun([pgLike('pg', 2_000, 300), edgeLike('edge', 6_000, 300)]);
  const unset = judgeRun(run);
  // local parts: pg 2000 - 5 x 100 = 1500, edge 6000 - 2 x 100 = 5800: they cross at 4300 / 3 µs.
  assert.equal(
    unset.lines[0],
    'New connection: pg fastest here (2.0 ms); edge from 1.4 ms RTT on: set where your app runs.',
  );
  // A request of 5 flips too (its RTT by the ranking's rule at the app): said after, in question order.
  assert.deepEqual(unset.crossovers, [
    unset.lines[0],
    'Request of 5 queries: pg fastest here (3.2 ms); edge from 1.6 ms RTT on: set where your app runs.',
  ]);
  assert.equal(unset.lines[2], 'New connection here: pg fastest (2.0 ms); edge behind (6.0 ms).');
  const at30 = judgeRun(run, { appRttMs: 30 });
  assert.deepEqual(at30.crossovers, [], 'with an app location the ranking there is the answer');
  const app = at30.rankings.filter((r) => r.at === 'app').map((r) => r.sentence);
  const here = at30.rankings.filter((r) => r.at === 'here').map((r) => r.sentence);
  assert.deepEqual(at30.lines, [...app, ...here]);
  assert.match(at30.lines[0]!, /^New connection at 30 ms RTT \(projected\): edge fastest/);
  // appRttMs 0: the app runs here, so here is the answer and nothing asks where it runs.
  const here0 = judgeRun(run, judgeOptionsOf({ appHere: true }));
  assert.deepEqual(here0.crossovers, []);
  assert.equal(here0.lines[0], 'New connection here: pg fastest (2.0 ms); edge behind (6.0 ms).');
  assert.deepEqual(judgeOptionsOf({ appRttMs: 30, appHere: true }), { appRttMs: 30 });
});

test("the first line in one line puts the winner first, in the line's own words and figures", () => {
  const run = projectedRun([pgLike('pg', 2_000, 300), edgeLike('edge', 6_000, 300)]);
  const at30 = judgeRun(run, { appRttMs: 30 });
  const first = at30.rankings.find((r) => r.at === 'app' && r.question === 'new connection')!;
  const winner = first.groups[0]![0]!;
  assert.equal(at30.lines[0], first.sentence);
  assert.equal(at30.short, first.short);
  assert.equal(
    at30.short,
    `${winner.target} fastest at 30 ms RTT (new connection, ${shortMs(winner.p50Us)} ms)`,
  );
  // Its figure is the one the full line gives the winner.
  assert.ok(at30.lines[0]!.includes(`${winner.target} fastest (${shortMs(winner.p50Us)} ms)`));
  // With no app location the crossover leads: the fastest here, then who takes over from which RTT.
  assert.equal(judgeRun(run).short, 'pg fastest here (new connection, 2.0 ms); edge from 1.4 ms RTT on');
  assert.equal(
    judgeRun(run, judgeOptionsOf({ appHere: true })).short,
    'pg fastest here (new connection, 2.0 ms)',
  );
  // No difference established: the targets tied, no winner named.
  const tied = judgeRun(projectedRun([pgLike('a', 2_000, 300), pgLike('b', 2_000, 300)]), { appHere: true });
  assert.equal(tied.rankings[0]!.groups.length, 1, tied.lines.join(' | '));
  assert.equal(tied.short, 'a and b tied here (new connection)');
  // A target alone: its own line's first clause.
  const alone = judgeRun(projectedRun([pgLike('pg', 2_000, 300)]));
  assert.equal(alone.short, alone.lines[0]!.split('; ')[0]!.replace(/\.$/, ''));
});

test('no crossover line where no overtake takes the lead from the fastest here', () => {
  // The same round trips: the gap is local work, the same at every RTT.
  const judgement = judgeRun(projectedRun([pgLike('slow', 10_000, 3_000), pgLike('fast', 2_000, 300)]));
  assert.deepEqual(judgement.crossovers, []);
  assert.match(judgement.lines[0]!, /^New connection here: fast fastest/);
});

test('with no app location, a request of k whose answer flips with the distance leads with its crossover', () => {
  // edge is fastest for a new connection at every RTT (fewer turns and less work), pg for a warm query
  // (the same one turn, less work): neither kind flips, but a request of 5 does. Its local parts: pg
  // 2500 + 4 x 200 = 3300 µs over 9 turns, edge 1800 + 4 x 1400 = 7400 µs over 6: pg wins here.
  const run = projectedRun([pgLike('pg', 3_000, 300), edgeLike('edge', 2_000, 1_500)]);
  const unset = judgeRun(run);
  assert.equal(unset.crossovers.length, 1, unset.lines.join(' | '));
  const line = unset.lines[0]!;
  const rtt =
    /^Request of 5 queries: pg fastest here \(4\.2 ms\); edge from ([\d.]+) ms RTT on: set where your app runs\.$/.exec(
      line,
    );
  assert.ok(rtt, line);
  // The RTT named is the one from which the ranking at the app names edge ahead: never contradicted.
  const fromMs = Number(rtt[1]);
  const requestAt = (appRttMs: number) =>
    judgeRun(run, { appRttMs })
      .rankings.find((r) => r.question === 'request' && r.at === 'app')!
      .groups.map((g) => g.map((e) => e.target));
  assert.deepEqual(requestAt(fromMs * 1.1), [['edge'], ['pg']]);
  assert.notDeepEqual(requestAt(fromMs * 0.8)[0], ['edge']);
  // The app's location known, the ranking there is the answer; here, nothing asks where it runs.
  assert.deepEqual(judgeRun(run, { appRttMs: 30 }).crossovers, []);
  assert.deepEqual(judgeRun(run, judgeOptionsOf({ appHere: true })).crossovers, []);
});

/**
 * The heartbeat's beats through the real engine and an in-memory driver: each beat is its own
 * `subsequent` run (one connection, one warm-up query, the measured one, the connection closed), a
 * failure is the run's own words, and stopping cancels the beat under way without reporting it.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  heartbeatPlan,
  runHeartbeat,
  type HeartbeatBeat,
} from '../../src/extension/heartbeat/heartbeatBeats';
import { localPlace } from '../../src/places/localPlace';
import type { PlanSpec, TargetSpec } from '../../src/shared/plan';
import { Redactor } from '../../src/shared/redact';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry, type FakeBehaviour } from '../helpers/fakes';

const SECRET = 'fake://user:heartbeat-secret-77@host/db';
const TARGET: TargetSpec = { name: 'fake-db', driver: 'fake', connection: 'env:FAKE_URL' };

function setUp(behaviour: FakeBehaviour, settings: Record<string, unknown> = {}) {
  const stats = new FakeDriverStats();
  const registry = fakeRegistry([fakeDriver('fake', new FakeClock(), behaviour, stats)]);
  const built = heartbeatPlan(TARGET, settings, undefined, registry.ids());
  assert.ok(built.ok, built.ok ? '' : built.problem);
  return { stats, plan: built.plan, place: localPlace({ registry, description: 'test' }) };
}

function beat(
  setup: ReturnType<typeof setUp>,
  options: { maxBeats?: number; signal?: AbortSignal; onBeat?: (beat: HeartbeatBeat) => void },
): { beats: HeartbeatBeat[]; done: Promise<number> } {
  const beats: HeartbeatBeat[] = [];
  const done = runHeartbeat({
    place: setup.place,
    plan: setup.plan,
    everyMs: 10,
    signal: options.signal ?? new AbortController().signal,
    ...(options.maxBeats !== undefined ? { maxBeats: options.maxBeats } : {}),
    resolveConnection: async () => SECRET,
    redactor: new Redactor(),
    onBeat: (b) => {
      beats.push(b);
      options.onBeat?.(b);
    },
  });
  return { beats, done };
}

describe('heartbeat beats', () => {
  test('the plan: the target as given, subsequent, one warm-up and one measured sample', () => {
    const target: TargetSpec = {
      ...TARGET,
      tls: { caFile: '/ca.pem' },
      http: { version: '2' },
      options: { a: 1 },
    };
    const built = heartbeatPlan(target, { iterations: 50, timeouts: { connectMs: 1234 } }, { warmup: 9 }, [
      'fake',
    ]);
    assert.ok(built.ok);
    const plan: PlanSpec = built.plan;
    assert.deepEqual(plan.targets, [target]);
    assert.deepEqual(plan.kinds, ['subsequent']);
    assert.deepEqual([plan.iterations, plan.warmup, plan.sampleCap], [1, 1, 1]);
    assert.equal(plan.timeouts.connectMs, 1234, 'the timeouts come from the settings, validated');
    assert.equal(plan.timeouts.queryMs, 10_000, "and the engine's default fills what is not set");
    const refused = heartbeatPlan(target, { timeouts: { connectMs: -1 } }, undefined, ['fake']);
    assert.equal(refused.ok, false, 'a setting the engine refuses is refused here too');
  });

  test('each beat connects, warms up, measures one query and closes its connection', async () => {
    const setup = setUp({});
    const { beats, done } = beat(setup, { maxBeats: 3 });
    assert.equal(await done, 3);
    assert.equal(beats.length, 3);
    assert.ok(beats.every((b) => b.problem === undefined && typeof b.us === 'number' && b.us >= 0));
    assert.deepEqual(
      [setup.stats.connects, setup.stats.queries, setup.stats.open],
      [3, 6, 0],
      'one connection and two queries per beat, none left open',
    );
  });

  test("a failed beat carries the engine's failure, redacted, and the next beat connects again", async () => {
    const setup = setUp({
      connectError: (call) => (call < 2 ? new Error(`refused by ${SECRET}`) : undefined),
    });
    const { beats, done } = beat(setup, { maxBeats: 2 });
    await done;
    assert.equal(beats[0]?.us, undefined);
    assert.match(beats[0]?.problem ?? '', /refused by/);
    assert.ok(!JSON.stringify(beats).includes('heartbeat-secret-77'), JSON.stringify(beats));
    assert.equal(typeof beats[1]?.us, 'number', JSON.stringify(beats[1]));
  });

  test('stopping cancels the beat under way: the loop ends, nothing is reported, nothing is left open', async () => {
    const setup = setUp({ hangQuery: true }, { timeouts: { queryMs: 60_000 } });
    const stop = new AbortController();
    const { beats, done } = beat(setup, { signal: stop.signal });
    const deadline = Date.now() + 5_000;
    while (setup.stats.queries === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 5));
    assert.equal(setup.stats.queries, 1, 'the warm-up query is under way');
    stop.abort();
    assert.equal(await done, 1);
    assert.deepEqual(beats, []);
    assert.equal(setup.stats.open, 0);
  });
});

test('a place that throws is a failed beat, and the beats go on', async () => {
  const setup = setUp({});
  let calls = 0;
  const place = {
    ...setup.place,
    run: (run: Parameters<typeof setup.place.run>[0]) => {
      calls += 1;
      if (calls === 1) return Promise.reject(new Error('the engine broke'));
      return setup.place.run(run);
    },
  };
  const { beats, done } = beat({ ...setup, place }, { maxBeats: 2 });
  assert.equal(await done, 2);
  assert.deepEqual(beats[0] && [beats[0].us, beats[0].problem], [undefined, 'the engine broke']);
  assert.equal(typeof beats[1]?.us, 'number');
});

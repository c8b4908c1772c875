/**
 * The panel that opens as a run starts: its progress view model (pure), the typed messages both ways
 * (guards), and the LivePanel's throttling, Cancel and hand-over of the webview to the result, with a
 * stand-in for the VS Code webview panel (LivePanel only uses its types).
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Log } from '../../src/extension/log';
import { LatencyRecorder } from '../../src/core/stats';
import { LiveProgress } from '../../src/extension/model/liveProgress';
import { FIRST_FIGURE_PATTERN, LivePanel } from '../../src/extension/panel/livePanel';
import type { ProbeEvent } from '../../src/shared/events';
import type { ProbeKind } from '../../src/shared/plan';
import { isHostMessage, isWebviewMessage, PROGRESS_EVERY_MS } from '../../src/shared/messages';
import { Redactor } from '../../src/shared/redact';
import type { ProgressViewModel } from '../../src/shared/viewModel';
import { TEST_HEADER } from '../helpers/events';

const SECRET = 'hunter2-sentinel';
const RUN_ID = '11111111-2222-4333-8444-555555555555';

function start(targets: string[], kinds: ProbeKind[], total: number): ProbeEvent {
  return {
    type: 'start',
    runId: 'r',
    targets,
    kinds,
    totalSamples: total,
    header: { ...TEST_HEADER, plan: { ...TEST_HEADER.plan, kinds, iterations: 3, warmup: 1 } },
  };
}

function sample(target: string, kind: ProbeKind, error = false): ProbeEvent {
  return error
    ? { type: 'sample', target, kind, phase: 'measure', index: 0, atUs: 0, error: 'timeout' }
    : { type: 'sample', target, kind, phase: 'measure', index: 0, atUs: 0, us: 100 };
}

test('progress counts samples, errors and asks per target and kind, with the elapsed time', () => {
  const live = new LiveProgress(['this machine'], 'pg, redis', 1000);
  assert.equal(live.view(1000).places[0]?.state, 'waiting');
  assert.equal(live.handle(0, start(['pg', 'redis'], ['initial', 'subsequent'], 16)), true);
  live.handle(0, sample('pg', 'initial'));
  live.handle(0, sample('pg', 'initial', true));
  live.handle(0, sample('redis', 'subsequent'));
  const view = live.view(3500);
  assert.equal(view.elapsedMs, 2500);
  assert.equal(view.state, 'running');
  assert.equal(view.title, 'pg, redis');
  assert.deepEqual(view.places[0]?.rows, [
    { target: 'pg', kind: 'initial', done: 2, asked: 4, errors: 1, p50Us: 100 },
    { target: 'pg', kind: 'subsequent', done: 0, asked: 4, errors: 0 },
    { target: 'redis', kind: 'initial', done: 0, asked: 4, errors: 0 },
    { target: 'redis', kind: 'subsequent', done: 1, asked: 4, errors: 0, p50Us: 100 },
  ]);
  // 2/4 + 0 + 0 + 1/4 of four rows.
  assert.equal(view.percent, 18.8);
  assert.equal(isHostMessage({ type: 'progress', model: view }), true, 'the view passes the guard');
});

test('each row’s running p50 is the p50 the run’s statistics give for the samples measured so far', () => {
  const live = new LiveProgress(['this machine'], 'pg', 0);
  live.handle(0, start(['pg'], ['subsequent'], 200));
  const measured: number[] = [];
  // Warm-up samples are left out, as the statistics leave them out.
  live.handle(0, {
    type: 'sample',
    target: 'pg',
    kind: 'subsequent',
    phase: 'warmup',
    index: 0,
    atUs: 0,
    us: 1,
  });
  for (let i = 0; i < 101; i++) {
    const us = 150 + ((i * 37) % 101) * 3.3;
    measured.push(us);
    live.handle(0, {
      type: 'sample',
      target: 'pg',
      kind: 'subsequent',
      phase: 'measure',
      index: i,
      atUs: i,
      us,
    });
    if (i === 0)
      assert.equal(live.view(0).places[0]?.rows[0]?.p50Us, Math.round(us), 'from the first sample on');
  }
  const stats = new LatencyRecorder();
  for (const us of measured) stats.record(us);
  assert.equal(live.view(0).places[0]?.rows[0]?.p50Us, stats.summary().p50Us);
});

test('a load row shows each level’s figures as the level finishes', () => {
  const live = new LiveProgress(['this machine'], 'pg', 0);
  live.handle(0, start(['pg'], ['load'], 0));
  const level = (index: number, levelValue: number, final: boolean): ProbeEvent => ({
    type: 'progress',
    target: 'pg',
    kind: 'load',
    level: levelValue,
    levelIndex: index,
    levels: 3,
    elapsedMs: final ? 1000 : 500,
    durationMs: 1000,
    completed: 600 * (index + 1),
    errors: index,
    achievedRate: 600 * (index + 1),
    late: 0,
    dropped: 0,
    ...(final ? { final: true as const } : {}),
  });
  live.handle(0, level(0, 2, false));
  assert.equal(live.view(0).places[0]?.rows[0]?.levels, undefined, 'a level under way has no figures yet');
  live.handle(0, level(0, 2, true));
  live.handle(0, level(1, 4, true));
  live.handle(0, level(2, 8, false));
  const row = live.view(0).places[0]?.rows[0];
  assert.deepEqual(
    row?.levels?.map((l) => [l.level, l.achievedRate, l.errors]),
    [
      [2, 600, 0],
      [4, 1200, 1],
    ],
  );
  assert.equal(isHostMessage({ type: 'progress', model: live.view(0) }), true, 'the view passes the guard');
});

test('a row that finishes counts whole; a settled place is 100%; Cancel shows as cancelling', () => {
  const live = new LiveProgress(['this machine'], 'pg', 0);
  live.handle(0, start(['pg'], ['initial', 'subsequent'], 8));
  live.handle(0, {
    type: 'targetDone',
    target: 'pg',
    kind: 'initial',
    failed: false,
    stats: {} as never,
  });
  assert.equal(live.view(0).percent, 50);
  live.cancel();
  assert.equal(live.view(0).state, 'cancelling');
  live.settle(0, 'done');
  assert.equal(live.view(0).percent, 100);
  assert.equal(live.view(0).places[0]?.state, 'done');
});

test('names and counts only: a failure message or a cold command never reaches the view', () => {
  const live = new LiveProgress(['this machine'], 'pg', 0);
  live.handle(0, start(['pg'], ['cold'], 5));
  assert.equal(live.view(0).places[0]?.rows[0]?.asked, 5, 'cold asks what the total leaves');
  live.handle(0, {
    type: 'wait',
    target: 'pg',
    kind: 'cold',
    step: 'command',
    message: `running psql postgres://u:${SECRET}@h/db`,
    waitedMs: 4200,
    totalMs: 10_000,
  });
  assert.equal(live.view(0).places[0]?.rows[0]?.note, 'cold: running the cold command (4 s of 10 s)');
  live.handle(0, {
    type: 'error',
    target: 'pg',
    kind: 'cold',
    failure: { class: 'auth', message: `password ${SECRET} refused`, hint: 'h' },
  });
  const view = live.view(0);
  assert.equal(view.places[0]?.rows[0]?.note, 'could not start (auth)');
  assert.equal(view.places[0]?.rows[0]?.errors, 1);
  assert.ok(!JSON.stringify(view).includes(SECRET));
});

test('several places: each its own rows and state, the whole run their average', () => {
  const live = new LiveProgress(['this machine', 'runner eu'], 'pg', 0);
  live.handle(0, start(['pg'], ['initial'], 4));
  live.handle(1, {
    type: 'progress',
    target: 'pg',
    kind: 'load',
    level: 4,
    levelIndex: 1,
    levels: 2,
    elapsedMs: 500,
    durationMs: 1000,
    completed: 120,
    errors: 2,
    achievedRate: 240,
    late: 0,
    dropped: 0,
  });
  live.settle(0, 'failed');
  const view = live.view(0);
  assert.deepEqual(
    view.places.map((p) => [p.label, p.state, p.percent]),
    [
      ['this machine', 'failed', 100],
      ['runner eu', 'running', 75],
    ],
  );
  assert.deepEqual(view.places[1]?.rows[0], {
    target: 'pg',
    kind: 'load',
    done: 120,
    asked: 0,
    errors: 2,
    note: 'level 2/2',
  });
  assert.equal(view.percent, 87.5);
  assert.equal(live.handle(5, sample('pg', 'initial')), false, 'an unknown place changes nothing');
});

test('guards: progress and cancel are typed both ways, malformed ones refused', () => {
  assert.equal(isWebviewMessage({ type: 'cancel' }), true);
  const live = new LiveProgress(['this machine'], 'pg', 0);
  live.handle(0, start(['pg'], ['initial'], 4));
  const model = live.view(10);
  assert.equal(isHostMessage({ type: 'progress', model }), true);
  assert.equal(isHostMessage({ type: 'progress', model, restoreAs: { view: 'run', runId: RUN_ID } }), true);
  assert.equal(
    isHostMessage({ type: 'progress', model, restoreAs: { view: 'group', groupId: RUN_ID } }),
    true,
  );
  const place = model.places[0];
  assert.ok(place);
  const row = place.rows[0];
  assert.ok(row);
  for (const bad of [
    { type: 'progress' },
    { type: 'progress', model: { ...model, elapsedMs: -1 } },
    { type: 'progress', model: { ...model, percent: Number.NaN } },
    { type: 'progress', model: { ...model, state: 'exploded' } },
    { type: 'progress', model: { ...model, places: 'x' } },
    { type: 'progress', model: { ...model, places: [{ ...place, state: 'lost' }] } },
    { type: 'progress', model: { ...model, places: [{ ...place, rows: [{ ...row, done: '3' }] }] } },
    {
      type: 'progress',
      model: { ...model, places: [{ ...place, rows: [{ ...row, note: { x: SECRET } }] }] },
    },
    // The run a reload restores to: a run or group by id, nothing else.
    { type: 'progress', model, restoreAs: { view: 'run', runId: '../../etc/passwd' } },
    { type: 'progress', model, restoreAs: { view: 'compare', runIds: [RUN_ID, RUN_ID] } },
    { type: 'progress', model, restoreAs: { view: 'run', runId: RUN_ID, running: true } },
    { type: 'progress', model, restoreAs: 'run' },
  ]) {
    assert.equal(isHostMessage(bad), false, JSON.stringify(bad));
  }
});

/** A stand-in for the webview panel: records posts, lets the test send webview messages. */
function fakePanel() {
  const posted: unknown[] = [];
  let receive: (message: unknown) => void = () => undefined;
  let disposed: () => void = () => undefined;
  const panel = {
    webview: {
      postMessage: (message: unknown) => {
        posted.push(message);
        return Promise.resolve(true);
      },
      onDidReceiveMessage: (listener: (message: unknown) => void) => {
        receive = listener;
        return { dispose: () => (receive = () => undefined) };
      },
    },
    onDidDispose: (listener: () => void) => {
      disposed = listener;
      return { dispose: () => undefined };
    },
  } as unknown as ConstructorParameters<typeof LivePanel>[0];
  return { panel, posted, send: (m: unknown) => receive(m), close: () => disposed() };
}

const quietLog = { warn: () => undefined, error: () => undefined, info: () => undefined } as unknown as Log;
const settle = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function model(title: string, elapsedMs: number): ProgressViewModel {
  return { title, elapsedMs, percent: 0, state: 'running', places: [] };
}

test('LivePanel: waits for ready, throttles progress (the last one arrives), redacts every post', async () => {
  const fake = fakePanel();
  const redactor = new Redactor();
  redactor.addSecret(SECRET);
  const live = new LivePanel(
    fake.panel,
    Promise.resolve(redactor),
    quietLog,
    () => undefined,
    () => undefined,
  );
  live.progress(() => model(`pg ${SECRET}`, 1));
  await settle(0);
  assert.equal(fake.posted.length, 0, 'nothing is posted before the webview is ready');
  fake.send({ type: 'ready' });
  let built = 0;
  for (let i = 2; i <= 50; i++)
    live.progress(() => {
      built += 1;
      return model(`pg ${SECRET}`, i);
    });
  await settle(0);
  assert.equal(fake.posted.length, 1, 'one post at once, the rest held back');
  await settle(PROGRESS_EVERY_MS * 3);
  assert.equal(fake.posted.length, 2, 'one more when the interval has passed');
  const last = fake.posted[1] as { type: string; model: ProgressViewModel };
  assert.equal(last.type, 'progress');
  assert.equal(last.model.elapsedMs, 50, 'the latest progress, not a stale one');
  assert.equal(built, 1, 'only the posted progress was built, not one per event');
  assert.ok(!JSON.stringify(fake.posted).includes(SECRET), 'redacted');
});

test('LivePanel: the webview Cancel cancels; the result takes the panel, or a closed panel says no', async () => {
  const fake = fakePanel();
  let cancels = 0;
  const adopted: unknown[] = [];
  const live = new LivePanel(
    fake.panel,
    Promise.resolve(new Redactor()),
    quietLog,
    () => (cancels += 1),
    (state, _at, ready) => adopted.push({ state, ready }),
  );
  fake.send({ type: 'cancel', extra: SECRET });
  fake.send({ type: 'cancel' });
  fake.send({ type: 'nope' });
  assert.equal(cancels, 2, 'typed cancel messages cancel; unknown ones are ignored');
  fake.send({ type: 'ready' });
  assert.equal(live.showRun('11111111-2222-4333-8444-555555555555'), true);
  assert.deepEqual(adopted, [
    { state: { view: 'run', runId: '11111111-2222-4333-8444-555555555555' }, ready: true },
  ]);
  fake.send({ type: 'cancel' });
  assert.equal(cancels, 2, 'after the hand-over the live panel listens no more');

  const closed = fakePanel();
  const gone = new LivePanel(
    closed.panel,
    Promise.resolve(new Redactor()),
    quietLog,
    () => undefined,
    () => {
      throw new Error('a closed panel is not handed over');
    },
  );
  closed.close();
  assert.equal(gone.showGroup('11111111-2222-4333-8444-555555555555'), false);
});

test('LivePanel: once the run is identified, every progress post names it for a reload', async () => {
  const fake = fakePanel();
  const live = new LivePanel(
    fake.panel,
    Promise.resolve(new Redactor()),
    quietLog,
    () => undefined,
    () => undefined,
  );
  fake.send({ type: 'ready' });
  live.progress(() => model('pg', 1));
  await settle(0);
  live.identify({ view: 'run', runId: RUN_ID });
  await settle(PROGRESS_EVERY_MS + 20);
  live.progress(() => model('pg', 2));
  await settle(0);
  const posts = fake.posted as { type: string; restoreAs?: unknown }[];
  assert.equal(posts.length, 2);
  assert.equal(posts[0]?.restoreAs, undefined, 'not before the id is known');
  assert.deepEqual(posts[1]?.restoreAs, { view: 'run', runId: RUN_ID });
  assert.equal(isHostMessage(posts[1]), true, 'the post passes the webview guard');
});

test('LivePanel: the run waits for the webview (bounded); the first figure is timed from the first sample', async () => {
  const fake = fakePanel();
  const lines: string[] = [];
  const log = { ...quietLog, info: (line: string) => lines.push(line) } as unknown as Log;
  const live = new LivePanel(
    fake.panel,
    Promise.resolve(new Redactor()),
    log,
    () => undefined,
    () => undefined,
  );
  let started = false;
  const waiting = live.whenReady(60_000).then(() => (started = true));
  await settle(5);
  assert.equal(started, false, 'the run does not start before the webview can show it');
  fake.send({ type: 'ready' });
  await waiting;
  assert.equal(started, true, 'ready: the run starts');
  // Bounded: a webview that never loads holds the run only as long as asked.
  const never = new LivePanel(
    fakePanel().panel,
    Promise.resolve(new Redactor()),
    quietLog,
    () => undefined,
    () => undefined,
  );
  const t0 = Date.now();
  await never.whenReady(20);
  assert.ok(Date.now() - t0 < 5_000);
  // No first sample yet: a painted report says nothing; after one, one line, once.
  fake.send({ type: 'progressPainted' });
  assert.equal(lines.filter((l) => FIRST_FIGURE_PATTERN.test(l)).length, 0);
  live.sampled();
  fake.send({ type: 'progressPainted' });
  fake.send({ type: 'progressPainted' });
  assert.equal(lines.filter((l) => FIRST_FIGURE_PATTERN.test(l)).length, 1);
});

test('a kind whose default count shortened to fit the run asks that count, warm-up included', () => {
  const live = new LiveProgress(['this machine'], 'pg', 0);
  live.handle(0, start(['pg'], ['subsequent'], 4));
  live.handle(0, sample('pg', 'subsequent'));
  live.handle(0, sample('pg', 'subsequent'));
  assert.equal(live.view(10).places[0]?.rows[0]?.asked, 4, 'the plan: 3 samples after 1 warm-up');
  // As soon as a sample says the count shortened, the row counts against it, before the kind ends.
  live.handle(0, { ...sample('pg', 'subsequent'), shortenedTo: 2 } as ProbeEvent);
  const early = live.view(15).places[0]?.rows[0];
  assert.deepEqual([early?.done, early?.asked], [3, 3]);
  live.handle(0, {
    type: 'targetDone',
    target: 'pg',
    kind: 'subsequent',
    stats: new LatencyRecorder().summary(),
    failed: false,
    shortenedTo: 2,
  });
  const row = live.view(20).places[0]?.rows[0];
  assert.deepEqual([row?.done, row?.asked], [3, 3], 'done of asked: the shortened count and its warm-up');
});

/**
 * A runner as a place, as the extension makes it (a name, and a title that names it in messages) and
 * as the CLI makes it (its URL only), and runEverywhere over several places.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { probeAndReport } from '../../src/cli/probe';
import type { PlaceOutcome } from '../../src/places/outcome';
import type { Place } from '../../src/places/place';
import { runEverywhere } from '../../src/places/runEverywhere';
import { runnerPlace } from '../../src/places/runnerPlace';
import { Redactor } from '../../src/shared/redact';
import type { RunResult } from '../../src/shared/result';
import { RUNNER_ROUTES } from '../../src/shared/runnerApi';
import { recordingIo } from '../helpers/cliIo';
import {
  deadRunnerUrl,
  FAKE_LOAD_LEVEL,
  FAKE_SAMPLES,
  startFakeRunner,
  type FakeRunner,
} from '../helpers/fakeRunner';
import { plan } from '../helpers/plans';

const TITLE = 'runner "use1" (us-east-1)';
const run = (signal = new AbortController().signal) => ({
  plan: plan([{ name: 'pg', driver: 'pg', connection: 'env:PG' }], {
    timeouts: { connectMs: 50, queryMs: 50, runMs: 10_000 },
  }),
  resolveConnection: async () => '',
  redactor: new Redactor(),
  signal,
});
const extensionPlace = (url: string, silenceGraceMs?: number) =>
  runnerPlace({
    name: 'use1',
    url,
    token: 'tok',
    label: 'us-east-1',
    title: TITLE,
    ...(silenceGraceMs ? { silenceGraceMs } : {}),
  });

function failed(outcome: PlaceOutcome) {
  assert.equal(outcome.ok, false, 'the place failed');
  if (outcome.ok) throw new Error('unreachable');
  return outcome;
}

test('a runner place is labelled as asked, with its name and URL', () => {
  const place = extensionPlace('https://use1.example.com');
  assert.deepEqual(
    [place.id, place.label, place.kind, place.runner, place.description],
    ['runner:use1', 'us-east-1', 'runner', 'use1', 'https://use1.example.com'],
  );
  const cli = runnerPlace({ url: 'https://r.example.com', token: 't', label: 'https://r.example.com' });
  assert.deepEqual([cli.id, cli.runner], ['runner:https://r.example.com', undefined]);
});

test('a runner killed mid-run: the partial result as data, and the title put before the client message', async () => {
  const runner = await startFakeRunner('die');
  try {
    const outcome = failed(await extensionPlace(runner.url).run(run()));
    assert.equal(outcome.failure.class, 'cut');
    assert.match(
      outcome.failure.message,
      /^runner "use1" \(us-east-1\): the connection to runner http:\/\/127\.0\.0\.1:\d+ broke before the run finished \(\w+\)$/,
    );
    // Composed from data, not cut out of a string: the title, then what the client said.
    assert.equal(outcome.failure.message, `${TITLE}: ${outcome.partial?.stopReason}`);
    assert.equal(outcome.partial?.state, 'cancelled');
    assert.equal(outcome.partial?.measurements[0]?.stats.count, FAKE_SAMPLES);
  } finally {
    await runner.close();
  }
});

describe('a runner that hangs', () => {
  let runner: FakeRunner;
  before(async () => (runner = await startFakeRunner('hang')));
  after(() => runner.close());

  test(
    'cancelling a remote run is no runner failure: the result says cancelled',
    { timeout: 10_000 },
    async () => {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const outcome = await extensionPlace(runner.url).run(run(controller.signal));
      assert.equal(outcome.ok, true);
      if (!outcome.ok) return;
      assert.equal(outcome.result.state, 'cancelled');
      assert.equal(outcome.result.stopReason, 'cancelled by the user');
      assert.equal(outcome.result.measurements[0]?.stats.count, FAKE_SAMPLES);
    },
  );

  test(
    'Ctrl-C in the CLI during a remote run: exit 130 and the partial report, as for a local run',
    { timeout: 10_000 },
    async () => {
      const controller = new AbortController();
      const io = recordingIo(controller.signal);
      setTimeout(() => controller.abort(), 200);
      const { plan: p, resolveConnection, redactor } = run();
      const code = await probeAndReport(
        {
          places: [runnerPlace({ url: runner.url, token: 'tok', label: runner.url })],
          plan: p,
          resolveConnection,
          redactor,
          format: 'markdown',
          quiet: true,
        },
        io,
      );
      assert.equal(code, 130);
      assert.equal(
        io.err(),
        'dbprobe: run cancelled: cancelled by the user; the report holds what was measured so far\n',
      );
      assert.match(io.out(), /\| pg \| pg \| tcp \|/);
    },
  );
});

test('an unreachable runner: no result, an error naming it and saying what to check', async () => {
  const place = runnerPlace({
    name: 'gone',
    url: await deadRunnerUrl(),
    token: 't',
    label: 'eu',
    title: 'runner "gone" (eu)',
  });
  const outcome = failed(await place.run(run()));
  assert.equal(outcome.failure.class, 'unreachable');
  assert.equal(outcome.partial, undefined);
  assert.match(
    outcome.failure.message,
    /^runner "gone" \(eu\): cannot reach runner http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED; check the URL/,
  );
});

test('runEverywhere: a place that throws is an internal failure; the others still answer, in order', async () => {
  const boom = new Error('engine exploded');
  const thrower: Place = {
    id: 'x',
    label: 'broken',
    description: '',
    kind: 'local',
    run: () => Promise.reject(boom),
  };
  const fine: Place = {
    id: 'y',
    label: 'fine',
    description: '',
    kind: 'local',
    run: async (r) => {
      r.onEvent?.({
        type: 'start',
        runId: 'r',
        targets: [],
        kinds: [],
        totalSamples: 0,
        header: undefined as never,
      });
      return { ok: false, failure: { class: 'failed', message: 'it said no' } };
    },
  };
  const settled: number[] = [];
  const events: number[] = [];
  const { plan: p, ...common } = run();
  const outcomes = await runEverywhere(
    [
      { place: thrower, plan: p },
      { place: fine, plan: p },
    ],
    { ...common, onEvent: (index) => events.push(index), onSettled: (index) => settled.push(index) },
  );
  const first = failed(outcomes[0]!);
  assert.equal(first.failure.class, 'internal');
  assert.equal(first.failure.message, 'engine exploded');
  assert.equal(first.failure.cause, boom);
  assert.equal(failed(outcomes[1]!).failure.message, 'it said no');
  assert.deepEqual(events, [1]);
  assert.deepEqual([...settled].sort(), [0, 1]);
});

describe('Ctrl-C during a remote run: the runner is asked to cancel, and its partial result kept', () => {
  let runner: FakeRunner;
  before(async () => (runner = await startFakeRunner('cancellable')));
  after(() => runner.close());

  test(
    "the runner's cancel route is called and the level it measured (no event carries it) is kept",
    { timeout: 10_000 },
    async () => {
      const controller = new AbortController();
      const io = recordingIo(controller.signal);
      setTimeout(() => controller.abort(), 200);
      const { plan: p, resolveConnection, redactor } = run();
      const code = await probeAndReport(
        {
          places: [runnerPlace({ url: runner.url, token: 'tok', label: runner.url })],
          plan: p,
          resolveConnection,
          redactor,
          format: 'json',
          quiet: true,
        },
        io,
      );
      assert.equal(code, 130, io.err());
      assert.deepEqual(runner.cancels(), [RUNNER_ROUTES.cancel('r')], 'one cancel, on the shared route');
      const result = JSON.parse(io.out()) as RunResult;
      const load = result.measurements.find((m) => m.kind === 'load')?.load;
      assert.deepEqual(load?.levels, [FAKE_LOAD_LEVEL], "the runner's level, as it sent it");
    },
  );

  test('a runner that does not take the cancel is hung up on at once, keeping what arrived', async () => {
    const hung = await startFakeRunner('hang');
    try {
      const controller = new AbortController();
      setTimeout(() => controller.abort(), 200);
      const started = performance.now();
      const outcome = await runnerPlace({
        url: hung.url,
        token: 'tok',
        label: hung.url,
        cancelGraceMs: 5_000,
      }).run(run(controller.signal));
      const ms = performance.now() - started;
      assert.equal(hung.cancels().length, 1, 'the cancel was asked for');
      assert.ok(outcome.ok && outcome.result.state === 'cancelled');
      assert.equal(outcome.result.measurements[0]?.stats.count, FAKE_SAMPLES);
      // Its 404 ends the wait: far less than the 5 s grace (200 ms before the cancel, then one request).
      assert.ok(ms < 2_500, `ended ${Math.round(ms)} ms after the start`);
    } finally {
      await hung.close();
    }
  });
});

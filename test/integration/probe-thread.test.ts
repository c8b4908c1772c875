/**
 * The editor's probe thread outside VS Code (src/places/probeThreadPlace.ts + src/probeThread/), against the
 * testbed PostgreSQL: events stream from the thread, the result says where it ran, no secret crosses
 * back; a cancel ends the run within a second; a thread that ignores the cancel is terminated after
 * the grace period with its partial result; a thread that crashes mid-run gives a clear error and the
 * partial result of the samples that arrived.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { ProbeError } from '../../src/core/failure';
import type { PlaceOutcome } from '../../src/places/outcome';
import { probeThreadPlace, type ProbeThreadPlaceOptions } from '../../src/places/probeThreadPlace';
import type { ProbeEvent } from '../../src/shared/events';
import { PLAN_DEFAULTS, type PlanSpec } from '../../src/shared/plan';
import { Redactor } from '../../src/shared/redact';
import type { Measurement } from '../../src/shared/result';
import { sentinelPassword, testbedEnv } from '../helpers/testbed';

const ROOT = path.resolve(__dirname, '..', '..');
// The source entries, started under tsx by a small bootstrap.
const TSX_WORKER = path.join(ROOT, 'test', 'fixtures', 'tsxWorker.mjs');
const ENTRY = path.join(ROOT, 'src', 'probeThread', 'probeThreadEntry.ts');
const HOOKED = path.join(ROOT, 'test', 'fixtures', 'probeThreadHooks.ts');
const LOCATION = { kind: 'local', label: 'this machine (test, probe thread)' } as const;

function plan(iterations: number, extra: Partial<PlanSpec> = {}): PlanSpec {
  return {
    ...PLAN_DEFAULTS,
    targets: [{ name: 'pg', driver: 'pg', connection: 'env:PG' }],
    kinds: ['subsequent'],
    iterations,
    warmup: 0,
    ...extra,
  };
}

interface Ran {
  outcome: PlaceOutcome;
  events: ProbeEvent[];
  /** From the abort to the outcome, when the run was cancelled. */
  cancelMs?: number;
}

interface Hooks {
  exitAfterSamples?: number;
  ignoreCancel?: boolean;
}

async function runThread(
  spec: PlanSpec,
  options: Pick<ProbeThreadPlaceOptions, 'cancelGraceMs'> & {
    hooks?: Hooks;
    cancelAfterSamples?: number;
    /** The listener throws at every event, as the editor's UI does while its window closes. */
    throwingListener?: boolean;
  } = {},
): Promise<Ran> {
  const place = probeThreadPlace({
    threadEntryFile: TSX_WORKER,
    workerData: options.hooks ? { entry: HOOKED, ...options.hooks } : { entry: ENTRY },
    description: 'test',
    location: LOCATION,
    ...(options.cancelGraceMs !== undefined ? { cancelGraceMs: options.cancelGraceMs } : {}),
  });
  const controller = new AbortController();
  const events: ProbeEvent[] = [];
  let samples = 0;
  let abortedAt = 0;
  const outcome = await place.run({
    plan: spec,
    resolveConnection: async (target) => {
      if (target.connection === 'env:PG') return testbedEnv('DBPROBE_TEST_PG_URL');
      throw new ProbeError('config', `no connection for ${target.name}`);
    },
    redactor: new Redactor(),
    signal: controller.signal,
    onEvent: (event) => {
      events.push(event);
      if (event.type === 'sample' && ++samples === options.cancelAfterSamples) {
        abortedAt = performance.now();
        controller.abort();
      }
      if (options.throwingListener) throw new Error('Channel has been closed');
    },
  });
  return { outcome, events, ...(abortedAt > 0 ? { cancelMs: performance.now() - abortedAt } : {}) };
}

test('a plan run in the probe thread streams its events and answers with the result', async () => {
  const { outcome, events } = await runThread(
    plan(100, {
      kinds: ['initial', 'subsequent'],
      targets: [
        { name: 'pg', driver: 'pg', connection: 'env:PG' },
        { name: 'missing', driver: 'pg', connection: 'secret:nowhere' },
      ],
    }),
  );
  assert.ok(outcome.ok, `the run succeeded: ${JSON.stringify(!outcome.ok && outcome.failure)}`);
  const { result } = outcome;
  assert.equal(result.state, 'completed');
  assert.deepEqual(result.environment.location, LOCATION);
  assert.deepEqual([...new Set(events.map((e) => e.type))].sort(), [
    'done',
    'error',
    'sample',
    'start',
    'targetDone',
  ]);
  for (const kind of ['initial', 'subsequent'] as const) {
    const streamed = events.filter((e) => e.type === 'sample' && e.target === 'pg' && e.kind === kind);
    const measured: Measurement | undefined = result.measurements.find(
      (m) => m.target === 'pg' && m.kind === kind,
    );
    assert.equal(streamed.length, 100, `${kind}: every sample streamed`);
    assert.equal(measured?.stats.count, 100, `${kind}: the result counts them`);
  }
  const failed = result.measurements.find((m) => m.target === 'missing');
  assert.match(JSON.stringify(failed), /no connection for missing/, 'a resolver error reaches its target');
  const crossed = JSON.stringify({ events, result });
  assert.ok(!crossed.includes(sentinelPassword()), 'no secret crossed back from the thread');
});

test('a cancel reaches the probe thread and the run ends within a second, cancelled', async () => {
  const { outcome, cancelMs } = await runThread(plan(1_000_000), { cancelAfterSamples: 200 });
  console.log(`cancel to result: ${cancelMs?.toFixed(1)} ms`);
  assert.ok(outcome.ok, 'a cancelled run is no failure of the place');
  assert.equal(outcome.result.state, 'cancelled');
  const count = outcome.result.measurements[0]?.stats.count ?? 0;
  assert.ok(count >= 200 && count < 1_000_000, `the partial result kept its samples (n=${count})`);
  assert.ok(cancelMs !== undefined && cancelMs < 1_000, `ended ${cancelMs?.toFixed(0)} ms after cancel`);
});

test('a listener that throws at every event neither breaks the run nor loses its result', async () => {
  const { outcome, events } = await runThread(plan(1_000_000), {
    cancelAfterSamples: 200,
    throwingListener: true,
  });
  assert.ok(outcome.ok, `the run kept its result: ${JSON.stringify(!outcome.ok && outcome.failure)}`);
  assert.equal(outcome.result.state, 'cancelled');
  const count = outcome.result.measurements[0]?.stats.count ?? 0;
  assert.ok(count >= 200 && count < 1_000_000, `the partial result kept its samples (n=${count})`);
  assert.ok(events.length > 200, 'every event still reached the listener');
});

test('a thread that ignores the cancel is terminated after the grace period, with the partial result', async () => {
  const { outcome, cancelMs } = await runThread(plan(1_000_000), {
    hooks: { ignoreCancel: true },
    cancelAfterSamples: 200,
    cancelGraceMs: 500,
  });
  console.log(`cancel to partial result (thread terminated): ${cancelMs?.toFixed(1)} ms`);
  assert.ok(outcome.ok, 'still a cancelled run, not a failure');
  assert.equal(outcome.result.state, 'cancelled');
  assert.equal(outcome.result.stopReason, 'cancelled by the user');
  const count = outcome.result.measurements[0]?.stats.count ?? 0;
  assert.ok(count >= 200 && count < 1_000_000, `the partial result kept its samples (n=${count})`);
  assert.ok(
    cancelMs !== undefined && cancelMs >= 500 && cancelMs < 1_500,
    `terminated ${cancelMs?.toFixed(0)} ms after cancel`,
  );
});

test('a thread that crashes mid-run gives a clear error and the partial result', async () => {
  const { outcome, events } = await runThread(plan(1_000_000), {
    hooks: { exitAfterSamples: 300 },
  });
  assert.ok(!outcome.ok, 'a crash is a failed outcome');
  assert.equal(outcome.failure.class, 'cut');
  // What happened, what it means, what to do.
  assert.match(outcome.failure.message, /probe thread ended unexpectedly \(exit code 3\)/);
  assert.match(outcome.failure.message, /so the run stopped there/);
  assert.match(outcome.failure.message, /run the probe again, and if it happens again, report it/);
  const streamed = events.filter((e) => e.type === 'sample').length;
  assert.ok(streamed >= 300, `the samples sent before the crash arrived (${streamed})`);
  const partial = outcome.partial;
  assert.ok(partial, 'a partial result');
  assert.equal(partial.measurements[0]?.stats.count, streamed, 'the partial result holds every sample');
  assert.equal(partial.environment.location.label, LOCATION.label);
});

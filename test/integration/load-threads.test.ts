/**
 * A load run spread over two probing threads (src/places/spreadThreadsRun.ts, the probe thread's entry run
 * under tsx), against the testbed PostgreSQL: the merged result counts every query of both threads
 * and its percentiles are those of all the raw samples together (an exact merge, not an average of
 * the threads' figures); progress is summed over the threads; a cancel ends the run within a second.
 */
import assert from 'node:assert/strict';
import * as path from 'node:path';
import { test } from 'node:test';
import { LatencyRecorder } from '../../src/core/stats';
import { ProbeError } from '../../src/core/failure';
import type { PlaceOutcome } from '../../src/places/outcome';
import { runSpreadOverThreads } from '../../src/places/spreadThreadsRun';
import type { ProbeEvent } from '../../src/shared/events';
import { LOAD_DEFAULTS } from '../../src/shared/loadPlan';
import type { FanOutPlaceLevel } from '../../src/shared/loadResult';
import { PLAN_DEFAULTS, type PlanSpec } from '../../src/shared/plan';
import { Redactor } from '../../src/shared/redact';
import { formatMarkdown } from '../../src/report/markdown';
import { testbedEnv } from '../helpers/testbed';

const ROOT = path.resolve(__dirname, '..', '..');
const TSX_WORKER = path.join(ROOT, 'test', 'fixtures', 'tsxWorker.mjs');
const ENTRY = path.join(ROOT, 'src', 'probeThread', 'probeThreadEntry.ts');
const LOCATION = { kind: 'local', label: 'this machine (test)' } as const;

function loadPlan(levels: number[], durationS: number): PlanSpec {
  return {
    ...PLAN_DEFAULTS,
    targets: [{ name: 'pg', driver: 'pg', connection: 'env:PG' }],
    kinds: ['load'],
    // Every query's sample is kept: the merged percentiles are checked against all of them.
    sampleCap: 1_000_000,
    load: { ...LOAD_DEFAULTS, model: 'closed', levels, durationS },
  };
}

async function runTwoThreads(
  plan: PlanSpec,
  cancelWhen?: (event: ProbeEvent) => boolean,
): Promise<{ outcome: PlaceOutcome; events: ProbeEvent[]; cancelMs?: number }> {
  const controller = new AbortController();
  const events: ProbeEvent[] = [];
  let abortedAt = 0;
  const outcome = await runSpreadOverThreads({
    threadEntryFile: TSX_WORKER,
    workerData: { entry: ENTRY },
    threads: 2,
    plan,
    resolveConnection: async (target) => {
      if (target.connection === 'env:PG') return testbedEnv('DBPROBE_TEST_PG_URL');
      throw new ProbeError('config', `no connection for ${target.name}`);
    },
    redactor: new Redactor(),
    location: LOCATION,
    signal: controller.signal,
    onEvent: (event) => {
      events.push(event);
      if (abortedAt === 0 && cancelWhen?.(event)) {
        abortedAt = performance.now();
        controller.abort();
      }
    },
  });
  return { outcome, events, ...(abortedAt > 0 ? { cancelMs: performance.now() - abortedAt } : {}) };
}

test('--threads 2: counts are the sum of both threads and percentiles those of all raw samples', async () => {
  const { outcome, events } = await runTwoThreads(loadPlan([2, 4], 0.6));
  assert.ok(outcome.ok, `the run succeeded: ${JSON.stringify(!outcome.ok && outcome.failure)}`);
  const { result } = outcome;
  assert.equal(result.state, 'completed');
  assert.equal(result.plan.threads, 2);
  assert.equal(result.environment.location.label, 'this machine (test) (2 probing threads)');
  const m = result.measurements[0];
  const load = m?.load;
  assert.ok(m && load?.fanOut, 'the merged load figures keep each thread beside them');
  assert.deepEqual(
    load.fanOut.places.map((p) => p.label),
    ['thread 1', 'thread 2'],
  );
  // The Markdown tells one place's threads as threads: not as a fan-out over places (runners).
  const markdown = formatMarkdown(result);
  assert.match(markdown, /Spread over 2 probing threads/);
  assert.match(markdown, /\| Thread \| level \|/);
  assert.doesNotMatch(markdown, /Fanned out over|over 2 places/);
  for (const [i, level] of load.levels.entries()) {
    const shares: (FanOutPlaceLevel | undefined)[] = load.fanOut.places.map((p) => p.levels[i]);
    assert.deepEqual(
      shares.map((s) => s?.share),
      [level.level / 2, level.level / 2],
      'each thread ran its share of the connections',
    );
    for (const s of shares) assert.ok((s?.count ?? 0) > 0, `every thread answered queries at ${level.level}`);
    assert.equal(
      level.stats.count,
      shares.reduce((sum, s) => sum + (s?.count ?? 0), 0),
      `level ${level.level}: the merged count is the sum of the threads'`,
    );
  }
  assert.equal(
    m.stats.count,
    load.levels.reduce((sum, l) => sum + l.stats.count, 0),
    'the measurement counts every level of every thread',
  );
  // Every query of both threads is a kept sample: its percentiles from one histogram of them all.
  const raw = new LatencyRecorder();
  for (const sample of m.samples.values) if (sample.us !== undefined) raw.record(sample.us);
  assert.equal(m.samples.dropped, 0);
  const all = raw.summary();
  assert.equal(all.count, m.stats.count, 'one kept sample per query counted');
  for (const stat of ['minUs', 'p50Us', 'p90Us', 'p99Us', 'maxUs'] as const)
    assert.equal(m.stats[stat], all[stat], `${stat}: merged ${m.stats[stat]}, from all samples ${all[stat]}`);
  // Progress is one stream: summed over the threads, and one final event per level.
  const finals = events.filter((e) => e.type === 'progress' && e.final);
  assert.deepEqual(
    finals.map((e) => e.type === 'progress' && e.level),
    [2, 4],
    'one final progress event per level, naming the whole level',
  );
  for (const [i, final] of finals.entries())
    assert.equal(final.type === 'progress' && final.completed, load.levels[i]?.stats.count);
  assert.equal(events.filter((e) => e.type === 'start').length, 1);
  assert.equal(events.filter((e) => e.type === 'done').length, 1);
});

test('--threads 2: a cancel ends both threads within a second, with what they measured', async () => {
  const { outcome, cancelMs } = await runTwoThreads(
    loadPlan([4], 60),
    (event) => event.type === 'progress' && event.completed > 0,
  );
  console.log(`cancel to result: ${cancelMs?.toFixed(1)} ms`);
  assert.ok(outcome.ok, `a cancelled run is no failure: ${JSON.stringify(!outcome.ok && outcome.failure)}`);
  assert.equal(outcome.result.state, 'cancelled');
  const count = outcome.result.measurements[0]?.stats.count ?? 0;
  assert.ok(count > 0, `the partial result kept its queries (n=${count})`);
  assert.ok(cancelMs !== undefined && cancelMs < 1_000, `ended ${cancelMs?.toFixed(0)} ms after cancel`);
});

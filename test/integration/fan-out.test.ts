/**
 * A load run fanned out over two Node runner processes and this machine, against the testbed
 * PostgreSQL on 127.0.0.1: the merged achieved rate and counts are the sums of the places', each
 * place's figures are in the result, and a cancel mid-run keeps every place's partial figures (the
 * runners send theirs after POST /v1/runs/{id}/cancel) and leaves no connection behind.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { Client } from 'pg';
import { validatePlan } from '../../src/core/validate/validatePlan';
import { createRegistry } from '../../src/drivers/registry';
import { localFanOutPlace } from '../../src/cli/fanOutRun';
import { fanOutPlaceOf, runFanOut, type FanOutPlace } from '../../src/places/fanOut';
import { runnerPlace } from '../../src/places/runnerPlace';
import type { ProbeEvent } from '../../src/shared/events';
import type { PlanSpec } from '../../src/shared/plan';
import { Redactor } from '../../src/shared/redact';
import { configDir, runCli } from '../helpers/cli';
import { startRunnerProcess, type RunnerProcess } from '../helpers/runnerProcess';
import { assertMatchesSchema } from '../helpers/schema';
import { testbedEnv } from '../helpers/testbed';

const TOKEN = 'fan-out-token-' + 'y'.repeat(24);

function validPlan(raw: Record<string, unknown>): PlanSpec {
  const checked = validatePlan(
    { targets: [{ name: 'pg', driver: 'pg', connection: 'env:PG_URL' }], ...raw },
    createRegistry().ids(),
  );
  assert.ok(checked.ok, JSON.stringify(checked));
  return checked.value;
}

/** Client backends on the testbed database, read over an admin connection that does not count itself. */
async function backends(admin: Client): Promise<number> {
  await admin.query('SELECT pg_stat_clear_snapshot()');
  const { rows } = await admin.query<{ n: string }>(
    "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = 'dbprobe' AND backend_type = 'client backend' AND pid <> pg_backend_pid()",
  );
  return Number(rows[0]?.n ?? 0);
}

describe('fan-out over two runners and this machine', () => {
  const runners: RunnerProcess[] = [];
  let admin: Client;
  let places: FanOutPlace[];
  before(async () => {
    const env = {
      DBPROBE_TOKEN: TOKEN,
      PG_URL: testbedEnv('DBPROBE_TEST_PG_URL'),
    };
    runners.push(
      await startRunnerProcess({ ...env, DBPROBE_REGION: 'region-a' }),
      await startRunnerProcess({ ...env, DBPROBE_REGION: 'region-b' }),
    );
    const redactor = new Redactor();
    places = [
      localFanOutPlace(createRegistry(), redactor, new Map([['pg', testbedEnv('DBPROBE_TEST_PG_URL')]])),
      // A longer grace than the CLI's 1.5 s: on this shared 2-core machine a runner's summaries after
      // the cancel can take longer, and the test checks that its figures come through the cancel.
      ...runners.map((r) =>
        fanOutPlaceOf(runnerPlace({ url: r.url, token: TOKEN, label: r.url, cancelGraceMs: 6_000 }), {
          redactor,
          resolveConnection: async () => '',
        }),
      ),
    ];
    admin = new Client({ connectionString: testbedEnv('DBPROBE_TEST_PG_ADMIN_URL') });
    await admin.connect();
  });
  after(async () => {
    await admin?.end();
    await Promise.all(runners.map((r) => r.stop()));
  });

  test('open model: the merged achieved rate and counts are the sums of the three places', async () => {
    const plan = validPlan({
      kinds: ['load'],
      load: { model: 'open', levels: [60, 150], durationS: 1.5, connections: 6 },
    });
    const progress = new Map<number, number>();
    const outcome = await runFanOut(plan, places, {
      signal: new AbortController().signal,
      leadMs: 2_000,
      levelGapMs: 1_000,
      onEvent: (index, event: ProbeEvent) => {
        if (event.type === 'progress') progress.set(index, (progress.get(index) ?? 0) + 1);
      },
    });
    for (const part of outcome.parts) assert.equal(part.failure, undefined, part.failure);
    const merged = outcome.merged;
    assert.ok(merged);
    assert.equal(merged.state, 'completed');
    assertMatchesSchema('result', merged);
    const parts = outcome.parts.map((p) => p.result!.measurements.find((m) => m.kind === 'load')!);
    const m = merged.measurements.find((x) => x.kind === 'load')!;
    assert.equal(
      m.stats.count,
      parts.reduce((s, p) => s + p.stats.count, 0),
      'merged count = sum of the places',
    );
    const load = m.load!;
    assert.deepEqual(
      load.levels.map((l) => l.level),
      [60, 150],
    );
    for (const [i, level] of load.levels.entries()) {
      const own = parts.map((p) => p.load!.levels[i]!);
      const sum = (f: (l: (typeof own)[number]) => number) => own.reduce((s, l) => s + f(l), 0);
      assert.equal(
        level.stats.count,
        sum((l) => l.stats.count),
        'level count = sum',
      );
      assert.equal(
        level.corrected!.count,
        sum((l) => l.corrected!.count),
      );
      assert.ok(Math.abs(level.starts!.achievedRate - sum((l) => l.starts!.achievedRate)) < 0.01);
      assert.ok(Math.abs(level.throughput - sum((l) => l.throughput)) < 0.01, 'throughput = sum');
      assert.equal(
        level.starts!.asked,
        sum((l) => l.starts!.asked),
      );
      assert.equal(
        level.stats.errors,
        sum((l) => l.stats.errors),
      );
      assert.ok(
        level.starts!.achievedRate > level.level * 0.8,
        `achieved ${level.starts!.achievedRate}/s of ${level.level}/s`,
      );
      for (const l of own) assert.ok(Math.abs(l.level - level.level / 3) < 1e-9, 'each place ran a third');
    }
    const fanOut = load.fanOut!;
    assert.equal(fanOut.split, 'rate');
    assert.deepEqual(
      fanOut.places.map((p) => p.label),
      ['this machine', runners[0]!.url, runners[1]!.url],
    );
    for (const place of fanOut.places) {
      assert.equal(place.levels.length, 2);
      for (const l of place.levels)
        assert.ok(l.startLagMs !== undefined && l.startLagMs < 500, `lag ${l.startLagMs}`);
    }
    // Every place streamed progress during its levels (the runners through their NDJSON stream).
    for (const index of [0, 1, 2]) assert.ok((progress.get(index) ?? 0) >= 4, `place ${index}: progress`);
  });

  test('closed model: connections split as whole numbers, throughput adds up', async () => {
    const plan = validPlan({ kinds: ['load'], load: { model: 'closed', levels: [4], durationS: 1 } });
    const outcome = await runFanOut(plan, places, {
      signal: new AbortController().signal,
      leadMs: 2_000,
      levelGapMs: 1_000,
    });
    const load = outcome.merged!.measurements[0]!.load!;
    assert.deepEqual(
      load.fanOut!.places.map((p) => p.levels[0]!.share),
      [2, 1, 1],
    );
    const own = outcome.parts.map((p) => p.result!.measurements[0]!.load!.levels[0]!);
    assert.ok(Math.abs(load.levels[0]!.throughput - own.reduce((s, l) => s + l.throughput, 0)) < 0.01);
    assert.equal(load.levels[0]!.level, 4);
    assert.match(load.fanOut!.note, /whole numbers/);
  });

  test('cancel mid-run: every place keeps its partial figures; no connection is left behind', async () => {
    const baseline = await backends(admin);
    const plan = validPlan({ kinds: ['load'], load: { model: 'closed', levels: [6], durationS: 30 } });
    const controller = new AbortController();
    const running = new Set<number>();
    let cancelledAt = 0;
    /** How long after the cancel each place answered. */
    const answeredMs: number[] = [];
    const timed = places.map((place, i) => ({
      ...place,
      run: async (...args: Parameters<FanOutPlace['run']>) => {
        const part = await place.run(...args);
        answeredMs[i] = Math.round(performance.now() - cancelledAt);
        return part;
      },
    }));
    const outcome = await runFanOut(plan, timed, {
      signal: controller.signal,
      leadMs: 2_000,
      onEvent: (index, event) => {
        if (event.type !== 'progress' || event.completed === 0) return;
        running.add(index);
        if (running.size === 3 && cancelledAt === 0) {
          cancelledAt = performance.now();
          controller.abort();
        }
      },
    });
    const took = performance.now() - cancelledAt;
    assert.ok(cancelledAt > 0, 'every place was running');
    // Each place stops within about a second, then summarizes; the percentile scans on a busy 2-core
    // machine take a good part of the rest (noisy figures: printed, with a loose bound).
    console.log(
      `places answered ${answeredMs.join(', ')} ms after the cancel; merged after ${Math.round(took)} ms`,
    );
    assert.ok(
      Math.max(...answeredMs) < 3_000,
      `places answered ${answeredMs.join(', ')} ms after the cancel`,
    );
    assert.ok(took < 8_000, `the fan-out answered ${Math.round(took)} ms after the cancel`);
    const merged = outcome.merged!;
    assert.equal(merged.state, 'cancelled');
    const level = merged.measurements[0]!.load!.levels[0]!;
    const own = outcome.parts.map((p) => p.result?.measurements[0]?.load?.levels[0]);
    // The runners' figures arrived although load levels stream no samples: they cancelled and sent them.
    for (const [i, l] of own.entries())
      assert.ok(l && l.stats.count > 0, `place ${i} kept its partial level`);
    assert.equal(
      level.stats.count,
      own.reduce((s, l) => s + (l?.stats.count ?? 0), 0),
    );
    const deadline = performance.now() + 2_000;
    let open = await backends(admin);
    while (open > baseline && performance.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
      open = await backends(admin);
    }
    // At most the baseline, not equal to it: the testbed's database is shared, and a connection
    // another process held at the baseline may close meanwhile (one series of five on a host shared
    // by eight engineers read 1 against a baseline of 2); a connection this run left open is one more.
    assert.ok(
      open <= baseline,
      `pg_stat_activity back to its baseline within 2 s: ${open} open, baseline ${baseline}`,
    );
  });

  test('the CLI: dbprobe run --fan-out --here --runner A --runner B prints progress and one merged report', async () => {
    const dir = configDir({
      targets: [{ name: 'pg', driver: 'pg', connection: 'env:PG_URL' }],
      kinds: ['load'],
      load: { model: 'open', levels: [45], durationS: 1 },
    });
    const run = await runCli(
      ['run', '--fan-out', '--here', '--runner', runners[0]!.url, '--runner', runners[1]!.url],
      {
        cwd: dir,
        env: { DBPROBE_TOKEN: TOKEN, PG_URL: testbedEnv('DBPROBE_TEST_PG_URL') },
        timeoutMs: 60_000,
      },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /Fanned out over 3 places/);
    assert.match(run.stdout, /\| this machine \| 45 \| 15 \|/);
    assert.match(run.stderr, /\[this machine\] pg load level 1\/1 \(15\): .* done/);
    assert.match(
      run.stderr,
      new RegExp(`\\[${runners[1]!.url.replace(/[.:/]/g, '\\$&')}\\] pg load level 1/1`),
    );
  });
});

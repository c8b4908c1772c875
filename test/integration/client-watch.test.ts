/**
 * The client watch names a client that stalls itself (a 50 ms busy loop every 200 ms in the probing
 * thread) in every format: Markdown, JSON, CSV and the panel's view model. The other way
 * (no warning on an idle client, per testbed driver) is not here yet.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import { createRegistry } from '../../src/drivers/registry';
import { buildRunViewModel } from '../../src/extension/model/runViewModel';
import { FORMATTERS } from '../../src/report/formatters';
import { PLAN_DEFAULTS, type PlanSpec } from '../../src/shared/plan';
import type { RunResult } from '../../src/shared/result';
import { assertMatchesSchema } from '../helpers/schema';
import { markThread, waitShareSince } from '../helpers/threadWait';
import { testbedEnv } from '../helpers/testbed';

async function probe(driver: string, url: string, overrides: Partial<PlanSpec> = {}): Promise<RunResult> {
  return runPlan(
    {
      ...PLAN_DEFAULTS,
      targets: [{ name: driver, driver, connection: 'env:X' }],
      kinds: ['initial', 'subsequent'],
      iterations: 200,
      warmup: 10,
      ...overrides,
    },
    {
      registry: createRegistry(),
      resolveConnection: async () => url,
      tool: { name: 'dbprobe', version: 'test' },
    },
  );
}

/**
 * The planted stall is 50 ms of every 200: a quarter of the wall. A run over which this thread waited
 * for a CPU at least that long could have had every stall's period taken by the host, which the
 * watch (rightly) then does not blame on the client (BUSY_SHARE in src/core/clientWatch.ts): such a
 * run cannot decide the claim, and is made again, up to ATTEMPTS in all. A run that is not crowded
 * and does not name the client fails at once; if every run is crowded the test says so and skips.
 * (One CI-like series on this 2-core host shared by eight engineers, load average 29: the stall read
 * as the host's and the test failed; alone at load 2-3 it passes.)
 */
const CROWDED_WAIT_SHARE = 0.25;
const ATTEMPTS = 3;

describe('client watch', () => {
  test('a client that stalls itself 50 ms every 200 ms is named in every format', async (t) => {
    let result: RunResult | undefined;
    const crowded: string[] = [];
    for (let attempt = 1; attempt <= ATTEMPTS && !result; attempt++) {
      // The busy loop runs on this thread, the one the engine probes from (as a heavy app would).
      const stall = setInterval(() => {
        const until = process.hrtime.bigint() + 50_000_000n;
        while (process.hrtime.bigint() < until) {
          // Busy on purpose: the event loop cannot serve a socket meanwhile.
        }
      }, 200);
      const mark = markThread();
      let run: RunResult;
      try {
        // ~1 ms per initial sample: 800 of them span several stalls, each landing on a sample in flight.
        run = await probe('pg', testbedEnv('DBPROBE_TEST_PG_URL'), { kinds: ['initial'], iterations: 800 });
      } finally {
        clearInterval(stall);
      }
      const waited = waitShareSince(mark);
      const line = `attempt ${attempt}: the thread waited for a CPU ${waited === undefined ? '(unknown share)' : `${Math.round(waited * 100)}%`} of the run; client named: ${run.client.bottleneck}`;
      console.log(line);
      if (!run.client.bottleneck && waited !== undefined && waited >= CROWDED_WAIT_SHARE) crowded.push(line);
      else result = run;
    }
    if (!result) {
      t.skip(`every run was crowded (the host kept the thread waiting for a CPU): ${crowded.join('; ')}`);
      return;
    }
    assertMatchesSchema('result', result);
    assert.equal(result.client.bottleneck, true);
    const limited = result.client.limited?.find((l) => l.target === 'pg' && l.kind === 'initial');
    assert.ok(limited, JSON.stringify(result.client));
    assert.ok(limited.worstUs >= 20_000, `a stall of tens of ms overlapped a sample: ${limited.worstUs} µs`);
    assert.match(
      FORMATTERS.markdown(result),
      /\*\*Client warning:\*\* The client limited these figures: pg initial: event-loop delay during \d+ samples/,
    );
    const json = JSON.parse(FORMATTERS.json(result)) as RunResult;
    assert.equal(json.client.limited?.[0]?.target, 'pg');
    const csv = FORMATTERS.csv(result).trim().split('\n');
    assert.match(csv[0]!, /,client_limited,tls_not_verified$/);
    assert.ok(csv.slice(1).every((line) => /client-limited: event-loop delay during \d+ samples/.test(line)));
    const model = buildRunViewModel(result);
    assert.equal(model.client.bottleneck, true);
    assert.match(model.client.note ?? '', /pg initial: event-loop delay during/);
  });
});

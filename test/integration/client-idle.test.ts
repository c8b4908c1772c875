/**
 * The other way round from client-watch.test.ts: an idle client is not named. Each testbed
 * driver, `initial` and `subsequent`, probed from this otherwise idle thread: no measurement is
 * flagged (`client.bottleneck`, `client.limited`) and the Markdown carries no "Client warning". The
 * drivers' own synchronous work inside a sample (pg's SCRAM exchange on every `initial` connect) is
 * their cost, not a stall against the sample (src/core/clientWatch.ts). PlanetScale's stand-in is
 * left out: ps-http-sim drops ~5% of `initial` connects on this testbed, which says nothing of the watch.
 */
import assert from 'node:assert/strict';
import { loadavg } from 'node:os';
import path from 'node:path';
import { describe, test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import { createRegistry } from '../../src/drivers/registry';
import { FORMATTERS } from '../../src/report/formatters';
import { PLAN_DEFAULTS } from '../../src/shared/plan';
import type { RunResult } from '../../src/shared/result';
import { tempDir } from '../helpers/tempDir';
import { testbedEnv } from '../helpers/testbed';

const TARGETS: readonly { driver: string; url: () => string }[] = [
  { driver: 'pg', url: () => testbedEnv('DBPROBE_TEST_PG_URL') },
  { driver: 'mysql2', url: () => testbedEnv('DBPROBE_TEST_MYSQL_URL') },
  { driver: 'ioredis', url: () => testbedEnv('DBPROBE_TEST_REDIS_URL') },
  { driver: 'mongodb', url: () => testbedEnv('DBPROBE_TEST_MONGO_URL') },
  { driver: 'libsql', url: () => `file:${path.join(tempDir('client-idle'), 'probe.db')}` },
];

async function probe(driver: string, url: string): Promise<RunResult> {
  return runPlan(
    {
      ...PLAN_DEFAULTS,
      targets: [{ name: driver, driver, connection: 'env:X' }],
      kinds: ['initial', 'subsequent'],
      iterations: 200,
      warmup: 10,
    },
    {
      registry: createRegistry(),
      resolveConnection: async () => url,
      tool: { name: 'dbprobe', version: 'test' },
    },
  );
}

describe('client watch on an idle client', () => {
  for (const { driver, url } of TARGETS) {
    test(`${driver} initial and subsequent: no client warning`, { timeout: 120_000 }, async () => {
      const result = await probe(driver, url());
      const kinds = result.measurements.map((m) => `${m.kind} n=${m.stats.count} errors=${m.stats.errors}`);
      assert.deepEqual(
        result.measurements.map((m) => [m.kind, m.stats.count, m.stats.errors]),
        [
          ['initial', 200, 0],
          ['subsequent', 200, 0],
        ],
        kinds.join(', '),
      );
      // The load average goes with a failure: this machine is shared, and a busy host is context.
      const context = `load average ${loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}: ${JSON.stringify(result.client)}`;
      assert.equal(result.client.bottleneck, false, context);
      assert.equal(result.client.limited, undefined, context);
      assert.doesNotMatch(FORMATTERS.markdown(result), /Client warning|client-limited/i, context);
    });
  }
});

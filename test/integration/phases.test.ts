/**
 * The connect phase split on the driver's own socket: DNS (when a name is looked up), TCP, and the
 * handshake after it, for real servers; two runs at once in one process never mix their sockets.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import { createRegistry } from '../../src/drivers/registry';
import { PLAN_DEFAULTS } from '../../src/shared/plan';
import type { RunResult } from '../../src/shared/result';
import { testbedEnv, withUrl } from '../helpers/testbed';

const ITERATIONS = 15;

function probe(driver: string, url: string): Promise<RunResult> {
  return runPlan(
    {
      ...PLAN_DEFAULTS,
      targets: [{ name: driver, driver, connection: 'env:X' }],
      kinds: ['initial'],
      iterations: ITERATIONS,
      warmup: 2,
    },
    {
      registry: createRegistry(),
      resolveConnection: async () => url,
      tool: { name: 'dbprobe', version: 'test' },
    },
  );
}

for (const [driver, env] of [
  ['pg', 'DBPROBE_TEST_PG_URL'],
  ['mysql2', 'DBPROBE_TEST_MYSQL_URL'],
  ['ioredis', 'DBPROBE_TEST_REDIS_URL'],
] as const) {
  test(`${driver}: TCP and handshake from the socket, DNS when the host is a name`, async () => {
    const byIp = (await probe(driver, testbedEnv(env))).measurements[0]!;
    assert.equal(byIp.phases?.tcp?.count, ITERATIONS, 'every sample has its TCP time');
    assert.equal(byIp.phases?.handshake?.count, ITERATIONS);
    assert.equal(byIp.phases?.dns, undefined, 'an IP address needs no lookup');
    for (const s of byIp.samples.values) {
      assert.ok(
        s.tcpUs !== undefined && s.connectUs !== undefined && s.tcpUs <= s.connectUs,
        JSON.stringify(s),
      );
    }
    const byName = (
      await probe(
        driver,
        withUrl(testbedEnv(env), (u) => (u.hostname = 'localhost')),
      )
    ).measurements[0]!;
    assert.equal(byName.stats.errors, 0, JSON.stringify(byName.firstErrors));
    assert.equal(byName.phases?.dns?.count, ITERATIONS, 'localhost is looked up every sample');
    for (const s of byName.samples.values) {
      assert.ok(
        (s.dnsUs ?? 0) + (s.tcpUs ?? 0) <= (s.connectUs ?? 0) + 1,
        `parts within the whole: ${JSON.stringify(s)}`,
      );
    }
  });
}

test('two runs at once in one process keep their own sockets', async () => {
  const [a, b] = await Promise.all([
    probe('pg', testbedEnv('DBPROBE_TEST_PG_URL')),
    probe('ioredis', testbedEnv('DBPROBE_TEST_REDIS_URL')),
  ]);
  for (const result of [a, b]) {
    const m = result.measurements[0]!;
    assert.equal(m.phases?.tcp?.count, ITERATIONS, `${m.target}: one socket per sample, none borrowed`);
  }
});

/**
 * planetscale (@planetscale/database over HTTP) through the engine against ps-http-sim in front of
 * the real MariaDB. ps-http-sim does not count connections, so a counting TCP pass-through sits in
 * front of it (test/fixtures/countingProxy.ts).
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { waitFor } from '../fixtures/connections';
import { startCountingProxy, type CountingProxy } from '../fixtures/countingProxy';
import { describeErrors, measurement, probeTargets } from '../fixtures/probe';
import { assertNoSecret, testbedEnv, withUrl } from '../helpers/testbed';

const ITERATIONS = 12;
const WARMUP = 2;
const SAMPLES = ITERATIONS + WARMUP;

describe('planetscale against ps-http-sim (MariaDB)', () => {
  let proxy: CountingProxy;
  let url: string;
  before(async () => {
    const sim = new URL(testbedEnv('DBPROBE_TEST_PS_URL'));
    proxy = await startCountingProxy(sim.hostname, Number(sim.port));
    url = withUrl(sim.toString(), (u) => (u.port = String(proxy.port)));
  });
  after(async () => proxy?.close());

  for (const [kind, expected] of [
    ['initial', SAMPLES],
    ['subsequent', 1],
  ] as const) {
    test(`${kind}: ${expected} HTTP connection(s) for ${SAMPLES} samples`, async () => {
      const before = proxy.stats();
      const result = await probeTargets([{ name: 'planetscale', driver: 'planetscale', url }], {
        kinds: [kind],
        iterations: ITERATIONS,
        warmup: WARMUP,
      });
      const m = measurement(result, 'planetscale', kind);
      assert.equal(m.stats.count, ITERATIONS, describeErrors(m));
      assert.equal(m.stats.errors, 0);
      assert.equal(result.targets[0]?.transport, 'http');
      const after = await waitFor(
        () => proxy.stats(),
        (s) => s.open === 0,
      );
      assert.equal(after.accepted - before.accepted, expected);
      assert.equal(after.open, 0);
      assertNoSecret([JSON.stringify(result)]);
    });
  }

  test('a real query reads rows from MariaDB', async () => {
    const result = await probeTargets(
      [
        {
          name: 'rows',
          driver: 'planetscale',
          url,
          query: 'SELECT table_name FROM information_schema.tables LIMIT 5',
        },
      ],
      { kinds: ['subsequent'], iterations: 3, warmup: 1 },
    );
    const m = measurement(result, 'rows', 'subsequent');
    assert.equal(m.stats.count, 3, describeErrors(m));
  });
});

/**
 * Accuracy: latency injected by a proxy must come back out of the measurements. Three targets on
 * one server, interleaved in one run: direct, through toxiproxy, and through toxiproxy with a 20 ms
 * latency toxic. The toxic's target minus the plain proxy's must be 20 ms per round trip.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import { createRegistry } from '../../src/drivers/registry';
import { PLAN_DEFAULTS, type ProbeKind } from '../../src/shared/plan';
import type { RunResult } from '../../src/shared/result';
import { createToxiProxy, type ToxiProxy } from '../fixtures/toxiproxy';
import { testbedEnv, withUrl } from '../helpers/testbed';

const INJECTED_US = 20_000;
/** Go timers in toxiproxy and the two processes' scheduling: a small, one-sided error budget. */
const TOLERANCE_US = { below: 500, above: 2_000 };

const SERVERS = [
  { driver: 'pg', env: 'DBPROBE_TEST_PG_URL' },
  { driver: 'ioredis', env: 'DBPROBE_TEST_REDIS_URL' },
  { driver: 'mysql2', env: 'DBPROBE_TEST_MYSQL_URL' },
];

for (const server of SERVERS) {
  describe(`${server.driver}: injected latency comes back out`, () => {
    let plain: ToxiProxy;
    let slow: ToxiProxy;
    let result: RunResult;
    before(async () => {
      const url = new URL(testbedEnv(server.env));
      const upstream = `${url.hostname}:${url.port}`;
      const api = testbedEnv('DBPROBE_TEST_TOXIPROXY_URL');
      plain = await createToxiProxy(api, upstream, `${server.driver}_plain`);
      slow = await createToxiProxy(api, upstream, `${server.driver}_slow`);
      await slow.addToxic('latency', { latency: INJECTED_US / 1000, jitter: 0 });
      const urls: Record<string, string> = {
        direct: url.toString(),
        proxy: withUrl(url.toString(), (u) => (u.port = String(plain.port))),
        'proxy+20ms': withUrl(url.toString(), (u) => (u.port = String(slow.port))),
      };
      result = await runPlan(
        {
          ...PLAN_DEFAULTS,
          targets: Object.keys(urls).map((name) => ({
            name,
            driver: server.driver,
            connection: `env:${name}`,
          })),
          kinds: ['subsequent', 'initial'],
          iterations: 30,
          warmup: 3,
        },
        {
          registry: createRegistry(),
          resolveConnection: async (target) => urls[target.name] ?? '',
          tool: { name: 'dbprobe', version: 'test' },
        },
      );
    });
    after(async () => {
      await plain?.remove();
      await slow?.remove();
    });

    const p50 = (target: string, kind: ProbeKind) => {
      const m = result.measurements.find((x) => x.target === target && x.kind === kind);
      assert.ok(
        m && m.stats.errors === 0 && m.stats.count === 30,
        `${target} ${kind}: ${JSON.stringify(m?.firstErrors)}`,
      );
      return m.stats.p50Us;
    };

    test('subsequent: one round trip per query, so +20 ms', () => {
      const delta = p50('proxy+20ms', 'subsequent') - p50('proxy', 'subsequent');
      assert.ok(
        delta >= INJECTED_US - TOLERANCE_US.below && delta <= INJECTED_US + TOLERANCE_US.above,
        `measured ${delta} µs for ${INJECTED_US} µs injected`,
      );
      assert.ok(
        p50('direct', 'subsequent') <= p50('proxy', 'subsequent') + 1_000,
        'the plain proxy adds little',
      );
    });

    test('initial: several round trips (handshake, auth, query), each paying the 20 ms', () => {
      const delta = p50('proxy+20ms', 'initial') - p50('proxy', 'initial');
      const roundTrips = delta / INJECTED_US;
      assert.ok(roundTrips >= 1.9, `initial paid ${roundTrips.toFixed(2)} round trips of injected latency`);
      assert.ok(
        roundTrips < 8,
        `initial paid ${roundTrips.toFixed(2)} round trips: more than any handshake here needs`,
      );
      console.log(`${server.driver} initial: ${roundTrips.toFixed(2)} round trips of injected latency`);
    });
  });
}

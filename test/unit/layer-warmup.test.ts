import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import type { Driver, Transport } from '../../src/core/driver';
import { LAYER_STEADY_PAIRS, LAYER_WARMUP_QUERIES } from '../../src/core/kinds/subsequentKind';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';

const resolveConnection = async () => 'fake://user:pw@host/db';
const connections = 2;
const iterations = 20;

/** A layered run over a fake driver speaking `transport`: the layer's query count and the twin's p50. */
async function layeredRun(
  transport: Transport,
): Promise<{ layerQueries: number; p50Us: number; maxUs: number }> {
  const clock = new FakeClock();
  const stats = new FakeDriverStats();
  const fake = fakeDriver('a', clock, { queryUs: [100] }, stats);
  const raw: Driver = { ...fake, info: { ...fake.info, transport } };
  let layerQueries = 0;
  const layer: Driver = {
    ...raw,
    over: async (conn) => ({
      ...conn,
      query: async (...args: Parameters<typeof conn.query>) => {
        layerQueries += 1;
        // The layer's first queries after start-up are slow, as a lazily compiled query path is, and
        // it stays slower until the engine's JIT has seen its code run for long.
        const warmed = layerQueries > LAYER_WARMUP_QUERIES + LAYER_STEADY_PAIRS;
        clock.advanceUs(layerQueries <= LAYER_WARMUP_QUERIES ? 5_000 : warmed ? 150 : 300);
        return conn.query(...args);
      },
      close: async () => undefined,
    }),
  };
  const registry = { ...fakeRegistry([raw]), loadLayer: async () => layer, layerVersion: () => undefined };
  const result = await runPlan(
    plan([{ ...target('a'), orm: 'drizzle' }], {
      kinds: ['subsequent'],
      iterations,
      warmConnections: connections,
    }),
    { registry, resolveConnection, tool: TOOL, clock, watchClient: false },
  );
  const twin = result.measurements.find((m) => m.target !== 'a');
  assert.ok(twin, result.measurements.map((m) => m.target).join(', '));
  return { layerQueries, p50Us: twin.stats.p50Us, maxUs: twin.stats.maxUs };
}

test("an ORM layer warms each of its connections, then runs to a steady cost once, before its samples: the app's warm query", async () => {
  const run = await layeredRun('tcp');
  assert.equal(
    run.layerQueries,
    connections * LAYER_WARMUP_QUERIES + LAYER_STEADY_PAIRS + iterations,
    'warm-up queries per connection, the pairs to a steady cost once per twin, then the samples',
  );
  // Every sample is the warm layer's: 150 µs of its own over the raw driver's 100.
  assert.equal(run.p50Us, 250);
  assert.equal(run.maxUs, 250);
});

test('over an HTTP driver the layer takes no steady pairs: each would be two requests to a service', async () => {
  const run = await layeredRun('http');
  assert.equal(run.layerQueries, connections * LAYER_WARMUP_QUERIES + iterations);
});

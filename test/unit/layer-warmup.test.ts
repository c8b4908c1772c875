import assert from 'node:assert/strict';
import { test } from 'node:test';
import { runPlan } from '../../src/core/engine';
import type { Driver } from '../../src/core/driver';
import { LAYER_WARMUP_QUERIES } from '../../src/core/kinds/subsequentKind';
import { FakeClock, FakeDriverStats, fakeDriver, fakeRegistry } from '../helpers/fakes';
import { plan, target, TOOL } from '../helpers/plans';

const resolveConnection = async () => 'fake://user:pw@host/db';

test("an ORM layer warms each of its connections before its first sample there: the app's warm query", async () => {
  const clock = new FakeClock();
  const stats = new FakeDriverStats();
  const raw = fakeDriver('a', clock, { queryUs: [100] }, stats);
  let layerQueries = 0;
  const layer: Driver = {
    ...raw,
    over: async (conn) => ({
      ...conn,
      query: async (...args: Parameters<typeof conn.query>) => {
        layerQueries += 1;
        // The layer's first queries after start-up are slow, as a lazily compiled query path is.
        clock.advanceUs(layerQueries <= LAYER_WARMUP_QUERIES ? 5_000 : 150);
        return conn.query(...args);
      },
      close: async () => undefined,
    }),
  };
  const registry = { ...fakeRegistry([raw]), loadLayer: async () => layer, layerVersion: () => undefined };
  const connections = 2;
  const result = await runPlan(
    plan([{ ...target('a'), orm: 'drizzle' }], {
      kinds: ['subsequent'],
      iterations: 20,
      warmConnections: connections,
    }),
    { registry, resolveConnection, tool: TOOL, clock, watchClient: false },
  );
  const twin = result.measurements.find((m) => m.target !== 'a');
  assert.ok(twin, result.measurements.map((m) => m.target).join(', '));
  assert.equal(
    layerQueries,
    connections * LAYER_WARMUP_QUERIES + 20,
    'warm-up queries per connection, then the samples',
  );
  // Every sample is the warm layer's: 150 µs of its own over the raw driver's 100.
  assert.equal(twin.stats.p50Us, 250);
  assert.equal(twin.stats.maxUs, 250);
});

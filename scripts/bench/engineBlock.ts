/**
 * One block of a bench's engine side: a `subsequent` run of one target on a fresh connection,
 * warm-up apart, as a user's short run pays it. Shared by the benches that set the engine against
 * another path (overhead.ts, serverTimeOverhead.ts), so both time the same thing.
 */
import type { DriverRegistry } from '../../src/core/driver';
import { runPlan } from '../../src/core/engine';
import { PLAN_DEFAULTS } from '../../src/shared/plan';
import type { Measurement } from '../../src/shared/result';
import { TOOL } from '../../src/shared/version';

/** The block's measurement; throws, naming the driver and the first errors, when a sample failed. */
export async function engineBlock(
  driver: string,
  url: string,
  registry: DriverRegistry,
  size: number,
  warmup: number,
): Promise<Measurement> {
  const result = await runPlan(
    {
      ...PLAN_DEFAULTS,
      // The connection is resolved to `url` below: the reference only names where it would come from.
      targets: [{ name: driver, driver, connection: 'env:BENCH_URL' }],
      kinds: ['subsequent'],
      iterations: size,
      warmup,
      sampleCap: size,
    },
    { registry, resolveConnection: async () => url, tool: TOOL, watchClient: false },
  );
  const m = result.measurements[0];
  if (!m || m.stats.errors > 0) throw new Error(`${driver} block failed: ${JSON.stringify(m?.firstErrors)}`);
  return m;
}

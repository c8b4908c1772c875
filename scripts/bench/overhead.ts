/**
 * Harness overhead: a raw `pg` loop of SELECT 1 on one warm connection against the engine's
 * `subsequent` probe on the same server, interleaved in small blocks (raw, engine, raw, engine...) in one process so drift and noisy
 * neighbours hit both alike.
 * Prints p50 and p99 of each, then `overhead_ratio=<tool p50 / raw p50>` and
 * `overhead_p99_ratio=<tool p99 / raw p99>` (the tail: what the harness adds where it matters most).
 */
import { Client } from 'pg';
import { runPlan } from '../../src/core/engine';
import { mergeHistograms } from '../../src/core/merge';
import { createRegistry } from '../../src/drivers/registry';
import { PLAN_DEFAULTS } from '../../src/shared/plan';
import { TOOL } from '../../src/shared/version';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 150);
const BLOCK = Number(process.env.BENCH_BLOCK ?? 100);
const WARMUP = 20;

/** Same shape as an engine block: a fresh connection, WARMUP unrecorded queries, then `count` timed. */
async function rawBlock(url: string, count: number, into: number[]): Promise<void> {
  const client = new Client({ connectionString: url });
  await client.connect();
  for (let i = 0; i < WARMUP + count; i++) {
    const start = process.hrtime.bigint();
    await client.query('SELECT 1');
    if (i >= WARMUP) into.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  await client.end();
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? NaN;
}

async function main(): Promise<void> {
  const url = process.env.DBPROBE_TEST_PG_URL;
  if (!url) throw new Error('DBPROBE_TEST_PG_URL is not set: run through `npm run bench:overhead`');
  const registry = createRegistry();
  const raw: number[] = [];
  const toolBlocks: Parameters<typeof mergeHistograms>[0] = [];
  const roundRatios: number[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const rawRound: number[] = [];
    await rawBlock(url, BLOCK, rawRound);
    raw.push(...rawRound);
    const result = await runPlan(
      {
        ...PLAN_DEFAULTS,
        targets: [{ name: 'pg', driver: 'pg', connection: 'env:DBPROBE_TEST_PG_URL' }],
        kinds: ['subsequent'],
        iterations: BLOCK,
        warmup: WARMUP,
        sampleCap: 0,
      },
      { registry, resolveConnection: async () => url, tool: TOOL, watchClient: false },
    );
    const m = result.measurements[0];
    if (!m || m.stats.errors > 0) throw new Error(`engine block failed: ${JSON.stringify(m?.firstErrors)}`);
    toolBlocks.push({ histogram: m.histogram, errors: 0 });
    roundRatios.push(
      m.stats.p50Us /
        percentile(
          rawRound.sort((x, y) => x - y),
          50,
        ),
    );
  }
  raw.sort((a, b) => a - b);
  const tool = mergeHistograms(toolBlocks).stats;
  const rawP50 = percentile(raw, 50);
  console.log(`samples: ${raw.length} raw, ${tool.count} tool (${ROUNDS} interleaved rounds of ${BLOCK})`);
  console.log(`raw_p50_us=${rawP50.toFixed(1)} raw_p99_us=${percentile(raw, 99).toFixed(1)}`);
  console.log(`tool_p50_us=${tool.p50Us} tool_p99_us=${tool.p99Us}`);
  roundRatios.sort((x, y) => x - y);
  console.log(`median of per-round p50 ratios: ${percentile(roundRatios, 50).toFixed(4)} (a check on noise)`);
  console.log(`overhead_ratio=${(tool.p50Us / rawP50).toFixed(4)}`);
  console.log(`overhead_p99_ratio=${(tool.p99Us / percentile(raw, 99)).toFixed(4)}`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

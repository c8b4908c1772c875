/**
 * Harness overhead: a raw `pg` loop of SELECT 1 on one warm connection against the engine's
 * `subsequent` probe on the same server, interleaved in small blocks (raw, engine, raw, engine...) in one process so drift and noisy
 * neighbours hit both alike.
 * Prints p50 and p99 of each, then `overhead_ratio=<tool p50 / raw p50>` and
 * `overhead_p99_ratio=<tool p99 / raw p99>` (the tail: what the harness adds where it matters most).
 *
 * Both sides are read on the same grid. The engine keeps whole microseconds (its clock rounds to the
 * nearest); at ~50 µs one microsecond is 2%, so comparing its whole-µs p50 with the raw loop's
 * fractional one would move the ratio by up to 2% either way. The raw samples are rounded the same
 * way, and each percentile is read from the counts per microsecond with the value spread evenly
 * over its microsecond (the grouped-data percentile), the same function for both sides.
 */
import { Client } from 'pg';
import { runPlan } from '../../src/core/engine';
import { decodeHistogram } from '../../src/core/histogram';
import { mergeHistograms } from '../../src/core/merge';
import type { EncodedHistogram } from '../../src/shared/result';
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

/** How many samples took each whole microsecond, ascending. */
type Counts = [us: number, count: number][];

/** Raw samples on the engine's grid: rounded to the nearest microsecond, as its clock does. */
function rawCounts(samples: number[]): Counts {
  const counts = new Map<number, number>();
  for (const us of samples) {
    const whole = Math.round(us);
    counts.set(whole, (counts.get(whole) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => a[0] - b[0]);
}

/** The engine's histogram as counts per microsecond (exact below 32.768 ms; a 50 µs loop stays there). */
function toolCounts(encoded: EncodedHistogram): Counts {
  const histogram = decodeHistogram(encoded) as unknown as {
    getCountAtIndex(index: number): number;
    countsArrayIndex(value: number): number;
  };
  const { min, max } = encoded.moments;
  const counts: Counts = [];
  let lastIndex = -1;
  for (let us = Math.max(1, Math.floor(min)); us <= Math.ceil(max); us++) {
    const index = histogram.countsArrayIndex(us);
    if (index === lastIndex) continue; // a wider bucket above 32.768 ms: counted once
    lastIndex = index;
    const count = histogram.getCountAtIndex(index);
    if (count > 0) counts.push([us, count]);
  }
  return counts;
}

/** The grouped-data percentile: the value p% of the way, each microsecond's samples spread over it. */
function percentile(counts: Counts, p: number): number {
  const total = counts.reduce((sum, [, count]) => sum + count, 0);
  const rank = (p / 100) * total;
  let below = 0;
  for (const [us, count] of counts) {
    if (below + count >= rank) return us - 0.5 + (rank - below) / count;
    below += count;
  }
  return NaN;
}

async function main(): Promise<void> {
  const url = process.env.DBPROBE_TEST_PG_URL;
  if (!url) throw new Error('DBPROBE_TEST_PG_URL is not set: run through `npm run bench:overhead`');
  const registry = createRegistry();
  const raw: number[] = [];
  const toolBlocks: Parameters<typeof mergeHistograms>[0] = [];
  const rounds: { raw: number[]; tool: EncodedHistogram }[] = [];
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
    // Read after the last round: decoding a histogram here would leave garbage for the next raw block.
    rounds.push({ raw: rawRound, tool: m.histogram });
  }
  const roundRatios = rounds.map(
    (round) => percentile(toolCounts(round.tool), 50) / percentile(rawCounts(round.raw), 50),
  );
  const merged = mergeHistograms(toolBlocks);
  const tool = toolCounts(merged.histogram);
  const rawGrid = rawCounts(raw);
  const [rawP50, rawP99, toolP50, toolP99] = [
    percentile(rawGrid, 50),
    percentile(rawGrid, 99),
    percentile(tool, 50),
    percentile(tool, 99),
  ];
  const rawMean = raw.reduce((sum, us) => sum + us, 0) / raw.length;
  const toolMean = merged.histogram.moments.mean;
  console.log(
    `samples: ${raw.length} raw, ${merged.stats.count} tool (${ROUNDS} interleaved rounds of ${BLOCK})`,
  );
  console.log(
    `raw_p50_us=${rawP50.toFixed(2)} raw_p99_us=${rawP99.toFixed(2)} raw_mean_us=${rawMean.toFixed(2)}`,
  );
  console.log(
    `tool_p50_us=${toolP50.toFixed(2)} tool_p99_us=${toolP99.toFixed(2)} tool_mean_us=${toolMean.toFixed(2)} (the result's own whole-µs p50 ${merged.stats.p50Us}, p99 ${merged.stats.p99Us})`,
  );
  roundRatios.sort((x, y) => x - y);
  console.log(
    `median of per-round p50 ratios: ${(roundRatios[Math.floor(roundRatios.length / 2)] ?? NaN).toFixed(4)} (a check on noise)`,
  );
  console.log(`overhead_mean_ratio=${(toolMean / rawMean).toFixed(4)}`);
  console.log(`overhead_ratio=${(toolP50 / rawP50).toFixed(4)}`);
  console.log(`overhead_p99_ratio=${(toolP99 / rawP99).toFixed(4)}`);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

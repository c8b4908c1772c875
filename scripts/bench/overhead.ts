/**
 * Harness overhead: a raw `pg` loop of SELECT 1 on one warm connection against the engine's
 * `subsequent` probe on the same server, in rounds (each a raw block and an engine block of BLOCK
 * queries on fresh connections, their order alternating) in one process so drift and noisy
 * neighbours hit both alike. Prints, each with its 95% interval over rounds (scripts/bench/rounds.ts):
 * `overhead_ratio` (engine p50 / raw p50), `overhead_p99_ratio` (the tail: what the harness adds
 * where it matters most) and `overhead_mean_ratio`, and writes bench-results/overhead.json. Beside
 * them, garbage collections per 50,000 samples of each side: in the rounds' blocks (a run's set-up
 * every BLOCK samples, as a user's short run pays) and in long runs before the rounds (LONG_RUN).
 *
 * Both sides are read on the same grid. The engine keeps whole microseconds (its clock rounds to the
 * nearest); at ~50 µs one microsecond is 2%, so comparing its whole-µs p50 with the raw loop's
 * fractional one would move the ratio by up to 2% either way. The raw samples are rounded the same
 * way, and each percentile is read from the counts per microsecond with the value spread evenly
 * over its microsecond (the grouped-data percentile), the same function for both sides; above 4 ms
(a busy machine's tail) the cells are 1% wide. The engine
 * keeps its raw samples (as the shipped default does, up to 10,000), and they are read from the
 * result: no histogram is decoded between blocks (decoding one there left garbage that slowed the
 * next raw block: the ratio read 0.90).
 */
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { Client } from 'pg';
import { createRegistry } from '../../src/drivers/registry';
import { engineBlock } from './engineBlock';
import { grid, percentileOf, type Grid } from './grid';
import { measureInRounds } from './rounds';
import { measureServerTimeOverhead } from './serverTimeOverhead';

const BLOCK = Number(process.env.BENCH_BLOCK ?? 100);
const WARMUP = 20;
/** One round: each side's samples on the grid, and their exact sums. */
interface Round {
  raw: Grid;
  tool: Grid;
  rawSum: number;
  toolSum: number;
}

/**
 * Garbage collections, counted per side: every collection's start (performance time) and each
 * block's span; after the run each collection is laid in the block it started in. Entries arrive
 * asynchronously, so they are attributed at the end, not per round. Counted per 50,000 samples.
 */
const GC_PER = 50_000;
const gcStarts: number[] = [];
/** The rounds' short blocks, and the long runs' (see LONG_RUN). */
type Side = 'raw' | 'tool' | 'rawLong' | 'toolLong';
const blocks: { side: Side; from: number; to: number; queries: number }[] = [];
/**
 * Runs of this many samples per side, before the rounds: GC per sample at steady state. A round's
 * engine block starts and finishes a whole run (plan, connect, result) every BLOCK samples, as a
 * user's short run does; here that set-up is spread over LONG_RUN samples, so the figure says what
 * each sample costs in garbage.
 */
const LONG_RUN = 10_000;
const LONG_RUNS = 4;
const gcObserver = new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) gcStarts.push(entry.startTime);
});
gcObserver.observe({ entryTypes: ['gc'] });

async function timedBlock<T>(side: Side, samples: number, run: () => Promise<T>): Promise<T> {
  const from = performance.now();
  const value = await run();
  blocks.push({ side, from, to: performance.now(), queries: samples + WARMUP });
  return value;
}

/** Collections that started inside each side's blocks, per GC_PER queries of that side. */
function gcPerSamples(): Record<Side, number> {
  const count: Record<Side, number> = { raw: 0, tool: 0, rawLong: 0, toolLong: 0 };
  const queries: Record<Side, number> = { raw: 0, tool: 0, rawLong: 0, toolLong: 0 };
  for (const block of blocks) {
    queries[block.side] += block.queries;
    for (const at of gcStarts) if (at >= block.from && at < block.to) count[block.side] += 1;
  }
  const per = (side: Side) => (count[side] * GC_PER) / Math.max(1, queries[side]);
  return { raw: per('raw'), tool: per('tool'), rawLong: per('rawLong'), toolLong: per('toolLong') };
}

/** Same shape as an engine block: a fresh connection, WARMUP unrecorded queries, then BLOCK timed. */
async function rawBlock(url: string, size = BLOCK): Promise<number[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  const samples: number[] = [];
  for (let i = 0; i < WARMUP + size; i++) {
    const start = process.hrtime.bigint();
    await client.query('SELECT 1');
    if (i >= WARMUP) samples.push(Number(process.hrtime.bigint() - start) / 1000);
  }
  await client.end();
  return samples;
}

async function toolBlock(
  url: string,
  registry: ReturnType<typeof createRegistry>,
  size = BLOCK,
): Promise<number[]> {
  const m = await engineBlock('pg', url, registry, size, WARMUP);
  // A loop, not flatMap: an array per sample here would be the bench's own garbage, counted in the
  // engine's block.
  const values: number[] = [];
  for (const sample of m.samples.values) if (sample.us !== undefined) values.push(sample.us);
  return values;
}

/** One side's percentile over the rounds. */
const percentile = (rounds: readonly Round[], side: 'raw' | 'tool', p: number): number =>
  percentileOf(rounds, (round) => round[side], p);

const sum = (rounds: readonly Round[], side: 'rawSum' | 'toolSum'): number =>
  rounds.reduce((total, round) => total + round[side], 0);

async function main(): Promise<void> {
  const url = process.env.DBPROBE_TEST_PG_URL;
  if (!url) throw new Error('DBPROBE_TEST_PG_URL is not set: run through `npm run bench:overhead`');
  // Both parts by default; BENCH_OVERHEAD_PARTS=server-time (or pg) runs one.
  const parts = (process.env.BENCH_OVERHEAD_PARTS ?? 'pg,server-time').split(',');
  if (parts.includes('pg')) await measurePgOverhead(url);
  gcObserver.disconnect();
  if (parts.includes('server-time')) await measureServerTimeOverhead();
}

/** The engine against a raw pg loop (the file's comment). */
async function measurePgOverhead(url: string): Promise<void> {
  const registry = createRegistry();
  // Untimed first: loading the driver and compiling both paths make garbage no sample makes, and V8
  // grows its young generation over the first collections. Long, so the heap has its working size
  // before any block is counted: with a short warm-up the first long run, always the engine's, met a
  // young generation a fraction of its later size and collected half as often again.
  await toolBlock(url, registry, LONG_RUN);
  await rawBlock(url, LONG_RUN);
  for (let i = 0; i < LONG_RUNS; i++) {
    const tool = () => timedBlock('toolLong', LONG_RUN, () => toolBlock(url, registry, LONG_RUN));
    const raw = () => timedBlock('rawLong', LONG_RUN, () => rawBlock(url, LONG_RUN));
    // Alternating which side goes first, as the rounds do.
    for (const side of i % 2 === 0 ? [tool, raw] : [raw, tool]) await side();
  }
  await measureInRounds<Round>({
    bench: 'overhead',
    command: 'npm run bench:overhead',
    minRounds: Number(process.env.BENCH_MIN_ROUNDS ?? 100),
    maxRounds: Number(process.env.BENCH_MAX_ROUNDS ?? 20_000),
    timeCapS: Number(process.env.BENCH_TIME_CAP_S ?? 150),
    // Odd, so the check's own garbage falls before a raw-first round as often as an engine-first one.
    checkEvery: 51,
    round: async (index) => {
      // Alternate which side goes first, so whatever one block leaves behind hits both sides alike.
      let raw: number[];
      let tool: number[];
      const rawSide = () => timedBlock('raw', BLOCK, () => rawBlock(url));
      const toolSide = () => timedBlock('tool', BLOCK, () => toolBlock(url, registry));
      if (index % 2 === 0) {
        raw = await rawSide();
        tool = await toolSide();
      } else {
        tool = await toolSide();
        raw = await rawSide();
      }
      return {
        raw: grid(raw),
        tool: grid(tool),
        rawSum: raw.reduce((a, b) => a + b, 0),
        toolSum: tool.reduce((a, b) => a + b, 0),
      };
    },
    figures: [
      {
        name: 'overhead_ratio',
        about: `engine p50 / raw pg loop p50, SELECT 1 on one warm connection, blocks of ${BLOCK}`,
        value: (rounds) => percentile(rounds, 'tool', 50) / percentile(rounds, 'raw', 50),
      },
      {
        name: 'overhead_p99_ratio',
        about: 'engine p99 / raw pg loop p99',
        value: (rounds) => percentile(rounds, 'tool', 99) / percentile(rounds, 'raw', 99),
      },
      {
        name: 'overhead_mean_ratio',
        about: 'engine mean / raw pg loop mean',
        value: (rounds) => sum(rounds, 'toolSum') / sum(rounds, 'rawSum'),
      },
    ],
    context: (rounds) => {
      const gc = gcPerSamples();
      return {
        samples_per_side: rounds.length * BLOCK,
        // Queries issued per side, warm-up included: the garbage comes from every one of them.
        gc_per_50k_samples: `engine ${gc.tool.toFixed(1)}, raw loop ${gc.raw.toFixed(1)} (engine / raw ${(gc.tool / gc.raw).toFixed(2)}; each side's queries, warm-up included, connects and runPlan's set-up in its blocks)`,
        gc_per_50k_samples_long_runs: `engine ${gc.toolLong.toFixed(1)}, raw loop ${gc.rawLong.toFixed(1)} (engine / raw ${(gc.toolLong / gc.rawLong).toFixed(2)}; ${LONG_RUNS} runs of ${LONG_RUN.toLocaleString('en-US')} samples a side, their order alternating, after an untimed one each, before the rounds: the per-sample garbage, a run's set-up spread thin)`,
        raw_p50_us: percentile(rounds, 'raw', 50).toFixed(2),
        tool_p50_us: percentile(rounds, 'tool', 50).toFixed(2),
        raw_p99_us: percentile(rounds, 'raw', 99).toFixed(2),
        tool_p99_us: percentile(rounds, 'tool', 99).toFixed(2),
      };
    },
  });
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

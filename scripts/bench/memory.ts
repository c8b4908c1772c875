/**
 * What memory the engine costs. Prints one figure per line as `name=value` on stdout (notes go to
 * stderr), in four parts, each in a child process of its own so one cannot inherit another's heap:
 *
 * - `histograms`: bytes of one idle and one full histogram (1,000,000 values log-uniform over the
 *   whole 1 µs..1 h range), for the paged storage the engine uses (src/core/pagedHistogram.ts) and,
 *   for comparison only, the hdr-histogram-js 'packed' storage it used before (built directly here;
 *   it loses counts on wide spreads, which is why it is gone). Measured as retained memory: the
 *   V8 heap plus ArrayBuffers (`heapUsed + external`, where typed-array pages live) before and after
 *   building N histograms that stay alive, with `--expose-gc` and two gc() each side, divided by N.
 *   The paged storage's own account of its pages (`_getEstimatedFootprintInBytes`) is printed too.
 * - `run`: peak RSS (the process's `maxRSS`) of a 10-target x 3-kind run (initial, subsequent and an
 *   open-model load level) on libSQL `file:` targets.
 * - `sweep`: peak RSS of a 16-level open-model load sweep (1,000 to 16,000 arrivals/s) on one
 *   libSQL `file:` target; the upper levels saturate it, so their histograms span a wide range.
 * - `long`: the `subsequent` probe over 1,000,000 samples per driver (libSQL file, ioredis and pg
 *   against the testbed): RSS after a warm-up run, then polled every 250 ms during the long run.
 *
 * `run` and `sweep` are run twice: with the paged storage and with the old packed one. The swap is
 * this bench's alone (BENCH_HISTOGRAM_STORAGE=packed, read nowhere else): it replaces the paged
 * class's count storage with hdr-histogram-js's PackedArray in the child process, the storage and
 * percentile scan the engine had before (each histogram also keeps the paged class's empty page
 * directory, 2.4 KB, so the packed figure is a little high).
 *
 * Settings: BENCH_MEMORY_PARTS (default `histograms,run,sweep,long`), BENCH_MEMORY_SAMPLES (long run,
 * default 1,000,000), BENCH_MEMORY_DRIVERS (long run, default `libsql,ioredis,pg`),
 * BENCH_MEMORY_LEVEL_S (seconds per load level, default 1).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as hdr from 'hdr-histogram-js';
import { PackedArray } from 'hdr-histogram-js/dist/packedarray/PackedArray';
import { runPlan } from '../../src/core/engine';
import { HISTOGRAM_BOUNDS, newHistogram } from '../../src/core/histogram';
import { PagedHistogram } from '../../src/core/pagedHistogram';
import { createRegistry } from '../../src/drivers/registry';
import { PLAN_DEFAULTS, type PlanSpec, type TargetSpec } from '../../src/shared/plan';
import type { RunResult } from '../../src/shared/result';
import { TOOL } from '../../src/shared/version';
import { loadAverage } from './machine';
import { parseFigureLines, writeSingleRun } from './singleRun';

const PARTS = (process.env.BENCH_MEMORY_PARTS ?? 'histograms,run,sweep,long').split(',').map((p) => p.trim());
const SAMPLES = Number(process.env.BENCH_MEMORY_SAMPLES ?? 1_000_000);
const WARMUP_SAMPLES = Math.min(20_000, Math.max(1_000, Math.round(SAMPLES / 50)));
const GOAL_MB = 50;
const DRIVERS = (process.env.BENCH_MEMORY_DRIVERS ?? 'libsql,ioredis,pg').split(',').map((d) => d.trim());
const URL_ENV: Record<string, string> = { pg: 'DBPROBE_TEST_PG_URL', ioredis: 'DBPROBE_TEST_REDIS_URL' };
const LEVEL_S = Number(process.env.BENCH_MEMORY_LEVEL_S ?? 1);
const STORAGES = ['paged', 'packed'] as const;
type Storage = (typeof STORAGES)[number];

const mb = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;
const figure = (name: string, value: number | string) => console.log(`${name}=${value}`);
const note = (text: string) => console.error(`# ${text}`);

// ---------------------------------------------------------------------------------------------
// Histograms

const FULL_VALUES = 1_000_000;

/** 1,000,000 values log-uniform over 1 µs..1 h, the same ones for every histogram (seeded LCG). */
function fullValues(): Float64Array {
  const values = new Float64Array(FULL_VALUES);
  const span = Math.log(HISTOGRAM_BOUNDS.highestUs / HISTOGRAM_BOUNDS.lowestUs);
  let seed = 12345;
  for (let i = 0; i < values.length; i++) {
    seed = (Math.imul(seed, 1_103_515_245) + 12_345) >>> 0;
    values[i] = Math.max(1, Math.floor(HISTOGRAM_BOUNDS.lowestUs * Math.exp((seed / 2 ** 32) * span)));
  }
  return values;
}

function retained(): number {
  const gc = global.gc;
  if (!gc) throw new Error('the histograms part needs --expose-gc');
  gc();
  gc();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.external;
}

/** Bytes each of `count` live histograms made by `make` retains. */
function bytesEach(count: number, make: () => hdr.Histogram): { bytes: number; kept: hdr.Histogram[] } {
  const kept: hdr.Histogram[] = [];
  const before = retained();
  for (let i = 0; i < count; i++) kept.push(make());
  const after = retained();
  return { bytes: Math.round((after - before) / count), kept };
}

function packed(): hdr.Histogram {
  return hdr.build({
    bitBucketSize: 'packed',
    useWebAssembly: false,
    lowestDiscernibleValue: HISTOGRAM_BOUNDS.lowestUs,
    highestTrackableValue: HISTOGRAM_BOUNDS.highestUs,
    numberOfSignificantValueDigits: HISTOGRAM_BOUNDS.significantDigits,
  });
}

function histograms(): void {
  const values = fullValues();
  const fill = (h: hdr.Histogram) => {
    for (const v of values) h.recordValue(v);
    return h;
  };
  const idleCount = 200;
  // Few full ones: a packed one takes ~4 s to fill here, and each retains megabytes (a clear signal).
  const fullCount = 5;
  note(
    `histograms: retained heap + ArrayBuffers over ${idleCount} idle and ${fullCount} full live histograms`,
  );
  const results: [string, number][] = [];
  const packedIdle = bytesEach(idleCount, packed);
  results.push(['histogram_packed_idle_bytes', packedIdle.bytes]);
  const packedFull = bytesEach(fullCount, () => fill(packed()));
  results.push(['histogram_packed_full_bytes', packedFull.bytes]);
  const pagedIdle = bytesEach(idleCount, newHistogram);
  results.push(['histogram_paged_idle_bytes', pagedIdle.bytes]);
  const pagedFull = bytesEach(fullCount, () => fill(newHistogram()));
  results.push(['histogram_paged_full_bytes', pagedFull.bytes]);
  // The paged storage's own account: its object and page directory plus 4 KB per page in use.
  results.push(['histogram_paged_idle_pages_bytes', pagedIdle.kept[0]?.estimatedFootprintInBytes ?? 0]);
  results.push(['histogram_paged_full_pages_bytes', pagedFull.kept[0]?.estimatedFootprintInBytes ?? 0]);
  // Why the packed storage is gone: its median of the same values beside the paged one and the exact one.
  const sorted = Float64Array.from(values).sort();
  results.push(['histogram_full_exact_p50_us', sorted[Math.ceil(sorted.length / 2) - 1] ?? 0]);
  results.push(['histogram_packed_full_p50_us', packedFull.kept[0]?.getValueAtPercentile(50) ?? 0]);
  results.push(['histogram_paged_full_p50_us', pagedFull.kept[0]?.getValueAtPercentile(50) ?? 0]);
  for (const [name, value] of results) figure(name, value);
}

// ---------------------------------------------------------------------------------------------
// Runs with one storage or the other

/** The engine's histograms count in hdr-histogram-js's PackedArray again, as before the paged storage. */
function usePackedStorage(): void {
  type Self = { countsArrayLength: number; establishSize(h: number): void; packedCounts?: PackedArray };
  const counts = (self: Self) => (self.packedCounts ??= new PackedArray(self.countsArrayLength));
  const methods: Record<string, (this: Self, ...args: number[]) => unknown> = {
    getCountAtIndex(index: number) {
      return counts(this).get(index);
    },
    incrementCountAtIndex(index: number) {
      counts(this).increment(index);
    },
    addToCountAtIndex(index: number, value: number) {
      counts(this).add(index, value);
    },
    setCountAtIndex(index: number, value: number) {
      counts(this).set(index, value);
    },
    clearCounts() {
      counts(this).clear();
    },
    resize(highest: number) {
      this.establishSize(highest);
      counts(this).setVirtualLength(this.countsArrayLength);
    },
    // No page to skip: the percentile scan walks every slot, as it did.
    nextUsedIndex(index: number) {
      return index;
    },
    _getEstimatedFootprintInBytes() {
      return 192 + 8 * counts(this).getPhysicalLength();
    },
  };
  Object.assign(PagedHistogram.prototype, methods);
  // The engine's own factory must now count in a PackedArray, or the figure would be the paged one.
  const probe = newHistogram() as unknown as Self & { recordValue(v: number): void };
  probe.recordValue(1_000);
  if (!(probe.packedCounts instanceof PackedArray) || probe.packedCounts.get(1_000) !== 1)
    throw new Error('the packed storage did not take: the engine builds its histograms another way');
}

function libsqlTargets(count: number): { targets: TargetSpec[]; folder: string } {
  const folder = mkdtempSync(path.join(os.tmpdir(), 'dbprobe-bench-memory-'));
  const targets = Array.from({ length: count }, (_, i) => ({
    name: `lite${i + 1}`,
    driver: 'libsql',
    connection: `file:${path.join(folder, `probe${i + 1}.db`)}`,
  }));
  return { targets, folder };
}

function runPlanFor(part: 'run' | 'sweep', targets: TargetSpec[]): PlanSpec {
  const load = {
    model: 'open' as const,
    durationS: LEVEL_S,
    connections: 4,
    maxErrorRate: 0.01,
    latencyStat: 'p99' as const,
  };
  return part === 'run'
    ? {
        ...PLAN_DEFAULTS,
        targets,
        kinds: ['initial', 'subsequent', 'load'],
        iterations: 200,
        warmup: 5,
        load: { ...load, levels: [2_000] },
      }
    : {
        ...PLAN_DEFAULTS,
        targets,
        kinds: ['load'],
        load: { ...load, levels: Array.from({ length: 16 }, (_, i) => (i + 1) * 1_000) },
      };
}

function checkRun(result: RunResult, expected: number): string {
  const bad = result.measurements.filter((m) => m.failed || m.stats.errors > 0);
  if (result.measurements.length !== expected || bad.length > 0)
    throw new Error(
      `run ${result.state}: ${result.measurements.length} of ${expected} measurements, ` +
        `${bad.length} with errors ${JSON.stringify(bad[0]?.firstErrors)}`,
    );
  const queries = result.measurements.reduce((n, m) => n + m.stats.count, 0);
  return `${result.measurements.length} measurements, ${queries} queries`;
}

/** One run in this process with the given storage; prints its peak RSS. */
async function measureRun(part: 'run' | 'sweep', storage: Storage): Promise<void> {
  if (storage === 'packed') usePackedStorage();
  const { targets, folder } = libsqlTargets(part === 'run' ? 10 : 1);
  const deps = {
    registry: createRegistry(),
    resolveConnection: async (target: TargetSpec) => target.connection,
    tool: TOOL,
  };
  try {
    const plan = runPlanFor(part, targets);
    const started = process.hrtime.bigint();
    const result = await runPlan(plan, deps);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const what = checkRun(result, targets.length * plan.kinds.length);
    const name = part === 'run' ? 'run_10x3' : 'sweep_16';
    note(`${name} (${storage}): ${what} in ${seconds.toFixed(1)} s`);
    // maxRSS: the process's peak resident set (KB), the whole process included (Node itself too).
    figure(`${name}_${storage}_peak_rss_mb`, mb(process.resourceUsage().maxRSS * 1024));
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------
// Long run

function longPlan(driver: string, iterations: number): PlanSpec {
  return {
    ...PLAN_DEFAULTS,
    targets: [{ name: driver, driver, connection: `env:${URL_ENV[driver] ?? 'LIBSQL_URL'}` }],
    kinds: ['subsequent'],
    iterations,
    warmup: 0,
    // Long enough for a slow machine; the run must end by its count, not by this.
    timeouts: { ...PLAN_DEFAULTS.timeouts, runMs: 3_600_000 },
  };
}

/** One driver, in this process: warm-up run, then the long run with RSS polled. */
async function measureLong(driver: string): Promise<void> {
  let folder: string | undefined;
  let url = process.env[URL_ENV[driver] ?? ''];
  if (driver === 'libsql') {
    folder = mkdtempSync(path.join(os.tmpdir(), 'dbprobe-bench-memory-'));
    url = `file:${path.join(folder, 'probe.db')}`;
  }
  if (!url) throw new Error(`${URL_ENV[driver]} is not set: run through \`npm run bench:memory\``);
  const deps = { registry: createRegistry(), resolveConnection: async () => url, tool: TOOL };
  try {
    await runPlan(longPlan(driver, WARMUP_SAMPLES), deps);
    global.gc?.();
    const afterWarmup = process.memoryUsage.rss();
    let peak = afterWarmup;
    const poll = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 250);
    const started = process.hrtime.bigint();
    const result = await runPlan(longPlan(driver, SAMPLES), deps);
    clearInterval(poll);
    const end = process.memoryUsage.rss();
    peak = Math.max(peak, end);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const m = result.measurements[0];
    if (!m || m.stats.count + m.stats.errors < SAMPLES || m.stats.errors > 0)
      throw new Error(
        `${driver}: run ${result.state}, ${JSON.stringify(m?.stats)} ${JSON.stringify(m?.firstErrors)}`,
      );
    note(`long ${driver}: ${m.stats.count} samples in ${seconds.toFixed(1)} s`);
    figure(`long_${driver}_rss_after_warmup_mb`, mb(afterWarmup));
    figure(`long_${driver}_peak_rss_mb`, mb(peak));
    figure(`long_${driver}_rss_growth_mb`, mb(end - afterWarmup));
    figure(`long_${driver}_peak_growth_mb`, mb(peak - afterWarmup));
  } finally {
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
}

// ---------------------------------------------------------------------------------------------

/** Every child's stdout (its `name=value` figures), for bench-results/memory.json. */
let printed = '';

function child(args: string[], env: NodeJS.ProcessEnv = process.env): boolean {
  const result = spawnSync(process.execPath, ['--expose-gc', __filename, ...args], {
    stdio: ['ignore', 'pipe', 'inherit'],
    env,
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  process.stdout.write(result.stdout ?? '');
  printed += result.stdout ?? '';
  return result.status === 0;
}

/** Every part asked for, each in a child process of this same script. */
function main(): void {
  const startedAtMs = Date.now();
  const loadAverageStart = loadAverage();
  let failed = false;
  if (PARTS.includes('histograms')) failed = !child(['histograms']) || failed;
  for (const part of ['run', 'sweep'] as const) {
    if (!PARTS.includes(part)) continue;
    for (const storage of STORAGES) {
      const env = { ...process.env, BENCH_HISTOGRAM_STORAGE: storage };
      failed = !child([part], env) || failed;
    }
  }
  if (PARTS.includes('long')) {
    note(
      `long: ${SAMPLES} samples per driver after ${WARMUP_SAMPLES} warm-up samples; goal: growth <= ${GOAL_MB} MB`,
    );
    for (const driver of DRIVERS) failed = !child(['long', driver]) || failed;
  }
  const file = writeSingleRun({
    bench: 'memory',
    command: 'npm run bench:memory',
    startedAtMs,
    loadAverageStart,
    figures: parseFigureLines(printed),
    context: { parts: PARTS.join(','), long_samples_per_driver: SAMPLES, long_goal_growth_mb: GOAL_MB },
  });
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
  if (failed) process.exitCode = 1;
}

async function inChild(part: string, arg: string | undefined): Promise<void> {
  if (part === 'histograms') return histograms();
  if (part === 'run' || part === 'sweep') {
    const storage = process.env.BENCH_HISTOGRAM_STORAGE;
    if (storage !== 'paged' && storage !== 'packed') throw new Error(`storage ${String(storage)}?`);
    return measureRun(part, storage);
  }
  if (part === 'long' && arg) return measureLong(arg);
  throw new Error(`unknown part ${part}`);
}

const [part, arg] = process.argv.slice(2);
if (part) {
  inChild(part, arg).catch((error: unknown) => {
    console.error(`${part} ${arg ?? ''}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
} else {
  main();
}

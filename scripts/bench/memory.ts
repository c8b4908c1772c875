/**
 * Memory over a long run: the engine's `subsequent` probe, 1,000,000 samples per driver (libSQL file,
 * ioredis and pg against the testbed), each driver in its own process so one cannot inherit another's
 * heap. RSS is read after a warm-up run and then every 250 ms during the long run (the timer fires
 * only because the engine lets the event loop turn). Prints, per driver:
 *   `<driver> samples=... rss_after_warmup_mb=... rss_end_mb=... peak_rss_mb=... rss_growth_mb=...`
 * BENCH_MEMORY_SAMPLES sets the count (e.g. 50000 for a quick run); BENCH_MEMORY_DRIVERS picks drivers.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runPlan } from '../../src/core/engine';
import { createRegistry } from '../../src/drivers/registry';
import { PLAN_DEFAULTS, type PlanSpec } from '../../src/shared/plan';
import { TOOL } from '../../src/shared/version';

const SAMPLES = Number(process.env.BENCH_MEMORY_SAMPLES ?? 1_000_000);
const WARMUP_SAMPLES = Math.min(20_000, Math.max(1_000, Math.round(SAMPLES / 50)));
const GOAL_MB = 50;
const DRIVERS = (process.env.BENCH_MEMORY_DRIVERS ?? 'libsql,ioredis,pg').split(',').map((d) => d.trim());
const URL_ENV: Record<string, string> = { pg: 'DBPROBE_TEST_PG_URL', ioredis: 'DBPROBE_TEST_REDIS_URL' };

const mb = (bytes: number) => Math.round((bytes / 1_048_576) * 10) / 10;

function plan(driver: string, iterations: number): PlanSpec {
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
async function measure(driver: string): Promise<void> {
  let folder: string | undefined;
  let url = process.env[URL_ENV[driver] ?? ''];
  if (driver === 'libsql') {
    folder = mkdtempSync(path.join(os.tmpdir(), 'dbprobe-bench-memory-'));
    url = `file:${path.join(folder, 'probe.db')}`;
  }
  if (!url) throw new Error(`${URL_ENV[driver]} is not set: run through \`npm run bench:memory\``);
  const deps = { registry: createRegistry(), resolveConnection: async () => url, tool: TOOL };
  try {
    await runPlan(plan(driver, WARMUP_SAMPLES), deps);
    global.gc?.();
    const afterWarmup = process.memoryUsage.rss();
    let peak = afterWarmup;
    let polls = 0;
    const poll = setInterval(() => {
      polls += 1;
      peak = Math.max(peak, process.memoryUsage.rss());
    }, 250);
    const started = process.hrtime.bigint();
    const result = await runPlan(plan(driver, SAMPLES), deps);
    clearInterval(poll);
    const end = process.memoryUsage.rss();
    peak = Math.max(peak, end);
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const m = result.measurements[0];
    if (!m || m.stats.count + m.stats.errors < SAMPLES || m.stats.errors > 0)
      throw new Error(
        `${driver}: run ${result.state}, ${JSON.stringify(m?.stats)} ${JSON.stringify(m?.firstErrors)}`,
      );
    console.log(
      `${driver} samples=${m.stats.count} seconds=${seconds.toFixed(1)} rss_polls=${polls} ` +
        `rss_after_warmup_mb=${mb(afterWarmup)} rss_end_mb=${mb(end)} peak_rss_mb=${mb(peak)} ` +
        `rss_growth_mb=${mb(end - afterWarmup)} peak_growth_mb=${mb(peak - afterWarmup)}`,
    );
  } finally {
    if (folder) rmSync(folder, { recursive: true, force: true });
  }
}

/** Each driver in a child process of this same script. */
function main(): void {
  console.log(
    `${SAMPLES} samples per driver after ${WARMUP_SAMPLES} warm-up samples; goal: growth <= ${GOAL_MB} MB`,
  );
  let failed = false;
  for (const driver of DRIVERS) {
    const child = spawnSync(process.execPath, [__filename, driver], { stdio: 'inherit', env: process.env });
    if (child.status !== 0) failed = true;
  }
  if (failed) process.exitCode = 1;
}

const only = process.argv[2];
if (only) {
  measure(only).catch((error: unknown) => {
    console.error(`${only}: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
} else {
  main();
}

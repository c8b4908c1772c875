/**
 * `npm run bench:verdict`: calibrates the verdict's rule against the testbed, with the rule's own
 * output as the figure. Each case runs the real CLI RUNS times (default 20, BENCH_VERDICT_RUNS) at
 * the default sample counts and counts what the verdict said:
 * - identical targets (one PostgreSQL under two names; one libSQL file under two names), initial and
 *   subsequent, quiet and beside a CPU-burning neighbour the bench starts (two `yes` processes):
 *   `verdict_false_claims_*`, the share of runs that named a difference between the twins;
 * - true differences: the same PostgreSQL with and without a 1 ms toxiproxy delay (subsequent), and
 *   each ORM layer over its raw pg: `verdict_power_*`, the share of runs that named it; each layer's
 *   overhead (the median over runs of the tool's figure) beside an independent plain loop's interval
 *   (scripts/bench/ormPlainLoop.ts: raw pg and the layer taking turns on as many clients as the tool
 *   took in turn, timed with hrtime, no engine; one process after every run): the tool's figure
 *   must fall where the loop's processes say a median of as many runs would fall (its 95%
 *   prediction interval, layerPower);
 * - compare of identical back-to-back runs, the neighbour started before HEAD: how often a
 *   "regressed" or "improved" line came without the host statement (must be never), and how often
 *   `--fail-on-regression 10%` failed without `--strict-host` (must be never).
 * Rates carry a 95% Wilson interval over the runs. The result goes to bench-results/verdict.json.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { performance } from 'node:perf_hooks';
import { intervalEnds, mulberry32, seedFromText } from '../../src/shared/judgement/bootstrap';
import { compareTargets } from '../../src/shared/judgement/differences';
import { judgeChanges } from '../../src/shared/judgement/judgeChanges';
import { layerOverheads } from '../../src/shared/judgement/layerOverhead';
import { pauseBetweenSamplesUs } from '../../src/shared/judgement/processPace';
import type { ProbeKind } from '../../src/shared/plan';
import type { RunResult } from '../../src/shared/result';
import { createToxiProxy } from '../../test/fixtures/toxiproxy';
import type { BenchFigure, BenchResult } from './result';

const ROOT = path.resolve(__dirname, '..', '..');
const CLI = path.join(ROOT, 'dist', 'cli.js');
const RUNS = Math.max(2, Math.min(100, Number(process.env.BENCH_VERDICT_RUNS ?? 20)));
const PG_URL = process.env.DBPROBE_TEST_PG_URL ?? '';
const TOXI = process.env.DBPROBE_TEST_TOXIPROXY_URL ?? '';
const work = mkdtempSync(path.join(os.tmpdir(), 'dbprobe-verdict-'));
const figures: BenchFigure[] = [];
const context: Record<string, string | number> = { runs: RUNS };
const started = performance.now();
const loadStart = os.loadavg();

/** Runs `dbprobe run` with a config; returns the result (the CLI's cwd is the repo: its ORM packages). */
function probe(name: string, config: object, env: NodeJS.ProcessEnv = {}): RunResult {
  const file = path.join(work, `${name}.json`);
  const out = path.join(work, `${name}.out.json`);
  writeFileSync(file, JSON.stringify(config));
  const run = spawnSync(
    process.execPath,
    [CLI, 'run', '-q', '--config', file, '--format', 'json', '--out', out],
    {
      cwd: ROOT,
      env: { ...process.env, ...env },
      encoding: 'utf8',
      timeout: 300_000,
    },
  );
  if (run.status !== 0) throw new Error(`${name}: exit ${run.status}\n${run.stderr}`);
  return JSON.parse(readFileSync(out, 'utf8')) as RunResult;
}

/** 95% Wilson interval of k successes in n. */
function wilson(k: number, n: number): [number, number] {
  const z = 1.96;
  const p = k / n;
  const centre = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return [Math.max(0, centre - half), Math.min(1, centre + half)];
}

function rate(name: string, about: string, k: number, n: number): void {
  const [low, high] = wilson(k, n);
  figures.push({
    name,
    unit: 'share',
    about: `${about} (${k} of ${n} runs)`,
    value: k / n,
    low,
    high,
    settled: true,
  });
  console.log(`${name}: ${k} of ${n}`);
}

/** Whether the run named a p50 difference between a and b for `kind`. */
function named(result: RunResult, kind: ProbeKind, a: string, b: string): boolean {
  const c = compareTargets(result).comparisons.find(
    (x) => x.kind === kind && ((x.a === a && x.b === b) || (x.a === b && x.b === a)),
  );
  return c?.differences.find((d) => d.percentile === 50)?.established === true;
}

const hogs: ChildProcess[] = [];
function startHog(): void {
  // Bounded: a hog outlives a killed test otherwise (seen: an hour of two `yes` on 2 cores).
  for (let i = 0; i < 2; i++) hogs.push(spawn('timeout', ['900', 'yes'], { stdio: 'ignore' }));
}
function stopHog(): void {
  for (const hog of hogs.splice(0)) hog.kill('SIGTERM');
}
process.on('exit', stopHog);

function twins(label: string, driver: string, url: string, hog: boolean): void {
  const config = {
    targets: [
      { name: 'twin-a', driver, connection: 'env:TWIN_URL' },
      { name: 'twin-b', driver, connection: 'env:TWIN_URL' },
    ],
  };
  const claims = { initial: 0, subsequent: 0 };
  if (hog) startHog();
  try {
    for (let i = 0; i < RUNS; i++) {
      const result = probe(`${label}-${i}`, config, { TWIN_URL: url });
      for (const kind of ['initial', 'subsequent'] as const)
        if (named(result, kind, 'twin-a', 'twin-b')) claims[kind] += 1;
    }
  } finally {
    if (hog) stopHog();
  }
  const where = hog ? 'beside a CPU-burning neighbour' : 'quiet';
  for (const kind of ['initial', 'subsequent'] as const)
    rate(
      `verdict_false_claims_${label}_${kind}`,
      `identical ${driver} targets, ${kind}, ${where}: runs that named a difference`,
      claims[kind],
      RUNS,
    );
}

async function delayPower(): Promise<void> {
  const url = new URL(PG_URL);
  const proxy = await createToxiProxy(TOXI, `${url.hostname}:${url.port}`, 'verdict');
  try {
    await proxy.addToxic('latency', { latency: 1, jitter: 0 });
    const delayed = new URL(PG_URL);
    delayed.port = String(proxy.port);
    let found = 0;
    for (let i = 0; i < RUNS; i++) {
      const result = probe(
        `delay-${i}`,
        {
          targets: [
            { name: 'direct', driver: 'pg', connection: 'env:DIRECT_URL' },
            { name: 'delayed', driver: 'pg', connection: 'env:DELAYED_URL' },
          ],
          kinds: ['subsequent'],
        },
        { DIRECT_URL: PG_URL, DELAYED_URL: delayed.toString() },
      );
      const c = compareTargets(result).comparisons.find((x) => x.kind === 'subsequent');
      const d = c?.differences.find((x) => x.percentile === 50);
      if (d?.established && (c!.a === 'direct' ? d.diffUs > 0 : d.diffUs < 0)) found += 1;
    }
    rate(
      'verdict_power_delay_1ms',
      'a 1 ms toxiproxy delay on one of two PostgreSQL targets (subsequent): runs that named it, the right way',
      found,
      RUNS,
    );
  } finally {
    await proxy.remove();
  }
}

async function layerPower(layer: 'drizzle' | 'kysely' | 'prisma'): Promise<void> {
  let found = 0;
  const overheads: number[] = [];
  const loops: PlainLoopFigures[] = [];
  const ratios: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const result = probe(`orm-${layer}-${i}`, {
      targets: [{ name: 'pg', driver: 'pg', connection: 'env:DBPROBE_TEST_PG_URL', orm: layer }],
      kinds: ['subsequent'],
    });
    const o = layerOverheads(result).find((x) => x.kind === 'subsequent');
    if (o?.established && o.overheadUs > 0) found += 1;
    if (o) overheads.push(o.overheadUs);
    const raw = result.measurements.find((m) => m.kind === 'subsequent' && m.target === 'pg');
    const layered = result.measurements.find((m) => m.kind === 'subsequent' && m.target !== 'pg');
    if (raw && layered && raw.stats.p50Us > 0) ratios.push(layered.stats.p50Us / raw.stats.p50Us);
    // A plain loop after every run, a process of its own as each run is: the figure's spread over
    // processes (a warm p50 moves by a quarter between identical processes on this VM) is in its
    // interval, as it is in the tool's figures. It takes as many clients in turn as this run
    // did and computes between queries as long as this run's samples were apart (what a process does
    // between queries moves their cost: on this VM a 1 ms spin took raw pg's warm p50 from 0.17 to
    // 0.37 ms and Prisma's cost from 0.19 to 0.48 ms).
    loops.push(
      plainLoop(layer, connectionsOf(result), pauseBetweenSamplesUs(result) ?? 0, samplesOf(result, 'pg')),
    );
  }
  rate(
    `verdict_power_orm_${layer}`,
    `${layer} over raw pg, each warm query: runs that named its cost`,
    found,
    RUNS,
  );
  const toolUs = median(overheads);
  const loopUs = loops.map((l) => l.overheadUs);
  // The tool's figure is a median over its runs, with a spread of its own: set against the interval
  // of the loop's median alone, a tool that measures exactly what the loop does would fall outside
  // about one bench in six (two estimates, each within its own 95% interval). So the loop's
  // interval is for what the tool's figure is: the median of as many runs as the tool took.
  const plain = medianPrediction(loopUs, overheads.length, `orm\u0000${layer}`);
  const processes = `run ${loops.length} times as processes of their own, one after each of the tool's runs`;
  figures.push({
    name: `orm_overhead_${layer}_us`,
    unit: 'µs',
    about: `${layer}'s added p50 per warm query: the tool's figure (median over ${overheads.length} runs) ${Math.round(toolUs)} µs; the value and interval are an independent plain loop's (raw pg and ${layer} taking turns on as many clients in turn as the tool took, after ${loops[0]?.warmupPairs.toLocaleString('en-US') ?? '?'} untimed pairs, computing between queries as long as the tool's samples were apart, as many rounds as the tool's samples, no engine; the median of its rounds' differences, as the tool's figure is), ${processes}: the median over those processes, and the 95% interval in which the median of ${overheads.length} such processes falls (a bootstrap over the loop's processes, then over ${overheads.length} of those): the tool's figure inside it agrees with the loop`,
    value: plain.us,
    low: plain.low,
    high: plain.high,
    settled: toolUs >= plain.low && toolUs <= plain.high,
  });
  // The same cost as a multiple of raw pg's p50, each figure from one process: a process that runs
  // slower slows raw pg and the layer alike (seen: raw 150 to 228 µs between identical runs, the
  // layer's cost with it), so the multiple compares the tool and the loop without that spread.
  const loopRatios = loops.map((l) => l.layeredUs / l.rawUs);
  const gap = differenceOfMedians(ratios, loopRatios, `orm-ratio\u0000${layer}`);
  figures.push({
    name: `orm_multiple_${layer}_tool_minus_loop`,
    unit: 'ratio',
    about: `${layer}'s p50 as a multiple of raw pg's, the tool (median over ${ratios.length} runs, ${median(ratios).toFixed(3)}) minus the plain loop (median over ${loopRatios.length} processes, ${median(loopRatios).toFixed(3)}), with the 95% bootstrap interval over both sides' processes: 0 inside means the tool's figure agrees with the loop's`,
    value: gap.value,
    low: gap.low,
    high: gap.high,
    settled: gap.low <= 0 && gap.high >= 0,
  });
  context[`orm_${layer}_tool_us`] = Math.round(toolUs);
  context[`orm_${layer}_plain_runs_us`] = loopUs.map((x) => Math.round(x)).join(', ');
  console.log(
    `${layer}: tool ${toolUs.toFixed(0)} µs (runs ${overheads.map((x) => x.toFixed(0)).join(', ')}), plain loop ${plain.us.toFixed(0)} [${plain.low.toFixed(0)}, ${plain.high.toFixed(0)}] µs (processes ${loopUs.map((x) => x.toFixed(0)).join(', ')}); multiple of raw, tool minus loop ${gap.value.toFixed(3)} [${gap.low.toFixed(3)}, ${gap.high.toFixed(3)}]`,
  );
}

interface PlainLoopFigures {
  rawUs: number;
  layeredUs: number;
  overheadUs: number;
  /** The untimed pairs the loop ran first. */
  warmupPairs: number;
}

/** One plain-loop process (scripts/bench/ormPlainLoop.ts): the p50s it measured, µs. */
function plainLoop(
  layer: 'drizzle' | 'kysely' | 'prisma',
  connections: number,
  gapUs: number,
  rounds: number,
): PlainLoopFigures {
  const run = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      path.join(__dirname, 'ormPlainLoop.ts'),
      layer,
      String(connections),
      String(Math.round(gapUs)),
      String(rounds),
    ],
    { cwd: ROOT, env: process.env, encoding: 'utf8', timeout: 300_000 },
  );
  if (run.status !== 0) throw new Error(`plain loop ${layer}: exit ${run.status}\n${run.stderr}`);
  const line = run.stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(line) as PlainLoopFigures;
}

/** `n` values drawn from `from` with replacement. */
function drawn(from: readonly number[], n: number, random: () => number): number[] {
  return Array.from({ length: n }, () => from[Math.floor(random() * from.length)]!);
}

/** One resample's median of `xs`, drawn with replacement. */
function resampledMedian(xs: readonly number[], random: () => number): number {
  return median(drawn(xs, xs.length, random));
}

/** median(a) - median(b) and its 95% bootstrap interval, each side resampled on its own (2,000 times, seeded). */
function differenceOfMedians(
  a: readonly number[],
  b: readonly number[],
  seedText: string,
): { value: number; low: number; high: number } {
  const random = mulberry32(seedFromText(seedText));
  const diffs = Float64Array.from(
    { length: 2_000 },
    () => resampledMedian(a, random) - resampledMedian(b, random),
  );
  const [low, high] = intervalEnds(diffs);
  return { value: median(a) - median(b), low, high };
}

/**
 * The median of `values` and its 95% prediction interval for the median of `count` more draws of
 * the same kind (2,000 two-stage resamples, seeded by `seedText`): each resample draws a set as large
 * as `values` from them (where the loop's own median could lie), then `count` from that set (how a
 * median of `count` runs spreads around it).
 */
function medianPrediction(
  values: readonly number[],
  count: number,
  seedText: string,
): { us: number; low: number; high: number } {
  const random = mulberry32(seedFromText(seedText));
  const [low, high] = intervalEnds(
    Float64Array.from({ length: 2_000 }, () =>
      median(drawn(drawn(values, values.length, random), count, random)),
    ),
  );
  return { us: median(values), low, high };
}

/** How many warm samples the tool kept for `target` (the loop takes as many rounds). */
function samplesOf(result: RunResult, target: string): number {
  const m = result.measurements.find((x) => x.kind === 'subsequent' && x.target === target);
  return m?.samples?.values.length ?? 0;
}

/** How many warm connections the tool took in turn: the distinct `conn` of its samples. */
function connectionsOf(result: RunResult): number {
  const seen = new Set<number>();
  for (const m of result.measurements)
    for (const sample of m.samples?.values ?? []) if (sample.conn !== undefined) seen.add(sample.conn);
  return Math.max(1, seen.size);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)]!;
}

function compareBackToBack(): void {
  const config = {
    targets: [
      { name: 'pg', driver: 'pg', connection: 'env:DBPROBE_TEST_PG_URL' },
      { name: 'lite', driver: 'libsql', connection: 'env:LITE_URL' },
    ],
  };
  const env = { LITE_URL: `file:${path.join(work, 'lite.db')}` };
  let unexplained = 0;
  let hostSaid = 0;
  let gateFailed = 0;
  for (let i = 0; i < RUNS; i++) {
    const base = probe(`base-${i}`, config, env);
    startHog();
    let head: RunResult;
    try {
      head = probe(`head-${i}`, config, env);
    } finally {
      stopHog();
    }
    const judgement = judgeChanges(base, head);
    if (judgement.lines.some((l) => / (regressed|improved): /.test(l))) unexplained += 1;
    if (judgement.lines.some((l) => l.startsWith('Not attributable'))) hostSaid += 1;
    const gate = spawnSync(
      process.execPath,
      [
        CLI,
        'compare',
        path.join(work, `base-${i}.out.json`),
        path.join(work, `head-${i}.out.json`),
        '--fail-on-regression',
        '10%',
      ],
      { encoding: 'utf8' },
    );
    if (gate.status !== 0) gateFailed += 1;
  }
  rate(
    'verdict_compare_unexplained_changes',
    'identical back-to-back runs, the neighbour started before HEAD: runs with a "regressed" or "improved" line (no host statement)',
    unexplained,
    RUNS,
  );
  rate(
    'verdict_compare_host_statements',
    'the same: runs whose first lines say "Not attributable" (the host moved)',
    hostSaid,
    RUNS,
  );
  rate(
    'verdict_compare_gate_failed',
    'the same: `compare --fail-on-regression 10%` exits non-zero (without --strict-host)',
    gateFailed,
    RUNS,
  );
}

async function main(): Promise<void> {
  if (!PG_URL || !TOXI) throw new Error('run through npm run bench:verdict (it starts the testbed)');
  const only = process.env.BENCH_VERDICT_CASES?.split(',');
  const want = (name: string) => !only || only.includes(name);
  if (want('twins')) {
    twins('pg', 'pg', PG_URL, false);
    twins('libsql', 'libsql', `file:${path.join(work, 'twins.db')}`, false);
  }
  if (want('hog')) {
    twins('pg_busy', 'pg', PG_URL, true);
    twins('libsql_busy', 'libsql', `file:${path.join(work, 'twins.db')}`, true);
  }
  if (want('delay')) await delayPower();
  if (want('orm')) for (const layer of ['drizzle', 'kysely', 'prisma'] as const) await layerPower(layer);
  if (want('compare')) compareBackToBack();
  const cpus = os.cpus();
  const result: BenchResult = {
    bench: 'verdict',
    command: 'npm run bench:verdict',
    date: new Date().toISOString(),
    seconds: Math.round((performance.now() - started) / 1000),
    rounds: RUNS,
    stoppedBy: 'round cap',
    tolerance: 0,
    confidence: 0.95,
    machine: {
      hostname: os.hostname(),
      cpuModel: cpus[0]?.model ?? 'unknown',
      cores: cpus.length,
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      platform: `${os.platform()} ${os.release()}`,
      node: process.version,
      loadAverageStart: loadStart,
      loadAverage: os.loadavg(),
    },
    figures,
    context,
  };
  const file = path.join(ROOT, 'bench-results', only ? `verdict-${only.join('-')}.json` : 'verdict.json');
  writeFileSync(file, `${JSON.stringify(result, null, 2)}\n`);
  console.log(`wrote ${path.relative(ROOT, file)}`);
}

main().catch((error: unknown) => {
  stopHog();
  console.error(error);
  process.exit(1);
});

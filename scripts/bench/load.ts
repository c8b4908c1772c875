/**
 * Load benchmarks, printed, never asserted, each figure with its 95% interval over rounds
 * (scripts/bench/rounds.ts), written to bench-results/load.json, load-open-20k.json and
 * load-open.json. The tool runs as `dbprobe run --kinds load` does: over as many probing threads as
 * the CLI's default gives the level on this machine (core/load/threadCount.ts; dist/cliThread.js).
 * Every side runs pgbench's select-only query (`pgbench -S`: a point read of pgbench_accounts, in a
 * schema of its own, `dbprobe_bench`, made by `pgbench -i` on the first run).
 * - `load_ratio_16`, `load_ratio_64`: the tool's closed-model q/s against a raw pg.Pool loop spread
 *   over the same number of worker threads (a pool per thread, connections shared as the tool shares
 *   them), at 16 and 64 connections; `load_ratio` is the lower of the two.
 * - `load_vs_pgbench_64`: the tool's closed model at 64 connections / `pgbench -S -c 64 -j 2`.
 *   A round runs every side of every level once, their order rotating, in one process.
 * - `open_20k_achieved`: the open model at 20,000 arrivals/s (64 connections): starts made / asked,
 *   with the start lateness p99 and any client-limited reason beside it.
 * - `open_model_accuracy`: the open model at a low rate through toxiproxy (5 ms): starts made / asked.
 */
import { execFileSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import * as path from 'node:path';
import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import pg from 'pg';
import { runPlan } from '../../src/core/engine';
import { threadsFor } from '../../src/core/load/threadCount';
import { createRegistry } from '../../src/drivers/registry';
import { resultOf } from '../../src/places/outcome';
import { runSpreadOverThreads } from '../../src/places/spreadThreadsRun';
import { LOAD_DEFAULTS, type LoadPlanSpec } from '../../src/shared/loadPlan';
import type { LoadLevelFigures } from '../../src/shared/loadResult';
import { PLAN_DEFAULTS, type PlanSpec } from '../../src/shared/plan';
import { Redactor } from '../../src/shared/redact';
import { TOOL } from '../../src/shared/version';
import { measureInRounds } from './rounds';

const LEVELS = [16, 64];
const PGBENCH_LEVEL = 64;
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const OPEN_RATE = Number(process.env.BENCH_OPEN_RATE ?? 200);
const HIGH_RATE = Number(process.env.BENCH_HIGH_RATE ?? 20_000);
const SCHEMA = 'dbprobe_bench';
/** pgbench -S's query, with one key (pgbench draws a random one; every key is one index probe). */
const QUERY = `SELECT abalance FROM ${SCHEMA}.pgbench_accounts WHERE aid = 4242`;
/** The probing threads' entry, built with the CLI beside dist/bench/. */
const THREAD_FILE = path.resolve(__dirname, '..', 'cliThread.js');

/** pgbench's connection settings from the URL, in its own schema. */
function pgbenchArgs(url: string): { args: string[]; env: NodeJS.ProcessEnv } {
  const u = new URL(url);
  return {
    args: ['-h', u.hostname, '-p', u.port, '-U', decodeURIComponent(u.username), u.pathname.slice(1)],
    env: {
      ...process.env,
      PGPASSWORD: decodeURIComponent(u.password),
      PGOPTIONS: `-c search_path=${SCHEMA}`,
    },
  };
}

/** pgbench's tables (scale 1: 100,000 accounts) in their own schema, once. */
async function preparePgbench(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${SCHEMA}`);
    const found = await client.query(`SELECT to_regclass('${SCHEMA}.pgbench_accounts') IS NOT NULL AS ok`);
    if (found.rows[0]?.ok === true) return;
  } finally {
    await client.end();
  }
  const { args, env } = pgbenchArgs(url);
  execFileSync('pgbench', ['-i', '-s', '1', '-q', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** `pgbench -S -c N -j 2` for `seconds`: transactions per second, without its connection time. */
function pgbench(url: string, clients: number, seconds: number): number {
  const { args, env } = pgbenchArgs(url);
  const out = execFileSync(
    'pgbench',
    ['-n', '-S', '-c', String(clients), '-j', '2', '-T', String(seconds), ...args],
    { env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] },
  );
  const tps = /tps = ([\d.]+)/.exec(out)?.[1];
  if (tps === undefined) throw new Error(`pgbench printed no tps: ${out.slice(0, 300)}`);
  return Number(tps);
}

/** One raw pool thread: opens its connections, says so, waits for the go, loops for `seconds`. */
async function rawPoolThread(data: { url: string; workers: number; seconds: number }): Promise<void> {
  const port = parentPort!;
  const pool = new pg.Pool({ connectionString: data.url, max: data.workers });
  const clients = await Promise.all(Array.from({ length: data.workers }, () => pool.connect()));
  clients.forEach((c) => c.release());
  await new Promise<void>((resolve) => {
    port.once('message', () => resolve());
    port.postMessage('ready');
  });
  let count = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(data.seconds * 1e9);
  await Promise.all(
    Array.from({ length: data.workers }, async () => {
      while (process.hrtime.bigint() < end) {
        await pool.query(QUERY);
        count += 1;
      }
    }),
  );
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  await pool.end();
  port.postMessage(count / elapsed);
}

/** A raw pg.Pool loop over `threads` worker threads (connections shared as the tool shares them). */
async function rawPools(url: string, workers: number, seconds: number, threads: number): Promise<number> {
  const shares = Array.from(
    { length: threads },
    (_, i) => Math.floor(workers / threads) + (i < workers % threads ? 1 : 0),
  ).filter((n) => n > 0);
  const started = shares.map(
    (share) => new Worker(__filename, { workerData: { rawPool: { url, workers: share, seconds } } }),
  );
  const ready = started.map(
    (w) =>
      new Promise<void>((resolve, reject) => {
        w.once('message', () => resolve());
        w.once('error', reject);
      }),
  );
  await Promise.all(ready);
  const rates = started.map(
    (w) =>
      new Promise<number>((resolve, reject) => {
        w.once('message', (rate: number) => resolve(rate));
        w.once('error', reject);
      }),
  );
  for (const w of started) w.postMessage('go');
  const total = (await Promise.all(rates)).reduce((a, b) => a + b, 0);
  await Promise.all(started.map((w) => w.terminate()));
  return total;
}

/** The tool's level as `dbprobe run` runs it here: over the CLI's default number of threads. */
function planFor(load: LoadPlanSpec): PlanSpec {
  return {
    ...PLAN_DEFAULTS,
    targets: [{ name: 'pg', driver: 'pg', connection: 'env:DBPROBE_TEST_PG_URL', query: QUERY }],
    kinds: ['load'],
    sampleCap: 0,
    load,
  };
}

async function tool(url: string, load: LoadPlanSpec): Promise<{ level: LoadLevelFigures; threads: number }> {
  const plan = planFor(load);
  const threads = threadsFor(plan, availableParallelism());
  const result =
    threads > 1
      ? resultOf(
          await runSpreadOverThreads({
            threadEntryFile: THREAD_FILE,
            threads,
            plan,
            resolveConnection: async () => url,
            redactor: new Redactor(),
            location: { kind: 'local', label: 'bench' },
            signal: new AbortController().signal,
          }),
        )
      : await runPlan(plan, { registry: createRegistry(), resolveConnection: async () => url, tool: TOOL });
  const level = result?.measurements[0]?.load?.levels[0];
  if (!level || level.stats.count === 0)
    throw new Error(`engine load failed: ${JSON.stringify(result?.measurements[0]?.firstErrors)}`);
  return { level, threads };
}

async function toxiProxy(
  api: string,
  upstream: string,
): Promise<{ port: number; remove: () => Promise<void> }> {
  const name = `dbprobe_bench_${process.pid}`;
  const created = (await (
    await fetch(new URL('/proxies', api), {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ name, listen: '127.0.0.1:0', upstream, enabled: true }),
    })
  ).json()) as { listen: string };
  await fetch(new URL(`/proxies/${name}/toxics`, api), {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({
      name: 'latency',
      type: 'latency',
      stream: 'downstream',
      attributes: { latency: 5, jitter: 0 },
    }),
  });
  return {
    port: Number(created.listen.slice(created.listen.lastIndexOf(':') + 1)),
    remove: async () => void (await fetch(new URL(`/proxies/${name}`, api), { method: 'DELETE' })),
  };
}

/** One closed-model round: queries per second of each side at each level. */
type LoadRound = Record<
  number,
  { raw: number; tool: number; pgbench?: number; threads: number; limited?: string }
>;

const ratioAt = (rounds: readonly LoadRound[], level: number, side: 'raw' | 'pgbench' = 'raw'): number =>
  rounds.reduce((sum, round) => sum + round[level]!.tool, 0) /
  rounds.reduce((sum, round) => sum + (round[level]![side] ?? NaN), 0);

const mean = (values: readonly number[]): number => values.reduce((a, b) => a + b, 0) / values.length;

async function closedModel(url: string): Promise<void> {
  const env = process.env;
  await measureInRounds<LoadRound>({
    bench: 'load',
    command: 'npm run bench:load',
    minRounds: Number(env.BENCH_MIN_ROUNDS ?? 6),
    maxRounds: Number(env.BENCH_MAX_ROUNDS ?? 500),
    timeCapS: Number(env.BENCH_TIME_CAP_S ?? 240),
    checkEvery: 2,
    round: async (index) => {
      const round: LoadRound = {};
      for (const level of LEVELS) {
        const load: LoadPlanSpec = { ...LOAD_DEFAULTS, levels: [level], durationS: SECONDS };
        const threads = threadsFor(planFor(load), availableParallelism());
        const sides: Record<string, () => Promise<number>> = {};
        let limited: string | undefined;
        sides.tool = async () => {
          const ran = await tool(url, load);
          limited = ran.level.clientLimited;
          return ran.level.throughput;
        };
        sides.raw = () => rawPools(url, level, SECONDS, threads);
        if (level === PGBENCH_LEVEL) sides.pgbench = async () => pgbench(url, level, SECONDS);
        // Rotate which side goes first, so a warmer server or a leftover connection hits all alike.
        const names = Object.keys(sides);
        const order = names.map((_, i) => names[(i + index) % names.length]!);
        const got: Record<string, number> = {};
        for (const name of order) got[name] = await sides[name]!();
        round[level] = {
          raw: got.raw!,
          tool: got.tool!,
          ...(got.pgbench !== undefined ? { pgbench: got.pgbench } : {}),
          threads,
          ...(limited ? { limited } : {}),
        };
      }
      return round;
    },
    figures: [
      ...LEVELS.map((level) => ({
        name: `load_ratio_${level}`,
        about: `tool closed-model q/s / raw pg.Pool q/s over as many threads, pgbench -S query, ${level} connections, ${SECONDS} s each`,
        value: (rounds: readonly LoadRound[]) => ratioAt(rounds, level),
      })),
      {
        name: 'load_ratio',
        about: `the lower of load_ratio_${LEVELS.join(' and load_ratio_')}`,
        value: (rounds) => Math.min(...LEVELS.map((level) => ratioAt(rounds, level))),
      },
      {
        name: `load_vs_pgbench_${PGBENCH_LEVEL}`,
        about: `tool closed-model q/s / pgbench -S -c ${PGBENCH_LEVEL} -j 2 tps, same server, ${SECONDS} s each`,
        value: (rounds) => ratioAt(rounds, PGBENCH_LEVEL, 'pgbench'),
      },
    ],
    context: (rounds) =>
      Object.fromEntries(
        LEVELS.map((level) => {
          const limited = rounds.filter((r) => r[level]!.limited).length;
          return [
            `connections=${level}`,
            `threads=${rounds[0]?.[level]?.threads} raw_pool_qps=${mean(rounds.map((r) => r[level]!.raw)).toFixed(0)} tool_qps=${mean(rounds.map((r) => r[level]!.tool)).toFixed(0)}${level === PGBENCH_LEVEL ? ` pgbench_S_tps=${mean(rounds.map((r) => r[level]!.pgbench ?? NaN)).toFixed(0)}` : ''} client_limited_rounds=${limited}/${rounds.length}${limited > 0 ? ` (${rounds.find((r) => r[level]!.limited)?.[level]?.limited})` : ''}`,
          ];
        }),
      ),
  });
}

/** One round of the open model at a high rate: starts, lateness, the client's verdict. */
interface HighRound {
  asked: number;
  started: number;
  achievedRate: number;
  latenessP99Us: number;
  threads: number;
  limited?: string;
  /** Why the level did not keep up (core/load/figures.ts), when it did not. */
  tripped?: string;
}

async function highRate(url: string): Promise<void> {
  await measureInRounds<HighRound>({
    bench: 'load-open-20k',
    command: 'npm run bench:load',
    minRounds: 4,
    maxRounds: 100,
    timeCapS: Number(process.env.BENCH_HIGH_TIME_CAP_S ?? 60),
    checkEvery: 1,
    round: async () => {
      const { level, threads } = await tool(url, {
        ...LOAD_DEFAULTS,
        model: 'open',
        levels: [HIGH_RATE],
        connections: 64,
        durationS: SECONDS,
      });
      const starts = level.starts!;
      return {
        asked: starts.asked,
        started: starts.started,
        achievedRate: starts.achievedRate,
        latenessP99Us: starts.latenessP99Us,
        threads,
        ...(level.clientLimited ? { limited: level.clientLimited } : {}),
        ...(level.tripped ? { tripped: level.tripped } : {}),
      };
    },
    figures: [
      {
        // The achieved rate, not starts made / asked: the line drains after the schedule, so every
        // start may be made, seconds late, at a quarter of the rate.
        name: 'open_20k_achieved',
        about: `open model at ${HIGH_RATE}/s, 64 connections, pgbench -S query: achieved start rate / asked`,
        value: (rounds) => rounds.reduce((sum, r) => sum + r.achievedRate, 0) / (rounds.length * HIGH_RATE),
      },
    ],
    context: (rounds) => {
      const p99s = rounds.map((r) => r.latenessP99Us).sort((a, b) => a - b);
      const limited = rounds.filter((r) => r.limited);
      return {
        open_20k_threads: rounds[0]?.threads ?? 0,
        open_20k_achieved_rate: `mean ${mean(rounds.map((r) => r.achievedRate)).toFixed(0)}/s of ${HIGH_RATE}/s asked`,
        open_20k_lateness_p99_us: `median ${p99s[Math.floor(p99s.length / 2)]}, highest ${p99s[p99s.length - 1]} over ${rounds.length} rounds of ${SECONDS} s`,
        open_20k_client_limited: `${limited.length}/${rounds.length} rounds${limited[0] ? `: ${limited[0].limited}` : ''}`,
        open_20k_kept_up: `${rounds.filter((r) => !r.tripped).length}/${rounds.length} rounds${rounds.find((r) => r.tripped) ? `; did not: ${rounds.find((r) => r.tripped)?.tripped}` : ''}`,
      };
    },
  });
}

/** One open-model round: starts asked and made, and the start lateness p99. */
interface OpenRound {
  asked: number;
  started: number;
  latenessP99Us: number;
}

async function openModel(url: string, api: string): Promise<void> {
  const u = new URL(url);
  const proxy = await toxiProxy(api, `${u.hostname}:${u.port}`);
  try {
    u.port = String(proxy.port);
    await measureInRounds<OpenRound>({
      bench: 'load-open',
      command: 'npm run bench:load',
      minRounds: 5,
      maxRounds: 100,
      timeCapS: Number(process.env.BENCH_OPEN_TIME_CAP_S ?? 30),
      checkEvery: 1,
      round: async () => {
        const { level } = await tool(u.toString(), {
          ...LOAD_DEFAULTS,
          model: 'open',
          levels: [OPEN_RATE],
          connections: 8,
          durationS: SECONDS,
        });
        const starts = level.starts!;
        return { asked: starts.asked, started: starts.started, latenessP99Us: starts.latenessP99Us };
      },
      figures: [
        {
          name: 'open_model_accuracy',
          about: `open model at ${OPEN_RATE}/s through toxiproxy (5 ms): starts made / starts asked`,
          value: (rounds) =>
            rounds.reduce((sum, r) => sum + r.started, 0) / rounds.reduce((sum, r) => sum + r.asked, 0),
        },
      ],
      context: (rounds) => {
        const p99s = rounds.map((r) => r.latenessP99Us).sort((a, b) => a - b);
        return {
          open_model_lateness_p99_us: `median ${p99s[Math.floor(p99s.length / 2)]}, highest ${p99s[p99s.length - 1]} over ${rounds.length} rounds of ${SECONDS} s`,
        };
      },
    });
  } finally {
    await proxy.remove();
  }
}

async function main(): Promise<void> {
  const url = process.env.DBPROBE_TEST_PG_URL;
  if (!url) throw new Error('DBPROBE_TEST_PG_URL is not set: run through `npm run bench:load`');
  await preparePgbench(url);
  await closedModel(url);
  await highRate(url);
  const api = process.env.DBPROBE_TEST_TOXIPROXY_URL;
  if (!api) {
    console.log('open_model_accuracy=n/a (DBPROBE_TEST_TOXIPROXY_URL is not set)');
    return;
  }
  await openModel(url, api);
}

// The same file is the raw pool's worker thread.
const rawPool = (workerData as { rawPool?: Parameters<typeof rawPoolThread>[0] } | null)?.rawPool;
if (!isMainThread && rawPool) void rawPoolThread(rawPool);
else
  main().catch((error) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });

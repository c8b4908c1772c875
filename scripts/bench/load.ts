/**
 * Load benchmarks, printed, never asserted, each figure with its 95% interval over rounds
 * (scripts/bench/rounds.ts), written to bench-results/load.json and bench-results/load-open.json:
 * - `load_ratio_16`, `load_ratio_64`, `load_ratio`: throughput of the engine's closed-model load
 *   against a raw pg.Pool loop of SELECT 1 with as many workers, at 16 and 64 connections; a round
 *   runs each level's raw pool and engine once (their order alternating) in one process; `load_ratio`
 *   is the lower of the two. `pgbench` with the same SELECT 1 on the same server is printed as a ceiling.
 * - `open_model_accuracy`: the open model at a fixed rate against PostgreSQL behind toxiproxy with
 *   5 ms latency: starts made / starts asked, and the start lateness p99 beside it.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import pg from 'pg';
import { runPlan } from '../../src/core/engine';
import { createRegistry } from '../../src/drivers/registry';
import { LOAD_DEFAULTS, type LoadPlanSpec } from '../../src/shared/loadPlan';
import { PLAN_DEFAULTS } from '../../src/shared/plan';
import { TOOL } from '../../src/shared/version';
import { measureInRounds } from './rounds';

const LEVELS = [16, 64];
const SECONDS = Number(process.env.BENCH_SECONDS ?? 2);
const OPEN_RATE = Number(process.env.BENCH_OPEN_RATE ?? 200);
/** pgbench's 64 SCRAM logins can outlast a 2 s run (it then processes nothing): the ceiling gets 5 s. */
const PGBENCH_MIN_SECONDS = 5;

async function rawPool(url: string, workers: number, seconds: number): Promise<number> {
  const pool = new pg.Pool({ connectionString: url, max: workers });
  // Open every connection first, as the engine does before its clock starts.
  const clients = await Promise.all(Array.from({ length: workers }, () => pool.connect()));
  clients.forEach((c) => c.release());
  let count = 0;
  const start = process.hrtime.bigint();
  const end = start + BigInt(seconds * 1e9);
  await Promise.all(
    Array.from({ length: workers }, async () => {
      while (process.hrtime.bigint() < end) {
        await pool.query('SELECT 1');
        count += 1;
      }
    }),
  );
  const elapsed = Number(process.hrtime.bigint() - start) / 1e9;
  await pool.end();
  return count / elapsed;
}

async function engine(url: string, load: LoadPlanSpec): Promise<NonNullable<ReturnType<typeof levelOf>>> {
  const result = await runPlan(
    {
      ...PLAN_DEFAULTS,
      targets: [{ name: 'pg', driver: 'pg', connection: 'env:DBPROBE_TEST_PG_URL' }],
      kinds: ['load'],
      sampleCap: 0,
      load,
    },
    { registry: createRegistry(), resolveConnection: async () => url, tool: TOOL, watchClient: false },
  );
  const level = levelOf(result);
  if (!level) throw new Error(`engine load failed: ${JSON.stringify(result.measurements[0]?.firstErrors)}`);
  return level;
}

function levelOf(result: Awaited<ReturnType<typeof runPlan>>) {
  return result.measurements[0]?.load?.levels[0];
}

function pgbenchCeiling(url: string, clients: number, seconds: number): string {
  try {
    const u = new URL(url);
    const dir = mkdtempSync(path.join(tmpdir(), 'dbprobe-bench-'));
    const script = path.join(dir, 'select1.sql');
    writeFileSync(script, 'SELECT 1;\n');
    const out = execFileSync(
      'pgbench',
      [
        '-n',
        '-f',
        script,
        '-c',
        String(clients),
        '-j',
        '2',
        '-T',
        String(seconds),
        '-h',
        u.hostname,
        '-p',
        u.port,
        '-U',
        decodeURIComponent(u.username),
        u.pathname.slice(1),
      ],
      {
        env: { ...process.env, PGPASSWORD: decodeURIComponent(u.password) },
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    const tps = /tps = ([\d.]+)/.exec(out)?.[1];
    return tps === undefined ? `n/a (no transaction in ${seconds} s)` : Number(tps).toFixed(0);
  } catch (error) {
    return `n/a (${error instanceof Error ? error.message.split('\n')[0] : String(error)})`;
  }
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
type LoadRound = Record<number, { raw: number; tool: number }>;

const ratioAt = (rounds: readonly LoadRound[], level: number): number =>
  rounds.reduce((sum, round) => sum + round[level]!.tool, 0) /
  rounds.reduce((sum, round) => sum + round[level]!.raw, 0);

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
        const tool = async (): Promise<number> =>
          (await engine(url, { ...LOAD_DEFAULTS, levels: [level], durationS: SECONDS })).throughput;
        // Alternate which side goes first, so a warmer server or a leftover connection hits both alike.
        if (index % 2 === 0) {
          const raw = await rawPool(url, level, SECONDS);
          round[level] = { raw, tool: await tool() };
        } else {
          const t = await tool();
          round[level] = { raw: await rawPool(url, level, SECONDS), tool: t };
        }
      }
      return round;
    },
    figures: [
      ...LEVELS.map((level) => ({
        name: `load_ratio_${level}`,
        about: `engine closed-model q/s / raw pg.Pool q/s, SELECT 1, ${level} connections, ${SECONDS} s each`,
        value: (rounds: readonly LoadRound[]) => ratioAt(rounds, level),
      })),
      {
        name: 'load_ratio',
        about: `the lower of load_ratio_${LEVELS.join(' and load_ratio_')}`,
        value: (rounds) => Math.min(...LEVELS.map((level) => ratioAt(rounds, level))),
      },
    ],
    context: (rounds) =>
      Object.fromEntries(
        LEVELS.map((level) => [
          `connections=${level}`,
          `raw_pool_qps=${mean(rounds.map((r) => r[level]!.raw)).toFixed(0)} engine_qps=${mean(rounds.map((r) => r[level]!.tool)).toFixed(0)} pgbench_select1_tps=${pgbenchCeiling(url, level, Math.max(SECONDS, PGBENCH_MIN_SECONDS))}`,
        ]),
      ),
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
        const level = await engine(u.toString(), {
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
  await closedModel(url);
  const api = process.env.DBPROBE_TEST_TOXIPROXY_URL;
  if (!api) {
    console.log('open_model_accuracy=n/a (DBPROBE_TEST_TOXIPROXY_URL is not set)');
    return;
  }
  await openModel(url, api);
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

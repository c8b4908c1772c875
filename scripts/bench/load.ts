/**
 * Load benchmarks, printed, never asserted:
 * - `load_ratio=`: throughput of the engine's closed-model load against a raw pg.Pool loop of
 *   SELECT 1 with as many workers, at 16 and 64 connections, interleaved (raw, engine, raw, ...)
 *   in one process; `pgbench` with the same SELECT 1 on the same server is printed as a ceiling.
 * - `open_model_accuracy=`: the open model at a fixed rate against PostgreSQL behind toxiproxy with
 *   5 ms latency: achieved rate / asked rate, and the start lateness p99.
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

const LEVELS = [16, 64];
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 3);
const OPEN_RATE = Number(process.env.BENCH_OPEN_RATE ?? 200);

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
    return /tps = ([\d.]+)/.exec(out)?.[1] ?? 'n/a';
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

async function main(): Promise<void> {
  const url = process.env.DBPROBE_TEST_PG_URL;
  if (!url) throw new Error('DBPROBE_TEST_PG_URL is not set: run through `npm run bench:load`');
  const ratios: number[] = [];
  for (const level of LEVELS) {
    let raw = 0;
    let tool = 0;
    for (let round = 0; round < ROUNDS; round++) {
      raw += await rawPool(url, level, SECONDS);
      tool += (await engine(url, { ...LOAD_DEFAULTS, levels: [level], durationS: SECONDS })).throughput;
    }
    console.log(
      `connections=${level} raw_pool_qps=${(raw / ROUNDS).toFixed(0)} engine_qps=${(tool / ROUNDS).toFixed(0)} pgbench_select1_tps=${pgbenchCeiling(url, level, SECONDS)}`,
    );
    console.log(`load_ratio_${level}=${(tool / raw).toFixed(4)}`);
    ratios.push(tool / raw);
  }
  console.log(
    `load_ratio=${Math.min(...ratios).toFixed(4)} (the lower of ${LEVELS.join(' and ')} connections)`,
  );

  const api = process.env.DBPROBE_TEST_TOXIPROXY_URL;
  if (!api) {
    console.log('open_model_accuracy=n/a (DBPROBE_TEST_TOXIPROXY_URL is not set)');
    return;
  }
  const u = new URL(url);
  const proxy = await toxiProxy(api, `${u.hostname}:${u.port}`);
  try {
    u.port = String(proxy.port);
    const level = await engine(u.toString(), {
      ...LOAD_DEFAULTS,
      model: 'open',
      levels: [OPEN_RATE],
      connections: 8,
      durationS: SECONDS * 2,
    });
    const starts = level.starts!;
    console.log(
      `open model at ${OPEN_RATE}/s through 5 ms: started ${starts.started}/${starts.asked}, achieved ${starts.achievedRate}/s, late ${starts.late}, lateness p50 ${starts.latenessP50Us} us p99 ${starts.latenessP99Us} us, corrected p99 ${level.corrected?.p99Us} us`,
    );
    console.log(`open_model_lateness_p99_us=${starts.latenessP99Us}`);
    console.log(`open_model_accuracy=${(starts.achievedRate / OPEN_RATE).toFixed(4)}`);
  } finally {
    await proxy.remove();
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});

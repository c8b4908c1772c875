/**
 * Soak: every testbed driver probed over and over for SOAK_SECONDS (default 300) while toxiproxy
 * toggles latency, resets, hangs and trickling on every link. Prints samples, errors by class,
 * connections left open at the end (must be 0) and RSS at the start and the end.
 *
 *   npm run bench:soak                 (starts the testbed if needed)
 *   SOAK_SECONDS=60 npm run bench:soak
 *
 * Each target reaches its server through toxiproxy and then a counting TCP pass-through, so a
 * connection the engine forgot would still be open at the counter after the run.
 */
import { randomBytes } from 'node:crypto';
import * as os from 'node:os';
import * as path from 'node:path';
import { runPlan } from '../../src/core/engine';
import { createRegistry } from '../../src/drivers/registry';
import { PLAN_DEFAULTS, type PlanSpec } from '../../src/shared/plan';
import { startCountingProxy, type CountingProxy } from '../../test/fixtures/countingProxy';
import { startHranaStandIn } from '../../test/fixtures/hranaStandIn';
import { startNeonHttpStandIn } from '../../test/fixtures/neonHttpStandIn';
import { startPostgrestStandIn } from '../../test/fixtures/postgrestStandIn';
import { createToxiProxy, type ToxiProxy } from '../../test/fixtures/toxiproxy';
import { startUpstashStandIn } from '../../test/fixtures/upstashStandIn';
import { testbedEnv, withUrl } from '../../test/helpers/testbed';
import { tempDir } from '../../test/helpers/tempDir';
import { loadAverage } from './machine';
import { parseFigureLines, writeSingleRun } from './singleRun';

const SECONDS = Math.min(Math.max(Number(process.env.SOAK_SECONDS ?? 300), 5), 3_600);
const TOGGLE_EVERY_MS = 3_000;
const TOKEN = `soak-${randomBytes(8).toString('hex')}`;

interface Link {
  name: string;
  driver: string;
  counter: CountingProxy;
  toxi: ToxiProxy;
  target: (port: number) => { url: string; query?: string; options?: Record<string, unknown> };
  toxic?: { type: string; stream: 'upstream' | 'downstream' };
}

const hostPort = (url: string) => {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port) };
};
const onPort = (url: string, port: number) => withUrl(url, (u) => (u.port = String(port)));

/** A toxic picked at random: mostly a healthy link, sometimes a slow, broken, hung or trickling one. */
const TOXICS: { weight: number; type?: string; attributes?: Record<string, number> }[] = [
  { weight: 5 },
  { weight: 2, type: 'latency', attributes: { latency: 20, jitter: 5 } },
  { weight: 1, type: 'reset_peer', attributes: { timeout: 50 } },
  { weight: 1, type: 'timeout', attributes: { timeout: 0 } },
  { weight: 1, type: 'slicer', attributes: { average_size: 8, size_variation: 4, delay: 2_000 } },
  { weight: 1, type: 'bandwidth', attributes: { rate: 4 } },
];

function pickToxic(): (typeof TOXICS)[number] {
  const total = TOXICS.reduce((sum, t) => sum + t.weight, 0);
  let roll = Math.random() * total;
  for (const toxic of TOXICS) {
    roll -= toxic.weight;
    if (roll < 0) return toxic;
  }
  return TOXICS[0]!;
}

async function toggle(link: Link): Promise<void> {
  if (link.toxic) await link.toxi.removeToxic(link.toxic.type, link.toxic.stream);
  link.toxic = undefined;
  const toxic = pickToxic();
  if (!toxic.type) return;
  await link.toxi.addToxic(toxic.type, toxic.attributes ?? {}, 'downstream');
  link.toxic = { type: toxic.type, stream: 'downstream' };
}

async function main(): Promise<void> {
  const startedAtMs = Date.now();
  const loadAverageStart = loadAverage();
  const toxiproxyUrl = testbedEnv('DBPROBE_TEST_TOXIPROXY_URL');
  const pgUrl = testbedEnv('DBPROBE_TEST_PG_URL');
  const neonHttp = await startNeonHttpStandIn();
  const hrana = await startHranaStandIn({ file: path.join(tempDir('soak'), 'soak.db'), token: TOKEN });
  const upstash = await startUpstashStandIn(testbedEnv('DBPROBE_TEST_REDIS_URL'), TOKEN);
  const postgrest = await startPostgrestStandIn(pgUrl, TOKEN);
  const specs: Omit<Link, 'counter' | 'toxi'>[] & { upstream?: never }[] = [];
  const upstreams: { host: string; port: number }[] = [];
  const add = (link: Omit<Link, 'counter' | 'toxi'>, upstream: { host: string; port: number }) => {
    specs.push(link);
    upstreams.push(upstream);
  };
  add({ name: 'pg', driver: 'pg', target: (p) => ({ url: onPort(pgUrl, p) }) }, hostPort(pgUrl));
  const mysqlUrl = testbedEnv('DBPROBE_TEST_MYSQL_URL');
  add(
    { name: 'mysql2', driver: 'mysql2', target: (p) => ({ url: onPort(mysqlUrl, p) }) },
    hostPort(mysqlUrl),
  );
  const redisUrl = testbedEnv('DBPROBE_TEST_REDIS_URL');
  add(
    { name: 'ioredis', driver: 'ioredis', target: (p) => ({ url: onPort(redisUrl, p) }) },
    hostPort(redisUrl),
  );
  const mongoUrl = testbedEnv('DBPROBE_TEST_MONGO_URL');
  add(
    { name: 'mongodb', driver: 'mongodb', target: (p) => ({ url: onPort(mongoUrl, p) }) },
    hostPort(mongoUrl),
  );
  const psUrl = testbedEnv('DBPROBE_TEST_PS_URL');
  add(
    { name: 'planetscale', driver: 'planetscale', target: (p) => ({ url: onPort(psUrl, p) }) },
    hostPort(psUrl),
  );
  add(
    {
      name: 'neon-ws',
      driver: 'neon-ws',
      target: (p) => ({
        url: pgUrl,
        options: { wsProxy: `127.0.0.1:${p}/v1`, useSecureWebSocket: false, pipelineConnect: false },
      }),
    },
    { host: '127.0.0.1', port: Number(testbedEnv('DBPROBE_TEST_WEBSOCKIFY_PORT')) },
  );
  add(
    {
      name: 'neon-http',
      driver: 'neon-http',
      target: (p) => ({ url: pgUrl, options: { fetchEndpoint: `http://127.0.0.1:${p}/sql` } }),
    },
    { host: '127.0.0.1', port: neonHttp.port },
  );
  add(
    {
      name: 'libsql',
      driver: 'libsql',
      target: (p) => ({ url: `http://127.0.0.1:${p}?authToken=${TOKEN}` }),
    },
    { host: '127.0.0.1', port: hrana.port },
  );
  add(
    {
      name: 'upstash',
      driver: 'upstash',
      target: (p) => ({ url: `http://default:${TOKEN}@127.0.0.1:${p}` }),
    },
    { host: '127.0.0.1', port: upstash.port },
  );
  add(
    {
      name: 'http',
      driver: 'http',
      target: (p) => ({
        url: `http://apikey:${TOKEN}@127.0.0.1:${p}/rest/v1`,
        query: 'GET /pg_namespace?limit=1',
      }),
    },
    { host: '127.0.0.1', port: postgrest.port },
  );

  const links: Link[] = [];
  for (const [i, spec] of specs.entries()) {
    const upstream = upstreams[i]!;
    const counter = await startCountingProxy(upstream.host, upstream.port);
    const toxi = await createToxiProxy(
      toxiproxyUrl,
      `127.0.0.1:${counter.port}`,
      `soak${spec.name.replace(/\W/g, '')}`,
    );
    links.push({ ...spec, counter, toxi });
  }

  const rssStartMb = process.memoryUsage().rss / 2 ** 20;
  const started = performance.now();
  const deadline = started + SECONDS * 1_000;
  const errorsByClass: Record<string, number> = {};
  let samples = 0;
  let runs = 0;
  let rssPeakMb = rssStartMb;
  const states: Record<string, number> = {};
  /** A few messages of errors nothing classified: each is a gap in some driver's classify(). */
  const unclassified = new Set<string>();
  const toggler = setInterval(() => {
    for (const link of links) void toggle(link).catch(() => undefined);
  }, TOGGLE_EVERY_MS);
  const urls = new Map<string, string>();
  try {
    while (performance.now() < deadline) {
      const plan: PlanSpec = {
        ...PLAN_DEFAULTS,
        targets: links.map((link) => {
          const { url, ...rest } = link.target(link.toxi.port);
          urls.set(link.name, url);
          return { name: link.name, driver: link.driver, connection: `env:SOAK_${link.name}`, ...rest };
        }),
        kinds: ['initial', 'subsequent'],
        iterations: 5,
        warmup: 0,
        // The run limit ends the last run on time (as timedOut), which the soak exercises too.
        timeouts: {
          ...PLAN_DEFAULTS.timeouts,
          connectMs: 2_000,
          queryMs: 2_000,
          runMs: Math.max(1_000, Math.min(30_000, deadline - performance.now())),
        },
      };
      const result = await runPlan(plan, {
        registry: createRegistry(),
        resolveConnection: async (target) => urls.get(target.name) ?? '',
        tool: { name: 'dbprobe-soak', version: 'bench' },
        watchClient: false,
      });
      runs++;
      states[result.state] = (states[result.state] ?? 0) + 1;
      for (const m of result.measurements) {
        for (const failure of m.firstErrors) {
          if (failure.class === 'unknown' && unclassified.size < 5)
            unclassified.add(`${m.target}: ${failure.message}`);
        }
        samples += m.stats.count;
        for (const [errorClass, count] of Object.entries(m.errorsByClass)) {
          errorsByClass[errorClass] = (errorsByClass[errorClass] ?? 0) + (count ?? 0);
        }
      }
      rssPeakMb = Math.max(rssPeakMb, process.memoryUsage().rss / 2 ** 20);
      const elapsed = Math.round((performance.now() - started) / 1_000);
      process.stderr.write(`\r[soak] ${elapsed}/${SECONDS} s, ${runs} runs, ${samples} samples   `);
    }
  } finally {
    clearInterval(toggler);
  }
  process.stderr.write('\n');
  for (const link of links) if (link.toxic) await link.toxi.removeToxic(link.toxic.type, link.toxic.stream);
  // Give closing sockets the engine's close grace (1 s) and a margin.
  await new Promise((r) => setTimeout(r, 2_000));
  const leaked = links.map((link) => ({ name: link.name, open: link.counter.stats().open }));
  const leakedTotal = leaked.reduce((sum, l) => sum + l.open, 0);
  const rssEndMb = process.memoryUsage().rss / 2 ** 20;

  // Printed and saved alike: every `name=value` line below also goes to bench-results/soak.json.
  let printed = '';
  const print = (line: string) => {
    console.log(line);
    printed += `${line}\n`;
  };
  console.log(`machine=${os.cpus().length}x ${os.cpus()[0]?.model ?? 'cpu'}, node ${process.version}`);
  print(`soak_seconds=${SECONDS}`);
  print(`soak_runs=${runs}`);
  print(`soak_samples=${samples}`);
  console.log(`soak_run_states=${JSON.stringify(states)}`);
  for (const message of unclassified) console.log(`unclassified: ${message.slice(0, 200)}`);
  for (const [errorClass, count] of Object.entries(errorsByClass).sort()) {
    print(`soak_errors_${errorClass}=${count}`);
  }
  for (const l of leaked) if (l.open > 0) print(`leaked_${l.name}=${l.open}`);
  print(`soak_leaked_connections=${leakedTotal}`);
  print(`rss_start_mb=${rssStartMb.toFixed(0)}`);
  print(`rss_peak_mb=${rssPeakMb.toFixed(0)}`);
  print(`rss_end_mb=${rssEndMb.toFixed(0)}`);

  const file = writeSingleRun({
    bench: 'soak',
    command: 'npm run bench:soak',
    startedAtMs,
    loadAverageStart,
    figures: parseFigureLines(printed),
    context: { soak_run_states: JSON.stringify(states), unclassified_errors: unclassified.size },
  });
  console.log(`wrote ${path.relative(process.cwd(), file)}`);

  await Promise.all(links.map(async (link) => Promise.all([link.toxi.remove(), link.counter.close()])));
  await Promise.all([neonHttp.close(), hrana.close(), upstash.close(), postgrest.close()]);
  process.exitCode = leakedTotal === 0 ? 0 : 1;
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

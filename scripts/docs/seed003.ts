/**
 * Reproduces seed 003 ("Faster MySQL with HTTP/3", PlanetScale) on the testbed and writes the table
 * of docs/recipes/seed-003.md from the run, never by hand: connect + `SELECT 1` (`initial`) and a warm
 * `SELECT 1` (`subsequent`) over the MySQL protocol (mysql2, TLS 1.2 as the seed's client
 * negotiated), over HTTP/1.1 and over HTTP/2 (TLS 1.3) to ps-http-sim behind the testbed's nginx
 * front, each direct and through toxiproxy with 40 ms added to every server answer.
 *
 * Run: `. /tmp/dbprobe-testbed/env.sh && node --import tsx scripts/docs/seed003.ts`
 * (the testbed with its h2front service: `bash scripts/testbed/up.sh`).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { runPlan } from '../../src/core/engine';
import { createRegistry } from '../../src/drivers/registry';
import { PLAN_DEFAULTS, type PlanSpec, type TargetSpec } from '../../src/shared/plan';
import type { Measurement, RunResult } from '../../src/shared/result';
import { ms } from '../../src/shared/units';
import { createToxiProxy, type ToxiProxy } from '../../test/fixtures/toxiproxy';

const DOC = path.join(__dirname, '../../docs/recipes/seed-003.md');
const BEGIN = '<!-- seed003:begin (scripts/docs/seed003.ts writes this part) -->';
const END = '<!-- seed003:end -->';
const INJECTED_MS = 40;
const ITERATIONS = 20;

function env(name: string): string {
  const value = process.env[name];
  if (!value)
    throw new Error(`${name} is not set: source /tmp/dbprobe-testbed/env.sh (bash scripts/testbed/up.sh)`);
  return value;
}

function viaPort(url: string, port: number): string {
  const u = new URL(url);
  u.port = String(port);
  return u.toString();
}

interface Transport {
  label: string;
  driver: string;
  url: string;
  http?: TargetSpec['http'];
  maxVersion?: '1.2' | '1.3';
}

async function main(): Promise<void> {
  const ca = env('DBPROBE_TEST_CA_FILE');
  const transports: Transport[] = [
    {
      label: 'MySQL protocol (mysql2, TLS 1.2)',
      driver: 'mysql2',
      url: env('DBPROBE_TEST_MYSQL_TLS_URL'),
      maxVersion: '1.2',
    },
    {
      label: 'HTTP/1.1 (planetscale, TLS 1.3)',
      driver: 'planetscale',
      url: env('DBPROBE_TEST_H2_PS_URL'),
      http: { version: '1.1' },
    },
    {
      label: 'HTTP/2 (planetscale, TLS 1.3)',
      driver: 'planetscale',
      url: env('DBPROBE_TEST_H2_PS_URL'),
      http: { version: '2' },
    },
  ];
  const proxies: ToxiProxy[] = [];
  const urls = new Map<string, string>();
  const targets: TargetSpec[] = [];
  try {
    for (const t of transports) {
      const upstream = new URL(t.url).host;
      for (const injected of [0, INJECTED_MS]) {
        const proxy = await createToxiProxy(
          env('DBPROBE_TEST_TOXIPROXY_URL'),
          upstream,
          `seed003_${injected}`,
        );
        proxies.push(proxy);
        if (injected > 0) await proxy.addToxic('latency', { latency: injected, jitter: 0 }, 'downstream');
        const name = `${t.label} +${injected} ms`;
        urls.set(name, viaPort(t.url, proxy.port));
        targets.push({
          name,
          driver: t.driver,
          connection: `env:SEED003_${targets.length}`,
          query: 'SELECT 1',
          tls: { caFile: ca, ...(t.maxVersion ? { maxVersion: t.maxVersion } : {}) },
          ...(t.http ? { http: t.http } : {}),
        });
      }
    }
    const plan: PlanSpec = {
      ...PLAN_DEFAULTS,
      targets,
      kinds: ['initial', 'subsequent'],
      iterations: ITERATIONS,
      warmup: 2,
      order: 'interleaved',
    };
    const result = await runPlan(plan, {
      registry: createRegistry(),
      resolveConnection: async (target) => urls.get(target.name) ?? '',
      tool: { name: 'dbprobe', version: 'seed003 recipe' },
      watchClient: true,
    });
    writeDoc(result);
  } finally {
    await Promise.all(proxies.map((p) => p.remove()));
  }
}

function figures(result: RunResult, target: string, kind: string): Measurement | undefined {
  return result.measurements.find((m) => m.target === target && m.kind === kind);
}

function writeDoc(result: RunResult): void {
  const rows = result.targets.map((t) => {
    const initial = figures(result, t.name, 'initial');
    const subsequent = figures(result, t.name, 'subsequent');
    const cell = (m: Measurement | undefined) =>
      m && m.stats.count > 0 ? ms(m.stats.p50Us) : `failed (${m?.firstErrors[0]?.class ?? 'no samples'})`;
    const w = initial?.wire;
    return `| ${t.name} | ${cell(initial)} | ${cell(subsequent)} | ${w?.roundTrips ?? '-'} | ${subsequent?.wire?.roundTrips ?? '-'} | ${w?.tcpHandshakes ?? '-'} | ${w?.tlsVersion ?? '-'} | ${w?.alpn ?? '-'} |`;
  });
  const table = [
    BEGIN,
    '',
    `Run on ${result.startedAt} by \`node --import tsx scripts/docs/seed003.ts\`: ${ITERATIONS} samples per target and kind after 2 warm-up, targets interleaved, on ${os.cpus().length} x ${os.cpus()[0]?.model.trim() ?? 'CPU'} (Node ${process.version}, load average ${os.loadavg()[0]?.toFixed(1)} at the end). p50 in ms; round trips are the medians counted on each sample's own sockets (\`wire.roundTrips\`).`,
    '',
    '| target | connect + SELECT 1 (initial) p50 | SELECT 1 (subsequent) p50 | round trips, initial | round trips, subsequent | TCP handshakes | TLS | ALPN |',
    '| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |',
    ...rows,
    '',
    ...(result.client.note ? [`Client watch: ${result.client.note}`, ''] : []),
    END,
  ].join('\n');
  const doc = readFileSync(DOC, 'utf8');
  const from = doc.indexOf(BEGIN);
  const to = doc.indexOf(END);
  if (from < 0 || to < from) throw new Error(`${DOC} has no ${BEGIN} ... ${END} section`);
  writeFileSync(DOC, doc.slice(0, from) + table + doc.slice(to + END.length));
  console.log(table);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});

/**
 * The bench's independent figure for an ORM layer's cost (scripts/bench/verdict.ts runs it as a
 * process of its own, once after each of the tool's runs): raw pg and the layer over the same pg
 * Clients (`connections` of them, each with its own layer instance, taken in turn as an app's pool
 * would), after WARMUP_PAIRS untimed pairs, taking turns for as many rounds as the tool took
 * samples a side (so one process's figure spreads as one run's does), timed with hrtime, with
 * `gapUs` of computing between queries as the tool's samples were spaced. No engine, no sampling, no
 * statistics of the tool's: prints one line of JSON, `{ "rawUs", "layeredUs", "overheadUs",
 * "warmupPairs" }`: the two p50s, the median of the rounds' differences (layer minus raw, each round
 * on one client; the tool's figure for a layer) and the untimed pairs before them.
 *
 * Usage: node --import tsx scripts/bench/ormPlainLoop.ts drizzle|kysely|prisma CONNECTIONS GAP_US ROUNDS
 * (DBPROBE_TEST_PG_URL names the server).
 */
import * as path from 'node:path';
import type { LayerSession } from '../../src/drivers/layers/layerSession';

type Layer = 'drizzle' | 'kysely' | 'prisma';
const ROOT = path.resolve(__dirname, '..', '..');
const WARMUP_PAIRS = 8_000;

interface PgClient {
  connect(): Promise<void>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}

/** Computes for `us` microseconds (a pause that keeps the thread busy, as bookkeeping does). */
function spin(us: number): void {
  const end = process.hrtime.bigint() + BigInt(Math.round(us * 1000));
  while (process.hrtime.bigint() < end);
}

function median(values: readonly number[]): number {
  const sorted = [...values].sort((x, y) => x - y);
  return sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)]!;
}

async function plainLoop(layer: Layer, connections: number, gapUs: number, rounds: number, url: string) {
  const { Client } = (await import('pg')) as unknown as { Client: new (o: object) => PgClient };
  const { startDrizzle } = await import('../../src/drivers/layers/drizzleLayer');
  const { startKysely } = await import('../../src/drivers/layers/kyselyLayer');
  const { startPrisma } = await import('../../src/drivers/layers/prismaLayer');
  const { layerImports } = await import('../../src/drivers/layers/layerImport');
  const start = { drizzle: startDrizzle, kysely: startKysely, prisma: startPrisma }[layer];
  const clients: PgClient[] = [];
  const sessions: LayerSession[] = [];
  const raw: number[] = [];
  const layered: number[] = [];
  /** Per round: the layer's time minus raw pg's, on the same client back to back. */
  const differences: number[] = [];
  try {
    for (let c = 0; c < connections; c++) {
      const client = new Client({ connectionString: url });
      await client.connect();
      clients.push(client);
      sessions.push(await start('pg', client, layerImports(layer, { projectDirs: [ROOT] })));
    }
    // The first WARMUP_PAIRS rounds are untimed, past where each layer's cost stops falling in one
    // process (kysely within about 2,000 pairs, drizzle and Prisma about 5,000), and they run
    // through the same loop body as the timed rounds: the figure is the steady one, whatever
    // warm-up the tool chose, with no cold code path of the loop's own at the start of the timed
    // rounds.
    for (let i = 0; i < WARMUP_PAIRS + rounds; i++) {
      const client = clients[i % connections]!;
      const session = sessions[i % connections]!;
      // Turn and turn about, as the tool does, so neither always follows the other.
      const order = Math.floor(i / connections) % 2 === 0;
      let rawUs = 0;
      let layeredUs = 0;
      for (const side of order ? [0, 1] : [1, 0]) {
        const t0 = process.hrtime.bigint();
        if (side === 0) await client.query('SELECT 1');
        else await session.query('SELECT 1');
        const us = Number(process.hrtime.bigint() - t0) / 1000;
        if (side === 0) rawUs = us;
        else layeredUs = us;
        spin(gapUs);
      }
      if (i < WARMUP_PAIRS) continue;
      raw.push(rawUs);
      layered.push(layeredUs);
      differences.push(layeredUs - rawUs);
    }
  } finally {
    for (const session of sessions) await session.close();
    for (const client of clients) await client.end();
  }
  // The tool's figure for a layer is the median of its rounds' differences: the same here.
  return {
    rawUs: median(raw),
    layeredUs: median(layered),
    overheadUs: median(differences),
    warmupPairs: WARMUP_PAIRS,
  };
}

async function main(): Promise<void> {
  // tsx turns source maps on, and then every Error stack a query path makes costs a lookup: with
  // them on, drizzle's cost read ~3 µs (15%) higher here than in the tool's bundle (which runs
  // without). The loop stands for an app's process, run without them.
  process.setSourceMapsEnabled(false);
  const [layer, connections, gapUs, rounds] = process.argv.slice(2);
  if (layer !== 'drizzle' && layer !== 'kysely' && layer !== 'prisma')
    throw new Error('usage: ormPlainLoop.ts drizzle|kysely|prisma CONNECTIONS GAP_US ROUNDS');
  const url = process.env.DBPROBE_TEST_PG_URL;
  if (!url) throw new Error('DBPROBE_TEST_PG_URL names the server');
  const count = Math.max(1, Math.min(16, Number(connections) || 1));
  const gap = Math.max(0, Math.min(10_000, Number(gapUs) || 0));
  const roundCount = Math.max(100, Math.min(5_000, Number(rounds) || 1_500));
  console.log(JSON.stringify(await plainLoop(layer, count, gap, roundCount, url)));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

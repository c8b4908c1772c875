/**
 * The bench's plain loop for an ORM layer's cost, with no engine in it: raw pg and the layer over the
 * same pg Clients (`connections` of them, each with its own layer instance, taken in turn as an
 * app's pool would), after `warmupPairs` untimed pairs, taking turns for `rounds` rounds, timed with
 * hrtime around an `await`, with `gapUs` of work between queries as the tool's samples were spaced
 * (GapWork). Run as a process of its own (ormPlainLoop.ts) and in turns with the engine in one
 * process (ormInProcess.ts).
 */
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import type { LayerSession } from '../../src/drivers/layers/layerSession';
import { median } from './medians';

export type Layer = 'drizzle' | 'kysely' | 'prisma';
const ROOT = path.resolve(__dirname, '..', '..');
/** Untimed pairs before a fresh process's timed rounds (see the loop's comment). */
export const WARMUP_PAIRS = 20_000;

interface PgClient {
  connect(): Promise<void>;
  query(text: string): Promise<unknown>;
  end(): Promise<void>;
}

/**
 * What the loop does between queries, for as long as the tool's samples were apart: `touch` walks a
 * buffer larger than the core's L2 cache a line at a time, as an app's own code between queries
 * displaces what the layer left in the core's caches (and as the tool's bookkeeping between samples
 * does); `spin` reads the clock and touches nothing, so the layer's code and data stay cached (the
 * floor of its cost: on a 2-vCPU Xeon, Prisma's read ~60 µs a query this way, ~75 µs touching).
 */
export type GapWork = 'touch' | 'spin';

/** Twice the core's L2 (sysfs), 4 MiB where it cannot be read: every line the walk touches is a miss. */
function walkBytes(): number {
  try {
    const size = readFileSync('/sys/devices/system/cpu/cpu0/cache/index2/size', 'utf8').trim();
    const kib = /^(\d+)K$/.exec(size)?.[1];
    if (kib) return Math.min(64 << 20, 2 * Number(kib) * 1024);
  } catch {
    // Not Linux, or no cache description: the default.
  }
  return 4 << 20;
}

const CACHE_LINE = 64;
let walk: Uint8Array | undefined;
let walkAt = 0;

/** Busy for `us` microseconds, in the way `work` says. */
function between(us: number, work: GapWork): void {
  const end = process.hrtime.bigint() + BigInt(Math.round(us * 1000));
  if (work === 'spin') {
    while (process.hrtime.bigint() < end);
    return;
  }
  const buffer = (walk ??= new Uint8Array(walkBytes()));
  while (process.hrtime.bigint() < end) {
    for (let k = 0; k < 64; k++) {
      buffer[walkAt] = (buffer[walkAt]! + 1) & 255;
      walkAt = (walkAt + CACHE_LINE) % buffer.length;
    }
  }
}

export interface PlainLoopFigures {
  /** The two p50s, µs. */
  rawUs: number;
  layeredUs: number;
  /** The median of the rounds' differences (layer minus raw, each round on one client): the tool's figure for a layer. */
  overheadUs: number;
  /** The untimed pairs the loop ran first. */
  warmupPairs: number;
}

export async function plainLoop(
  layer: Layer,
  connections: number,
  gapUs: number,
  rounds: number,
  url: string,
  warmupPairs = WARMUP_PAIRS,
  work: GapWork = 'touch',
): Promise<PlainLoopFigures> {
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
    // The first warmupPairs rounds are untimed, past where each layer's cost stops falling in one
    // process (kysely within about 2,000 pairs, drizzle and Prisma about 5,000), and they run
    // through the same loop body as the timed rounds: the figure is the steady one, whatever
    // warm-up the tool chose, with no cold code path of the loop's own at the start of the timed
    // rounds.
    for (let i = 0; i < warmupPairs + rounds; i++) {
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
        between(gapUs, work);
      }
      if (i < warmupPairs) continue;
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
    warmupPairs,
  };
}

/**
 * The bench's independent figure for an ORM layer's cost as a process of its own
 * (scripts/bench/verdict.ts runs it once after each of the tool's runs): the plain loop of
 * ormLoop.ts, with no engine, no sampling and no statistics of the tool's. Prints one line of JSON,
 * `{ "rawUs", "layeredUs", "overheadUs", "warmupPairs" }`.
 *
 * Usage: node --import tsx scripts/bench/ormPlainLoop.ts drizzle|kysely|prisma CONNECTIONS GAP_US ROUNDS [WARMUP_PAIRS]
 * (DBPROBE_TEST_PG_URL names the server).
 */
import { plainLoop } from './ormLoop';

async function main(): Promise<void> {
  // tsx turns source maps on, and then every Error stack a query path makes costs a lookup: with
  // them on, drizzle's cost read ~3 µs (15%) higher here than in the tool's bundle (which runs
  // without). The loop stands for an app's process, run without them.
  process.setSourceMapsEnabled(false);
  const [layer, connections, gapUs, rounds, warmupPairs] = process.argv.slice(2);
  if (layer !== 'drizzle' && layer !== 'kysely' && layer !== 'prisma')
    throw new Error('usage: ormPlainLoop.ts drizzle|kysely|prisma CONNECTIONS GAP_US ROUNDS');
  const url = process.env.DBPROBE_TEST_PG_URL;
  if (!url) throw new Error('DBPROBE_TEST_PG_URL names the server');
  const count = Math.max(1, Math.min(16, Number(connections) || 1));
  const gap = Math.max(0, Math.min(10_000, Number(gapUs) || 0));
  const roundCount = Math.max(100, Math.min(5_000, Number(rounds) || 1_500));
  const warmup =
    warmupPairs === undefined ? undefined : Math.max(0, Math.min(100_000, Number(warmupPairs) || 0));
  console.log(JSON.stringify(await plainLoop(layer, count, gap, roundCount, url, warmup)));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});

/**
 * What reading the database's own time per sample costs a warm query: the engine's `subsequent` p50
 * with the driver reading it against the same driver's path without, in rounds (each a block of each
 * side per driver, their order alternating), written to bench-results/overhead-server-time.json by
 * `npm run bench:overhead`. A ratio whose 95% interval holds 1 (or lies within a percent of it) is a
 * cost the run could not establish.
 *
 * - PlanetScale's `timing` (the testbed's ps-http-sim before MariaDB): the client parses the answer
 *   whole either way, so "without" is the same driver with the field ignored: its connections carry
 *   no serverTimeOf, and the engine neither reads nor records a figure.
 * - libSQL's `query_duration_ms` (the Hrana stand-in of test/fixtures in a process of its own, which
 *   reports it as libsql-server does): reading it hooks the client's fetch to see the parsed answer,
 *   so "without" is `libsqlDriverUnread`, the driver with no hook (an internal switch, no user option).
 *
 * Each block checks its side: the reading side must have recorded the database time, the other none,
 * so the two can never silently be the same path.
 */
import * as path from 'node:path';
import type { Driver, DriverRegistry } from '../../src/core/driver';
import { libsqlDriverUnread } from '../../src/drivers/libsql';
import { createRegistry } from '../../src/drivers/registry';
import { isServerTimeGiven } from '../../src/shared/serverTime';
import { spawnStandIn } from '../../test/fixtures/standInProcess';
import { engineBlock } from './engineBlock';
import { grid, percentileOf, type Grid } from './grid';
import { measureInRounds } from './rounds';

const BLOCK = Number(process.env.BENCH_SERVER_TIME_BLOCK ?? 50);
const WARMUP = 5;
const DRIVERS = ['planetscale', 'libsql'] as const;
type Measured = (typeof DRIVERS)[number];
type Side = 'reading' | 'unread';

type Round = Record<Measured, Record<Side, Grid> & { serverUs: number }>;

/** The same driver with its connections' serverTimeOf dropped: the answer's field ignored. */
function fieldIgnored(driver: Driver): Driver {
  return {
    ...driver,
    serverTime: undefined,
    connect: async (options) => {
      const { serverTimeOf: _ignored, ...connection } = await driver.connect(options);
      return connection;
    },
  };
}

/** A registry whose drivers do not read the database's time (libsql through its internal switch). */
function unreadRegistry(base: DriverRegistry): DriverRegistry {
  return {
    ...base,
    load: async (id) => {
      const driver = await base.load(id);
      return id === 'libsql' ? libsqlDriverUnread : fieldIgnored(driver);
    },
  };
}

/** One engine block of `subsequent` samples; checks that the side read (or did not read) the database time. */
async function block(
  driver: Measured,
  url: string,
  registry: DriverRegistry,
  side: Side,
): Promise<{ samples: number[]; serverUs?: number }> {
  const m = await engineBlock(driver, url, registry, BLOCK, WARMUP);
  const server = m.serverTime;
  const given = isServerTimeGiven(server);
  if (given !== (side === 'reading'))
    throw new Error(
      `${driver} ${side}: the database time was ${given ? 'read' : 'not read'} (${JSON.stringify(m.serverTime)})`,
    );
  const samples: number[] = [];
  for (const s of m.samples.values) if (s.us !== undefined) samples.push(s.us);
  return { samples, ...(isServerTimeGiven(server) ? { serverUs: server.p50Us } : {}) };
}

const p50 = (rounds: readonly Round[], driver: Measured, side: Side) =>
  percentileOf(rounds, (round) => round[driver][side], 50);

export async function measureServerTimeOverhead(): Promise<void> {
  const psUrl = process.env.DBPROBE_TEST_PS_URL;
  if (!psUrl) throw new Error('DBPROBE_TEST_PS_URL is not set: run through `npm run bench:overhead`');
  const hrana = await spawnStandIn('hrana', 15_000, path.resolve('test', 'fixtures'));
  try {
    const urls: Record<Measured, string> = { planetscale: psUrl, libsql: hrana.endpoint };
    const registries: Record<Side, DriverRegistry> = {
      reading: createRegistry(),
      unread: unreadRegistry(createRegistry()),
    };
    // Untimed first: loading each driver and compiling both paths.
    for (const driver of DRIVERS)
      for (const side of ['reading', 'unread'] as const)
        await block(driver, urls[driver], registries[side], side);
    await measureInRounds<Round>({
      bench: 'overhead-server-time',
      command: 'npm run bench:overhead',
      minRounds: Number(process.env.BENCH_MIN_ROUNDS ?? 30),
      maxRounds: Number(process.env.BENCH_MAX_ROUNDS ?? 5_000),
      timeCapS: Number(process.env.BENCH_SERVER_TIME_CAP_S ?? 150),
      checkEvery: 11,
      round: async (index) => {
        const round = {} as Round;
        for (const driver of DRIVERS) {
          // Alternate which side goes first, so whatever one block leaves behind hits both alike.
          const order: Side[] = index % 2 === 0 ? ['reading', 'unread'] : ['unread', 'reading'];
          const got = {} as Record<Side, { samples: number[]; serverUs?: number }>;
          for (const side of order) got[side] = await block(driver, urls[driver], registries[side], side);
          round[driver] = {
            reading: grid(got.reading.samples),
            unread: grid(got.unread.samples),
            serverUs: got.reading.serverUs ?? NaN,
          };
        }
        return round;
      },
      figures: [
        {
          name: 'server_time_planetscale_ratio',
          about: `engine p50 reading PlanetScale's \`timing\` per sample / the same driver with it ignored, SELECT 1 through ps-http-sim, blocks of ${BLOCK}`,
          value: (rounds) => p50(rounds, 'planetscale', 'reading') / p50(rounds, 'planetscale', 'unread'),
        },
        {
          name: 'server_time_hrana_ratio',
          about: `engine p50 reading libSQL's \`query_duration_ms\` per sample / the driver without its fetch hook, SELECT 1 through the Hrana stand-in, blocks of ${BLOCK}`,
          value: (rounds) => p50(rounds, 'libsql', 'reading') / p50(rounds, 'libsql', 'unread'),
        },
      ],
      context: (rounds) => {
        const median = (values: number[]) =>
          values.sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? NaN;
        const figures: Record<string, string | number> = { samples_per_side: rounds.length * BLOCK };
        for (const driver of DRIVERS) {
          figures[`${driver}_reading_p50_us`] = p50(rounds, driver, 'reading').toFixed(1);
          figures[`${driver}_unread_p50_us`] = p50(rounds, driver, 'unread').toFixed(1);
          figures[`${driver}_database_p50_us`] =
            `${median(rounds.map((r) => r[driver].serverUs)).toFixed(1)} (the median over rounds of each block's p50 read)`;
        }
        return figures;
      },
    });
  } finally {
    await hrana.stop();
  }
}

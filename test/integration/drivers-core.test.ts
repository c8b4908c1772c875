/**
 * The first four drivers x {initial, subsequent} against real servers on 127.0.0.1, through the
 * engine. Counts connections on the server: `initial` must open one per sample, `subsequent` one.
 */
import assert from 'node:assert/strict';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { readdirSync, readlinkSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import type { DriverRegistry } from '../../src/core/driver';
import { runPlan } from '../../src/core/engine';
import { createRegistry } from '../../src/drivers/registry';
import { PLAN_DEFAULTS, type PlanSpec, type ProbeKind } from '../../src/shared/plan';
import type { RunResult } from '../../src/shared/result';
import { assertMatchesSchema } from '../helpers/schema';
import { mysqlCounter, pgCounter, redisCounter, type ConnectionCounter } from '../helpers/serverCounters';
import { assertNoSecret, testbedEnv } from '../helpers/testbed';
import { tempDir } from '../helpers/tempDir';

const ITERATIONS = 25;
const WARMUP = 3;

async function probe(
  driver: string,
  url: string,
  kind: ProbeKind,
  registry: DriverRegistry = createRegistry(),
): Promise<RunResult> {
  const plan: PlanSpec = {
    ...PLAN_DEFAULTS,
    targets: [{ name: `${driver} target`, driver, connection: 'env:URL' }],
    kinds: [kind],
    iterations: ITERATIONS,
    warmup: WARMUP,
    // Each sample's connections are counted: one warm connection, as a driver keeps it.
    warmConnections: 1,
  };
  return runPlan(plan, {
    registry,
    resolveConnection: async () => url,
    tool: { name: 'dbprobe', version: 'test' },
    // Each sample's connections are counted: the per-run server-time reading's own stays out.
    serverTimeRuns: false,
  });
}

function assertHealthy(result: RunResult): void {
  const m = result.measurements[0];
  assert.ok(m, 'one measurement');
  assert.equal(m.stats.count, ITERATIONS, `sample count (errors: ${JSON.stringify(m.firstErrors)})`);
  assert.equal(m.stats.errors, 0);
  assert.equal(m.warmup.count, WARMUP);
  assert.equal(m.samples.values.length, ITERATIONS);
  // Plausible for loopback: more than a microsecond, less than half a second.
  assert.ok(m.stats.p50Us >= 2 && m.stats.p50Us < 500_000, `p50 ${m.stats.p50Us} µs`);
  assert.ok(
    m.stats.minUs <= m.stats.p50Us && m.stats.p50Us <= m.stats.p99Us && m.stats.p99Us <= m.stats.maxUs,
  );
  assertMatchesSchema('result', JSON.parse(JSON.stringify(result)));
}

interface ServerCase {
  driver: string;
  url: () => string;
  counter: () => Promise<ConnectionCounter>;
}

const CASES: ServerCase[] = [
  {
    driver: 'pg',
    url: () => testbedEnv('DBPROBE_TEST_PG_URL'),
    counter: () => pgCounter(testbedEnv('DBPROBE_TEST_PG_ADMIN_URL'), 'dbprobe'),
  },
  {
    driver: 'mysql2',
    url: () => testbedEnv('DBPROBE_TEST_MYSQL_URL'),
    counter: () => mysqlCounter(testbedEnv('DBPROBE_TEST_MYSQL_URL')),
  },
  {
    driver: 'ioredis',
    url: () => testbedEnv('DBPROBE_TEST_REDIS_URL'),
    counter: () => redisCounter(testbedEnv('DBPROBE_TEST_REDIS_URL')),
  },
];

for (const c of CASES) {
  describe(`${c.driver} against the real server`, () => {
    test('initial: a new server connection per sample, all closed afterwards', async () => {
      const counter = await c.counter();
      try {
        const [before, openBefore] = [await counter.accepted(), await counter.open()];
        const result = await probe(c.driver, c.url(), 'initial');
        assertHealthy(result);
        assert.equal((await counter.accepted()) - before, ITERATIONS + WARMUP, 'one connection per sample');
        // At most as many as before, not as many: the testbed's servers are shared, and a connection
        // another process held before may close meanwhile (one series read 1 against 7 before).
        const openAfter = await counter.open();
        assert.ok(
          openAfter <= openBefore,
          `no connection left open: ${openAfter} open, ${openBefore} before`,
        );
        assertNoSecret([JSON.stringify(result)]);
      } finally {
        await counter.close();
      }
    });

    test('subsequent: one warm connection for every sample', async () => {
      const counter = await c.counter();
      try {
        const [before, openBefore] = [await counter.accepted(), await counter.open()];
        const result = await probe(c.driver, c.url(), 'subsequent');
        assertHealthy(result);
        assert.equal((await counter.accepted()) - before, 1, 'one connection in all');
        // At most as many as before, not as many: the testbed's servers are shared, and a connection
        // another process held before may close meanwhile (one series read 1 against 7 before).
        const openAfter = await counter.open();
        assert.ok(
          openAfter <= openBefore,
          `no connection left open: ${openAfter} open, ${openBefore} before`,
        );
        assert.deepEqual(result.measurements[0]?.reused, ['connection']);
      } finally {
        await counter.close();
      }
    });
  });
}

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
/** A full collection, then a turn of the loop for native finalizers deferred to it, then another. */
async function collectGarbage(): Promise<void> {
  gc();
  await new Promise((resolve) => setImmediate(resolve));
  gc();
}

describe('libsql (embedded file)', () => {
  const url = () => `file:${path.join(tempDir('libsql'), 'probe.db')}`;
  test('initial: a new connection per sample, each opening the file anew', async () => {
    // No server to count connections: count the driver's connects, and look at this process's open
    // files. Each sample's connection must have opened the database file itself (a descriptor that
    // was not open before its connect began); a client kept across samples opens nothing new.
    const file = url().slice('file:'.length);
    const openFiles = () =>
      new Set(
        readdirSync('/proc/self/fd').filter((fd) => {
          try {
            return readlinkSync(`/proc/self/fd/${fd}`) === file;
          } catch {
            return false; // the descriptor of the listing itself, closed by now
          }
        }),
      );
    const registry = createRegistry();
    const counts = { connects: 0, closes: 0, openedTheFile: 0 };
    const counting: DriverRegistry = {
      ...registry,
      load: async (id) => {
        const driver = await registry.load(id);
        return {
          ...driver,
          connect: async (options) => {
            // libSQL's close() leaves the file's descriptor to the garbage collector; one freed in the
            // middle of this connect would hand its number to the new open and hide it. Collect first.
            await collectGarbage();
            const before = openFiles();
            const connection = await driver.connect(options);
            counts.connects += 1;
            return {
              ...connection,
              close: async () => {
                if ([...openFiles()].some((fd) => !before.has(fd))) counts.openedTheFile += 1;
                counts.closes += 1;
                await connection.close();
              },
            };
          },
        };
      },
    };
    const result = await probe('libsql', `file:${file}`, 'initial', counting);
    assertHealthy(result);
    const samples = ITERATIONS + WARMUP;
    assert.deepEqual(counts, { connects: samples, closes: samples, openedTheFile: samples });
  });
  test('subsequent', async () => assertHealthy(await probe('libsql', url(), 'subsequent')));
});

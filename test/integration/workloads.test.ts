/**
 * Workload presets on real servers: every SQL preset on PostgreSQL, GET/SET of 1 KB on Redis, findOne
 * and find on MongoDB (FerretDB). Each leaves no scratch table, key or collection behind after a
 * success, a failure (the scratch broken under the run) and a cancel; each is seen to exist mid-run,
 * so the checks can fail.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import Redis from 'ioredis';
import { MongoClient } from 'mongodb';
import pg from 'pg';
import { runPlan } from '../../src/core/engine';
import { createRegistry } from '../../src/drivers/registry';
import type { ProbeEvent } from '../../src/shared/events';
import { PLAN_DEFAULTS, type TargetSpec } from '../../src/shared/plan';
import type { RunResult } from '../../src/shared/result';
import { SCRATCH_PREFIX, type WorkloadPresetId } from '../../src/shared/workloadPresets';
import { assertMatchesSchema } from '../helpers/schema';
import { testbedEnv } from '../helpers/testbed';

interface Server {
  driver: string;
  env: string;
  /** Scratch names present now whose name starts with `prefix`. */
  scratch(prefix: string): Promise<string[]>;
  /** Breaks the scratch under a running probe, so its samples fail. */
  breakScratch(prefix: string): Promise<void>;
  close(): Promise<void>;
}

async function postgres(): Promise<Server> {
  const admin = new pg.Client({
    connectionString: testbedEnv('DBPROBE_TEST_PG_ADMIN_URL').replace(/\/postgres$/, '/dbprobe'),
  });
  await admin.connect();
  const scratch = async (prefix: string) =>
    (
      await admin.query<{ t: string }>(`SELECT tablename AS t FROM pg_tables WHERE tablename LIKE $1`, [
        `${prefix}%`,
      ])
    ).rows.map((r) => r.t);
  return {
    driver: 'pg',
    env: 'DBPROBE_TEST_PG_URL',
    scratch,
    async breakScratch(prefix) {
      for (const table of await scratch(prefix))
        if (!table.endsWith('_ins')) await admin.query(`ALTER TABLE ${table} DROP COLUMN payload`);
    },
    close: () => admin.end(),
  };
}

async function redis(): Promise<Server> {
  const client = new Redis(testbedEnv('DBPROBE_TEST_REDIS_URL'), {
    lazyConnect: true,
    maxRetriesPerRequest: 1,
  });
  await client.connect();
  const scratch = (prefix: string) => client.keys(`${prefix}*`);
  return {
    driver: 'ioredis',
    env: 'DBPROBE_TEST_REDIS_URL',
    scratch,
    async breakScratch(prefix) {
      // A list where a string was: GET answers WRONGTYPE, a query error.
      for (const key of await scratch(prefix)) await client.multi().del(key).lpush(key, 'x').exec();
    },
    close: async () => void (await client.quit()),
  };
}

async function mongo(): Promise<Server> {
  const client = new MongoClient(testbedEnv('DBPROBE_TEST_MONGO_URL'), { serverSelectionTimeoutMS: 5_000 });
  await client.connect();
  const db = client.db();
  const scratch = async (prefix: string) =>
    (await db.listCollections({}, { nameOnly: true }).toArray())
      .map((c) => c.name)
      .filter((n) => n.startsWith(prefix));
  return {
    driver: 'mongodb',
    env: 'DBPROBE_TEST_MONGO_URL',
    scratch,
    async breakScratch(prefix) {
      for (const name of await scratch(prefix)) await db.collection(name).drop();
    },
    close: () => client.close(),
  };
}

/** Runs the targets; at the first measured sample, looks at (and optionally breaks or cancels) the scratch. */
async function probe(
  server: Server,
  presets: WorkloadPresetId[],
  mid: 'look' | 'break' | 'cancel',
): Promise<{ result: RunResult; seenMidRun: string[]; prefix: string }> {
  const controller = new AbortController();
  const targets: TargetSpec[] = presets.map((workload) => ({
    name: workload,
    driver: server.driver,
    connection: `env:${server.env}`,
    workload,
    allowWrites: true,
  }));
  let prefix = '';
  let midRun: Promise<string[]> | undefined;
  const result = await runPlan(
    {
      ...PLAN_DEFAULTS,
      targets,
      kinds: ['subsequent'],
      iterations: mid === 'cancel' ? 100_000 : mid === 'break' ? 40 : 3,
      warmup: 0,
    },
    {
      registry: createRegistry(),
      resolveConnection: async () => testbedEnv(server.env),
      tool: { name: 'dbprobe', version: 'test' },
      signal: controller.signal,
      onEvent: (event: ProbeEvent) => {
        if (event.type === 'start') prefix = `${SCRATCH_PREFIX}${event.runId.slice(0, 8)}`;
        if (event.type === 'sample' && !midRun) {
          midRun = server.scratch(prefix).then(async (names) => {
            if (mid === 'break') await server.breakScratch(prefix);
            if (mid === 'cancel') controller.abort();
            return names;
          });
        }
      },
    },
  );
  assertMatchesSchema('result', result);
  return { result, seenMidRun: (await midRun) ?? [], prefix };
}

const SERVERS: { name: string; open: () => Promise<Server>; presets: WorkloadPresetId[] }[] = [
  {
    name: 'PostgreSQL',
    open: postgres,
    presets: [
      'select-1',
      'point-read',
      'select-250',
      'select-10000',
      'insert-250',
      'insert-2000',
      'pgbench-tx',
    ],
  },
  { name: 'Redis', open: redis, presets: ['get-1kb', 'set-1kb'] },
  { name: 'MongoDB (FerretDB)', open: mongo, presets: ['find-one-by-id', 'find-250'] },
];

for (const { name, open, presets } of SERVERS) {
  describe(`${name}: workload presets clean up after themselves`, () => {
    let server: Server;
    before(async () => (server = await open()));
    after(() => server?.close());

    test(`success: ${presets.join(', ')} all run, and their scratch is gone afterwards`, async () => {
      const { result, seenMidRun, prefix } = await probe(server, presets, 'look');
      for (const m of result.measurements)
        assert.equal(m.stats.count, 3, `${m.target}: ${JSON.stringify(m.firstErrors)}`);
      assert.ok(seenMidRun.length > 0, `a scratch named ${prefix}... existed during the run`);
      assert.deepEqual(await server.scratch(prefix), []);
      assert.match(result.targets[0]!.query, /^workload \S+: /, 'the result names the preset, not its SQL');
    });

    test('failure: the scratch broken under the run makes samples fail, and it is still dropped', async () => {
      const target = presets[presets.length - 1]!;
      const { result, seenMidRun, prefix } = await probe(
        server,
        [target === 'pgbench-tx' ? 'point-read' : target === 'set-1kb' ? 'get-1kb' : target],
        'break',
      );
      assert.ok(seenMidRun.length > 0);
      const m = result.measurements[0]!;
      if (server.driver !== 'mongodb')
        assert.ok(m.stats.errors > 0, `errors after the break: ${JSON.stringify(m.stats)}`);
      assert.deepEqual(await server.scratch(prefix), []);
    });

    test('cancel: a cancelled run still drops its scratch', async () => {
      const { result, seenMidRun, prefix } = await probe(server, [presets[1]!], 'cancel');
      assert.equal(result.state, 'cancelled');
      assert.ok(seenMidRun.length > 0);
      assert.deepEqual(await server.scratch(prefix), []);
    });
  });
}

test('a write preset without allowWrites, or on the wrong family, is refused before anything runs', async () => {
  const { validatePlan } = await import('../../src/core/validate/validatePlan');
  const v = validatePlan(
    { targets: [{ name: 'a', driver: 'pg', connection: 'env:A', workload: 'insert-250' }] },
    ['pg'],
  );
  assert.ok(!v.ok);
  assert.match(v.issues[0]!.message, /add "allowWrites": true/);
  const result = await runPlan(
    {
      ...PLAN_DEFAULTS,
      targets: [
        { name: 'r', driver: 'ioredis', connection: 'env:R', workload: 'select-250', allowWrites: true },
      ],
      kinds: ['subsequent'],
      iterations: 1,
      warmup: 0,
    },
    {
      registry: createRegistry(),
      resolveConnection: async () => testbedEnv('DBPROBE_TEST_REDIS_URL'),
      tool: { name: 'dbprobe', version: 'test' },
    },
  );
  const m = result.measurements[0]!;
  assert.ok(m.failed);
  assert.match(
    m.firstErrors[0]?.message ?? '',
    /workload "select-250" is for sql targets, but driver ioredis is redis; use one of: get-1kb, set-1kb/,
  );
});

/**
 * The config and connection-string rows of the bad-input catalogue (test/catalogue/badInputs.ts):
 * each row runs `dbprobe run` once with its input and checks the exit code, the one line, no stack
 * trace and no secret. These answer before any connection (except the file: folder and the sample
 * cap rows, which run).
 */
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import * as path from 'node:path';
import { describe, test } from 'node:test';
import { BAD_INPUTS, driverOf, targetName, type BadInput, type VariantId } from '../catalogue/badInputs';
import { assertRow } from '../catalogue/assertRow';
import { envName } from '../catalogue/cliRun';
import { configDir, runCli, type CliRun } from '../helpers/cli';
import { assertNoSecret, sentinelPassword, testbedEnv } from '../helpers/testbed';

interface Case {
  config: unknown;
  env?: Record<string, string>;
  args?: string[];
  /** Extra checks on the run. */
  check?: (run: CliRun) => void;
}

const target = (extra: Record<string, unknown> = {}) => ({
  name: 'a',
  driver: 'pg',
  connection: 'env:CAT_A',
  ...extra,
});
const A = () => ({ CAT_A: testbedEnv('DBPROBE_TEST_PG_URL') });

const CONFIG_CASES: Record<string, () => Case> = {
  'config.unknown-driver': () => ({ config: { targets: [target({ driver: 'postgres' })] }, env: A() }),
  'config.missing-env': () => ({ config: { targets: [target({ connection: 'env:CAT_NOT_SET' })] } }),
  'config.secret-ref': () => ({ config: { targets: [target({ connection: 'secret:prod-db' })] } }),
  'config.literal-connection': () => ({
    config: { targets: [target({ connection: testbedEnv('DBPROBE_TEST_PG_URL') })] },
  }),
  'config.duplicate-names': () => ({ config: { targets: [target(), target()] }, env: A() }),
  'config.zero-iterations': () => ({ config: { targets: [target()], iterations: 0 }, env: A() }),
  'config.absurd-iterations': () => ({
    config: { targets: [target()] },
    env: A(),
    args: ['--iterations', '99999999999'],
  }),
  'config.not-json': () => ({ config: '{"targets": [' }),
  'config.huge': () => ({
    config: { targets: [target()], notes: 'x'.repeat(20 * 1024 * 1024) },
    env: A(),
  }),
  'config.huge-name': () => ({
    config: { targets: [target({ name: 'n'.repeat(50 * 1024 * 1024) })] },
    env: A(),
  }),
  'config.over-sample-cap': () => ({
    config: { targets: [target()], kinds: ['subsequent'], iterations: 300, warmup: 0, sampleCap: 5 },
    env: A(),
    args: ['--format', 'json'],
    check: (run) => {
      const result = JSON.parse(run.stdout) as {
        measurements: {
          stats: { count: number };
          samples: { cap: number; dropped: number; values: unknown[] };
        }[];
      };
      const m = result.measurements[0];
      assert.ok(m);
      assert.equal(m.stats.count, 300, 'statistics count every sample');
      assert.equal(m.samples.values.length, 5, 'raw samples are capped');
      assert.equal(m.samples.dropped, 295, 'the dropped samples are counted');
    },
  }),
};

const SCHEME: Record<VariantId, string> = {
  pg: 'postgres',
  mysql2: 'mysql',
  ioredis: 'redis',
  'libsql-http': 'http',
  'libsql-ws': 'ws',
  'libsql-file': 'file',
  'neon-http': 'postgres',
  'neon-ws': 'postgres',
  planetscale: 'http',
  mongodb: 'mongodb',
  upstash: 'http',
  http: 'http',
};

function connectionCase(row: BadInput): Case {
  const variant = row.variant!;
  const pw = sentinelPassword();
  let url: string;
  if (row.id.endsWith('.malformed')) {
    url = variant === 'libsql-file' ? 'file:' : `${SCHEME[variant]}://dbprobe:${pw}@[bad/db`;
  } else if (row.id.endsWith('.wrong-scheme')) {
    url =
      variant === 'ioredis' || variant === 'upstash'
        ? `postgres://dbprobe:${pw}@127.0.0.1:1/db`
        : `redis://:${pw}@127.0.0.1:1`;
  } else if (row.id === 'libsql-file.missing-folder') {
    url = 'file:/nonexistent-dbprobe-folder/x.db';
  } else {
    throw new Error(`no set-up for ${row.id}`);
  }
  const name = targetName(variant);
  return {
    config: {
      targets: [{ name, driver: driverOf(variant), connection: `env:${envName(name)}` }],
      kinds: ['initial'],
      iterations: 1,
      warmup: 0,
    },
    env: { [envName(name)]: url },
  };
}

async function runCase(c: Case): Promise<CliRun> {
  const cwd = configDir(typeof c.config === 'string' ? c.config : {});
  if (typeof c.config !== 'string') writeFileSync(path.join(cwd, 'dbprobe.json'), JSON.stringify(c.config));
  return runCli(['run', '-q', ...(c.args ?? [])], { cwd, env: c.env ?? {}, timeoutMs: 15_000 });
}

const lines = (run: CliRun) => run.stderr.split('\n').filter((l) => l.startsWith('dbprobe:'));

describe('config rows', () => {
  for (const row of BAD_INPUTS.filter((r) => r.area === 'config')) {
    test(row.id, async () => {
      const make = CONFIG_CASES[row.id];
      assert.ok(make, `a set-up for ${row.id}`);
      const c = make();
      const run = await runCase(c);
      assertRow(row, run, lines(run));
      c.check?.(run);
      assertNoSecret([run.stdout, run.stderr]);
    });
  }
});

describe('connection-string rows', () => {
  for (const row of BAD_INPUTS.filter((r) => r.area === 'connection' && !r.id.includes('.password-'))) {
    test(row.id, async () => {
      const run = await runCase(connectionCase(row));
      assertRow(row, run, lines(run));
      assertNoSecret([run.stdout, run.stderr]);
    });
  }
});

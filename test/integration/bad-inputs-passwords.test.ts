/**
 * Passwords with `@ : / % #` (the password rows of test/catalogue/badInputs.ts): a user with such a
 * password is created in the testbed's PostgreSQL, MariaDB and Redis for this file and removed
 * after. Percent-encoded, the password works (exit 0); written raw, the CLI refuses it before any
 * connection with a line that says to percent-encode.
 */
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import pg from 'pg';
import Redis from 'ioredis';
import { badInput, type VariantId } from '../catalogue/badInputs';
import { assertRow } from '../catalogue/assertRow';
import { runCatalogueCli, targetLines } from '../catalogue/cliRun';
import { targetName } from '../catalogue/badInputs';
import { assertNoSecret, sentinelPassword, testbedEnv } from '../helpers/testbed';

const USER = 'cat_special';
/** The sentinel rides in it, so the leak checks below cover this password too. */
const PASSWORD = () => `${sentinelPassword()}@:/%#x`;

const mysqlSocket = () =>
  path.join(process.env.DBPROBE_TESTBED_DIR ?? '/tmp/dbprobe-testbed', 'mysql', 'run', 'mysqld.sock');
/** root@localhost logs in over the unix socket only (see scripts/testbed/svc-mysql.sh). */
const mysqlRoot = (sql: string) =>
  execFileSync(
    'mariadb',
    ['--no-defaults', '--protocol=socket', `--socket=${mysqlSocket()}`, '-uroot', '-e', sql],
    {
      stdio: ['ignore', 'ignore', 'pipe'],
      timeout: 10_000,
    },
  );

async function withPg(sql: string): Promise<void> {
  const client = new pg.Client({ connectionString: testbedEnv('DBPROBE_TEST_PG_ADMIN_URL') });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

async function withRedis(...command: string[]): Promise<void> {
  const redis = new Redis(testbedEnv('DBPROBE_TEST_REDIS_URL'), {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
  });
  await redis.connect();
  try {
    await redis.call(command[0]!, ...command.slice(1));
  } finally {
    redis.disconnect();
  }
}

const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

before(async () => {
  const pw = PASSWORD();
  await withPg(`DROP ROLE IF EXISTS ${USER}`);
  await withPg(`CREATE ROLE ${USER} LOGIN PASSWORD ${sqlString(pw)}`);
  mysqlRoot(
    `DROP USER IF EXISTS '${USER}'@'127.0.0.1'; CREATE USER '${USER}'@'127.0.0.1' IDENTIFIED BY ${sqlString(pw)}; GRANT USAGE ON *.* TO '${USER}'@'127.0.0.1';`,
  );
  await withRedis('ACL', 'SETUSER', USER, 'reset', 'on', `>${pw}`, '+ping', '+auth', '+hello');
});

after(async () => {
  await withPg(`DROP ROLE IF EXISTS ${USER}`).catch(() => undefined);
  try {
    mysqlRoot(`DROP USER IF EXISTS '${USER}'@'127.0.0.1';`);
  } catch {
    // Reported by the next run's DROP ... IF EXISTS.
  }
  await withRedis('ACL', 'DELUSER', USER).catch(() => undefined);
});

const SERVERS: Record<'pg' | 'mysql2' | 'ioredis', { driver: string; url: (password: string) => string }> = {
  pg: {
    driver: 'pg',
    url: (p) =>
      `postgres://${USER}:${p}@127.0.0.1:${new URL(testbedEnv('DBPROBE_TEST_PG_URL')).port}/dbprobe`,
  },
  mysql2: {
    driver: 'mysql2',
    url: (p) => `mysql://${USER}:${p}@127.0.0.1:${new URL(testbedEnv('DBPROBE_TEST_MYSQL_URL')).port}/`,
  },
  ioredis: {
    driver: 'ioredis',
    url: (p) => `redis://${USER}:${p}@127.0.0.1:${new URL(testbedEnv('DBPROBE_TEST_REDIS_URL')).port}`,
  },
};

describe('special characters in passwords', () => {
  for (const variant of ['pg', 'mysql2', 'ioredis'] as const satisfies readonly VariantId[]) {
    for (const encoded of [true, false]) {
      const row = badInput(`${variant}.password-${encoded ? 'encoded' : 'unencoded'}`);
      test(row.id, async () => {
        const server = SERVERS[variant];
        const password = PASSWORD();
        const run = await runCatalogueCli([
          {
            name: targetName(variant),
            driver: server.driver,
            url: server.url(encoded ? encodeURIComponent(password) : password),
          },
        ]);
        assertRow(row, run, targetLines(run, targetName(variant)));
        assertNoSecret(run.outputs, password);
        assertNoSecret(run.outputs, sentinelPassword());
      });
    }
  }
});

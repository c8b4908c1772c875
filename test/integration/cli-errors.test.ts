/**
 * The CLI against real servers: a healthy run exits 0; an unreachable port, a wrong password and a
 * bad query each give one line naming the target, the class and what to do, exit 1, no password.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { test } from 'node:test';
import { configDir, runCli } from '../helpers/cli';
import { assertNoSecret, sentinelPassword, testbedEnv, withUrl } from '../helpers/testbed';

/** A 127.0.0.1 port nothing listens on. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  if (!address || typeof address === 'string') throw new Error('no port');
  return address.port;
}

const WRONG_PASSWORD = 'wrong-pass-sentinel-9f2c';
const failureLine = (stderr: string) => stderr.split('\n').filter((l) => l.startsWith('dbprobe: target'));

test('a healthy run over pg, mysql2, ioredis and libsql exits 0 with every target in the report', async () => {
  const cwd = configDir({
    targets: [
      { name: 'pg', driver: 'pg', connection: 'env:PG_URL' },
      { name: 'mysql', driver: 'mysql2', connection: 'env:MYSQL_URL' },
      { name: 'redis', driver: 'ioredis', connection: 'env:REDIS_URL' },
      { name: 'libsql', driver: 'libsql', connection: 'env:LIBSQL_URL' },
    ],
    iterations: 10,
    warmup: 1,
  });
  const run = await runCli(['run'], {
    cwd,
    env: {
      PG_URL: testbedEnv('DBPROBE_TEST_PG_URL'),
      MYSQL_URL: testbedEnv('DBPROBE_TEST_MYSQL_URL'),
      REDIS_URL: testbedEnv('DBPROBE_TEST_REDIS_URL'),
      LIBSQL_URL: `file:${cwd}/probe.db`,
    },
  });
  assert.equal(run.code, 0, run.stderr);
  for (const row of [
    '| pg | pg | tcp | 10 |',
    '| mysql | mysql2 | tcp | 10 |',
    '| redis | ioredis | tcp | 10 |',
    '| libsql | libsql | file | 10 |',
  ]) {
    assert.ok(run.stdout.includes(row), `report has ${row}`);
  }
  assertNoSecret([run.stdout, run.stderr]);
});

const SERVERS = [
  { driver: 'pg', env: 'DBPROBE_TEST_PG_URL' },
  { driver: 'mysql2', env: 'DBPROBE_TEST_MYSQL_URL' },
  { driver: 'ioredis', env: 'DBPROBE_TEST_REDIS_URL' },
];

for (const server of SERVERS) {
  test(`${server.driver}: an unreachable port is "refused", exit 1, one line`, async () => {
    const port = await closedPort();
    const url = withUrl(testbedEnv(server.env), (u) => (u.port = String(port)));
    const cwd = configDir({
      targets: [{ name: 'down db', driver: server.driver, connection: 'env:DB_URL' }],
      iterations: 5,
    });
    const run = await runCli(['run', '-q'], { cwd, env: { DB_URL: url } });
    assert.equal(run.code, 1, run.stderr);
    const lines = failureLine(run.stderr);
    assert.equal(lines.length, 1, run.stderr);
    assert.match(
      lines[0]!,
      new RegExp(
        `target "down db" \\(${server.driver}\\) failed \\[initial, subsequent\\]: refused: .*check the host and port`,
      ),
    );
    assertNoSecret([run.stdout, run.stderr]);
  });

  test(`${server.driver}: a wrong password is "auth", exit 1, neither password printed`, async () => {
    const url = withUrl(testbedEnv(server.env), (u) => (u.password = WRONG_PASSWORD));
    const cwd = configDir({
      targets: [{ name: 'locked db', driver: server.driver, connection: 'env:DB_URL' }],
      iterations: 5,
    });
    const run = await runCli(['run', '-q'], { cwd, env: { DB_URL: url } });
    assert.equal(run.code, 1, run.stderr);
    const lines = failureLine(run.stderr);
    assert.equal(lines.length, 1, run.stderr);
    assert.match(lines[0]!, /target "locked db" .* failed .*: auth: .*check the user name and password/);
    assertNoSecret([run.stdout, run.stderr], WRONG_PASSWORD);
    assertNoSecret([run.stdout, run.stderr], sentinelPassword());
  });
}

test('a bad query is "query", exit 1, with the server message', async () => {
  const cwd = configDir({
    targets: [{ name: 'typo', driver: 'pg', connection: 'env:DB_URL', query: 'SELEC 1' }],
    iterations: 5,
  });
  const run = await runCli(['run', '-q'], { cwd, env: { DB_URL: testbedEnv('DBPROBE_TEST_PG_URL') } });
  assert.equal(run.code, 1, run.stderr);
  const lines = failureLine(run.stderr);
  assert.equal(lines.length, 1);
  assert.match(
    lines[0]!,
    /target "typo" \(pg\) failed \[initial, subsequent\]: query: syntax error at or near "SELEC"\. The server rejected the workload/,
  );
  assertNoSecret([run.stdout, run.stderr]);
});

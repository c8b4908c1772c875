/**
 * No connection is left behind: after a failing run, and after a run stopped mid-way by Ctrl-C
 * (SIGINT) or SIGTERM, the server's own count of open connections returns to its baseline within
 * 2 s. Counted by the servers themselves: pg_stat_activity (a scratch database), MariaDB
 * Threads_connected, Redis connected_clients and FerretDB's connection metrics.
 */
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { createScratchDatabase, type ScratchDatabase } from '../fixtures/pgDatabase';
import { probeTargets } from '../fixtures/probe';
import { configDir, runCli } from '../helpers/cli';
import {
  ferretdbCounter,
  mysqlCounter,
  pgCounter,
  redisCounter,
  type ConnectionCounter,
} from '../helpers/serverCounters';
import { assertNoSecret, testbedEnv } from '../helpers/testbed';

const BACK_WITHIN_MS = 2_000;

interface Server {
  driver: string;
  url: () => string;
  counter: () => Promise<ConnectionCounter>;
  /** A workload the server rejects, for a run whose every sample fails. */
  badQuery: string;
}

let scratch: ScratchDatabase;
before(async () => {
  scratch = await createScratchDatabase(
    testbedEnv('DBPROBE_TEST_PG_ADMIN_URL'),
    testbedEnv('DBPROBE_TEST_PG_URL'),
    'noleft',
  );
});
after(async () => scratch?.drop());

const SERVERS: Server[] = [
  {
    driver: 'pg',
    url: () => scratch.url,
    counter: () => pgCounter(testbedEnv('DBPROBE_TEST_PG_ADMIN_URL'), scratch.name),
    badQuery: 'SELECT * FROM no_such_table',
  },
  {
    driver: 'mysql2',
    url: () => testbedEnv('DBPROBE_TEST_MYSQL_URL'),
    counter: () => mysqlCounter(testbedEnv('DBPROBE_TEST_MYSQL_URL')),
    badQuery: 'SELECT * FROM no_such_table',
  },
  {
    driver: 'ioredis',
    url: () => testbedEnv('DBPROBE_TEST_REDIS_URL'),
    counter: () => redisCounter(testbedEnv('DBPROBE_TEST_REDIS_URL')),
    badQuery: 'NOSUCHCOMMAND',
  },
  {
    driver: 'mongodb',
    url: () => testbedEnv('DBPROBE_TEST_MONGO_URL'),
    counter: async () => ferretdbCounter(testbedEnv('DBPROBE_TEST_FERRETDB_METRICS_URL')),
    badQuery: '{noSuchCommand:1}',
  },
];

/** Polls until the open count is back at `baseline`; returns how long that took (or fails after 2 s). */
async function backToBaseline(counter: ConnectionCounter, baseline: number, what: string): Promise<number> {
  const started = performance.now();
  let open = await counter.open();
  // Back to at most the baseline: the testbed's servers are shared, and a connection another process
  // held at the baseline may close meanwhile (one series read 0 against a baseline of 1).
  while (open > baseline && performance.now() - started < BACK_WITHIN_MS) {
    await new Promise((r) => setTimeout(r, 100));
    open = await counter.open();
  }
  const tookMs = performance.now() - started;
  assert.ok(
    open <= baseline,
    `${what}: ${open} open connections, baseline ${baseline}, after ${Math.round(tookMs)} ms`,
  );
  return tookMs;
}

/** Waits (at most 15 s) until the run holds connections on the server, so the signal lands mid-run. */
async function untilRunning(counter: ConnectionCounter, baseline: number): Promise<void> {
  const started = performance.now();
  while (performance.now() - started < 15_000) {
    if ((await counter.open()) > baseline) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  assert.fail('the run never opened a connection');
}

for (const server of SERVERS) {
  describe(`${server.driver}: no connection left behind`, () => {
    let counter: ConnectionCounter;
    before(async () => {
      counter = await server.counter();
    });
    after(async () => counter?.close());

    test('a run whose every sample fails', async () => {
      const baseline = await counter.open();
      const cwd = configDir({
        targets: [{ name: 'bad', driver: server.driver, connection: 'env:DB_URL', query: server.badQuery }],
        iterations: 5,
        warmup: 0,
      });
      const run = await runCli(['run', '-q'], { cwd, env: { DB_URL: server.url() }, timeoutMs: 60_000 });
      assert.equal(run.code, 1, run.stderr);
      assert.match(run.stderr, /query/);
      await backToBaseline(counter, baseline, 'after the failing run');
      assertNoSecret([run.stdout, run.stderr]);
    });

    // The case the process's exit cannot hide: the extension host lives on after a cancelled run.
    test('cancelled in process: every connection closed while the process lives on', async () => {
      const baseline = await counter.open();
      const cancel = new AbortController();
      const running = probeTargets([{ name: 'long', driver: server.driver, url: server.url() }], {
        kinds: ['subsequent', 'initial'],
        iterations: 1_000_000,
        warmup: 0,
        signal: cancel.signal,
      });
      await untilRunning(counter, baseline);
      cancel.abort();
      const result = await running;
      assert.equal(result.state, 'cancelled');
      assert.ok(
        result.measurements.some((m) => m.stats.count > 0),
        'samples before the cancel are kept',
      );
      await backToBaseline(counter, baseline, 'after the in-process cancel');
    });

    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      test(`${signal} mid-run`, async () => {
        const baseline = await counter.open();
        const cwd = configDir({
          targets: [{ name: 'long', driver: server.driver, connection: 'env:DB_URL' }],
          kinds: ['subsequent', 'initial'],
          iterations: 1_000_000,
          warmup: 0,
        });
        let pid = 0;
        const running = runCli(['run', '-q'], {
          cwd,
          env: { DB_URL: server.url() },
          timeoutMs: 60_000,
          onSpawn: (p) => (pid = p),
        });
        await untilRunning(counter, baseline);
        process.kill(pid, signal);
        const run = await running;
        assert.notEqual(run.code, 0, `${signal} does not end as a success`);
        const tookMs = await backToBaseline(counter, baseline, `after ${signal}`);
        console.log(
          `${server.driver} ${signal}: exit ${run.code}, back to baseline ${Math.round(tookMs)} ms after exit`,
        );
        assertNoSecret([run.stdout, run.stderr]);
      });
    }
  });
}

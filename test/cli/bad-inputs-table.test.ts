/**
 * The catalogue's `cli` rows (test/catalogue/cliRows.ts; docs/bad-inputs.md): one wrong input each, through the
 * built CLI, against an embedded libSQL file (the read-only and timeout rows use the testbed's
 * PostgreSQL; the fan-out rows a stand-in runner on 127.0.0.1). Each row checks its exit code, its
 * one line and no stack trace; no row with a wrong input may pass with exit 0.
 */
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { assertRow } from '../catalogue/assertRow';
import { BAD_INPUTS } from '../catalogue/badInputs';
import { configDir, runCli } from '../helpers/cli';
import { testbedEnv } from '../helpers/testbed';
import { tempDir } from '../helpers/tempDir';
import { assertRowsHaveCases } from '../helpers/rowCases';

interface Case {
  args: string[];
  /** Merged over the base config (one libSQL file target "lite", one initial sample). */
  config?: Record<string, unknown>;
  env?: Record<string, string>;
  /** `run` unless said. */
  command?: string;
}

const COLD = (command: string[]) => ({
  targets: [{ name: 'lite', driver: 'libsql', connection: 'env:LITE', cold: { mode: 'command', command } }],
  cold: { samples: 1, pauseMs: 0 },
});
const lite = (extra: Record<string, unknown>) => ({
  targets: [{ name: 'lite', driver: 'libsql', connection: 'env:LITE', ...extra }],
});
const pg = (name: string, extra: Record<string, unknown>, url: () => string) => ({
  config: { targets: [{ name, driver: 'pg', connection: 'env:PG_CASE', ...extra }] },
  env: { PG_CASE: url() },
});

/** Stand-in runners: each answers /v1/health its own way. */
const stubs: Record<'unauthorized' | 'html' | 'pgOnly', string> = { unauthorized: '', html: '', pgOnly: '' };
const servers: Server[] = [];
let closedPort = 0;
const TOKEN = { DBPROBE_TOKEN: 'table-test-token' };
const FAN_OUT = ['--fan-out', '--here', '--kinds', 'load', '--duration', '0.1', '--concurrency', '1'];

const CASES: Record<string, () => Case> = {
  'cli.schedule-with-sweep': () => ({ args: ['--kinds', 'schedule', '--sweep', '1,4'] }),
  'cli.concurrency-with-sweep': () => ({ args: ['--kinds', 'load', '--concurrency', '8', '--sweep', '1,4'] }),
  'cli.concurrency-without-load': () => ({ args: ['--kinds', 'initial', '--concurrency', '4'] }),
  'cli.rate-without-load': () => ({ args: ['--kinds', 'initial', '--rate', '5'] }),
  'cli.duration-without-load': () => ({ args: ['--kinds', 'subsequent', '--duration', '1'] }),
  'cli.queries-without-schedule': () => ({ args: ['--kinds', 'load', '--queries', '3'] }),
  'cli.pooled-without-schedule': () => ({ args: ['--kinds', 'load', '--pooled'] }),
  'cli.max-error-rate-without-load': () => ({ args: ['--kinds', 'schedule', '--max-error-rate', '1%'] }),
  'cli.max-latency-without-load': () => ({ args: ['--kinds', 'initial', '--max-latency', '50ms'] }),
  'cli.cold-samples-without-cold': () => ({ args: ['--kinds', 'initial', '--cold-samples', '3'] }),
  'cli.iterations-with-load-only': () => ({ args: ['--kinds', 'load', '--iterations', '5'] }),
  'cli.warmup-with-schedule-only': () => ({ args: ['--kinds', 'schedule', '--warmup', '2'] }),
  'cli.here-without-runner': () => ({ args: ['--here'] }),
  'cli.empty-kinds': () => ({ args: ['--kinds', ''] }),
  'cli.empty-targets': () => ({ args: ['--targets', ''] }),
  'cli.fan-out-one-place': () => ({ args: ['--fan-out', '--kinds', 'load'] }),
  'cli.fan-out-initial': () => ({ args: ['--fan-out'] }),
  'cli.summary-missing-folder': () => ({ args: ['--summary', '/proc/nope/x.md'] }),
  'cli.summary-is-folder': () => ({ args: ['--summary', tempDir('table-summary')] }),
  'cli.step-summary-missing-folder': () => ({ args: [], env: { GITHUB_STEP_SUMMARY: '/proc/nope/step.md' } }),
  'cli.out-missing-folder': () => ({ args: ['--out', '/proc/nope/x.md'] }),
  'cli.out-is-folder': () => ({ args: ['--out', tempDir('table-out')] }),
  'cli.unknown-kind': () => ({ args: ['--kinds', 'bogus'] }),
  'cli.unknown-target': () => ({ args: ['--targets', 'nope'] }),
  'cli.unknown-format': () => ({ args: ['--format', 'xml'] }),
  'cli.unknown-order': () => ({ args: ['--order', 'random'] }),
  'cli.iterations-not-number': () => ({ args: ['--iterations', 'abc'] }),
  'cli.warmup-over': () => ({ args: ['--warmup', '99999999'] }),
  'cli.cold-samples-zero': () => ({
    args: ['--kinds', 'cold', '--cold-samples', '0'],
    config: COLD(['true']),
  }),
  'cli.cold-samples-not-number': () => ({
    args: ['--kinds', 'cold', '--cold-samples', 'few'],
    config: COLD(['true']),
  }),
  'cli.concurrency-zero': () => ({ args: ['--kinds', 'load', '--concurrency', '0'] }),
  'cli.concurrency-over': () => ({ args: ['--kinds', 'load', '--concurrency', '5000'] }),
  'cli.rate-zero': () => ({ args: ['--kinds', 'schedule', '--rate', '0'] }),
  'cli.rate-over': () => ({ args: ['--kinds', 'schedule', '--rate', '1000000'] }),
  'cli.duration-not-number': () => ({ args: ['--kinds', 'load', '--duration', 'soon'] }),
  'cli.duration-over': () => ({ args: ['--kinds', 'schedule', '--duration', '100000'] }),
  'cli.queries-over': () => ({ args: ['--kinds', 'schedule', '--queries', '1000'] }),
  'cli.queries-zero': () => ({ args: ['--kinds', 'schedule', '--queries', '0'] }),
  'cli.sweep-not-list': () => ({ args: ['--kinds', 'load', '--sweep', '1,two'] }),
  'cli.sweep-down': () => ({ args: ['--kinds', 'load', '--sweep', '8..1'] }),
  'cli.max-error-rate-over': () => ({ args: ['--kinds', 'load', '--max-error-rate', '150%'] }),
  'cli.max-latency-not-time': () => ({ args: ['--kinds', 'load', '--max-latency', 'fast'] }),
  'cli.unknown-flag': () => ({ args: ['--bogus'] }),
  'cli.positional': () => ({ args: ['extra'] }),
  'cli.runner-not-http': () => ({ args: ['--runner', 'ftp://x'], env: TOKEN }),
  'cli.runner-not-http-no-token': () => ({ args: ['--runner', 'ftp://x'] }),
  'cli.threshold-errors-over': () => ({ args: ['--threshold', 'lite:initial:errors<150%'] }),
  'cli.demo-iterations-over': () => ({ command: 'demo', args: ['-n', '99999999'] }),
  'cli.demo-format': () => ({ command: 'demo', args: ['--format', 'xml'] }),
  'cli.threshold-errors-below-zero': () => ({ args: ['--threshold', '*:*:errors<0'] }),
  'cli.threshold-percent-below-zero': () => ({ args: ['--threshold', '*:*:errors<0%'] }),
  'cli.threshold-p99-below-zero': () => ({ args: ['--threshold', '*:*:p99<0ms'] }),
  'cli.threshold-unknown-kind': () => ({ args: ['--threshold', '*:bogus:p99<5ms'] }),
  'cli.threshold-unknown-stat': () => ({ args: ['--threshold', '*:*:p42<5ms'] }),
  'cli.threshold-no-unit': () => ({ args: ['--threshold', '*:*:p99<5'] }),
  'cli.threshold-errors-as-time': () => ({ args: ['--threshold', '*:*:errors<5ms'] }),
  'cli.threshold-two-parts': () => ({ args: ['--threshold', 'initial:p99<5ms'] }),
  'cli.threshold-empty-target': () => ({ args: ['--threshold', ':initial:p99<5ms'] }),
  'cli.threshold-bad-condition': () => ({ args: ['--threshold', '*:*:p99>5ms'] }),
  'cli.threshold-kind-not-run': () => ({ args: ['--kinds', 'initial', '--threshold', '*:load:p99<5ms'] }),
  'cli.threshold-target-not-run': () => ({ args: ['--threshold', 'nope:*:p99<5ms'] }),
  'cli.cold-failed-beside-initial': () => ({
    args: ['--kinds', 'initial,cold'],
    config: COLD(['/nonexistent/suspend-me']),
  }),
  'cli.cold-command-fails': () => ({ args: ['--kinds', 'cold'], config: COLD(['sh', '-c', 'exit 3']) }),
  'cli.schedule-zero-requests': () => ({ args: ['--kinds', 'schedule', '--rate', '0.5', '--duration', '1'] }),
  'cli.load-zero-requests': () => ({
    args: ['--kinds', 'load', '--duration', '0.000001', '--concurrency', '1'],
  }),
  'cli.threshold-on-nothing': () => ({
    args: ['--kinds', 'load', '--duration', '0.000001', '--concurrency', '1', '--threshold', '*:*:errors<1%'],
  }),
  'cli.workload-wrong-family': () => ({ args: [], config: lite({ workload: 'get-1kb', allowWrites: true }) }),
  'cli.workload-pgbench-libsql': () => ({
    args: [],
    config: lite({ workload: 'pgbench-tx', allowWrites: true }),
  }),
  'cli.query-syntax': () => ({ args: [], config: lite({ query: 'SELEC 1' }) }),
  'cli.read-only-database': () => ({
    args: [],
    ...pg(
      'pg ro',
      { query: 'CREATE TABLE dbprobe_table_test_ro (x int)' },
      () => `${testbedEnv('DBPROBE_TEST_PG_URL')}?options=-c%20default_transaction_read_only%3Don`,
    ),
  }),
  'cli.own-query-timeout': () => {
    const c = pg('pg slow', { query: 'SELECT pg_sleep(1)' }, () => testbedEnv('DBPROBE_TEST_PG_URL'));
    return { args: [], config: { ...c.config, timeouts: { queryMs: 200 } }, env: c.env };
  },
  'cli.fan-out-runner-unreachable': () => ({
    args: [...FAN_OUT, '--runner', `http://127.0.0.1:${closedPort}`],
    env: TOKEN,
  }),
  'cli.fan-out-runner-refuses-token': () => ({
    args: [...FAN_OUT, '--runner', stubs.unauthorized],
    env: TOKEN,
  }),
  'cli.fan-out-runner-not-dbprobe': () => ({ args: [...FAN_OUT, '--runner', stubs.html], env: TOKEN }),
  'cli.fan-out-runner-lacks-driver': () => ({ args: [...FAN_OUT, '--runner', stubs.pgOnly], env: TOKEN }),
};

const ROWS = BAD_INPUTS.filter((r) => r.area === 'cli');

async function listen(handler: Parameters<typeof createServer>[1]): Promise<string> {
  const server = createServer(handler);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

before(async () => {
  stubs.unauthorized = await listen((_req, res) => {
    res.writeHead(401, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        error: {
          code: 'unauthorized',
          message: 'Missing or wrong bearer token: send Authorization: Bearer <DBPROBE_TOKEN>.',
        },
      }),
    );
  });
  stubs.html = await listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<html><body>hello</body></html>');
  });
  stubs.pgOnly = await listen((_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(
      JSON.stringify({
        version: '0.1.0',
        runtime: 'node',
        region: 'here',
        drivers: ['pg'],
        limits: {},
        acceptsClientConnections: false,
      }),
    );
  });
  // A port that was just free: nothing listens on it for the row that needs a runner that is down.
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
});

after(() => {
  for (const server of servers) server.close();
});

test('the table: at least 60 rows, one set-up each, and none expects exit 0', () => {
  assert.ok(ROWS.length >= 60, `${ROWS.length} rows`);
  assert.deepEqual(
    ROWS.filter((r) => r.exit === 0).map((r) => r.id),
    [],
    'a wrong input never passes',
  );
  assertRowsHaveCases(ROWS, CASES);
});

describe('cli rows', () => {
  for (const row of ROWS) {
    test(row.id, async () => {
      const make = CASES[row.id];
      assert.ok(make, `a set-up for ${row.id}`);
      const c = make();
      const cwd = configDir({
        ...lite({}),
        kinds: ['initial'],
        iterations: 1,
        warmup: 0,
        ...c.config,
      });
      const run = await runCli([c.command ?? 'run', '-q', ...c.args], {
        cwd,
        env: { LITE: `file:${path.join(cwd, 'lite.db')}`, ...c.env },
        timeoutMs: 20_000,
      });
      // A header line, then one line per problem: each names its field, or the flag that set it.
      const lines = run.stderr
        .split('\n')
        .filter((l) => l.startsWith('dbprobe:') || /^(?:[\w.]+|--[\w-]+(?: \([\w.[\]]+\))?): must/.test(l));
      assertRow(row, run, lines);
      assert.notEqual(run.code, 0, 'a wrong input never passes');
    });
  }
});

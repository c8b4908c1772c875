/**
 * The per-run sources' own logic where the testbed has no server to show it: pg_stat_statements
 * (the testbed's PostgreSQL does not preload it) and performance_schema (MariaDB's is off, and it has
 * no STATEMENT_DIGEST()). A client that answers as those servers do records what is asked; the
 * integration test (server-time.test.ts) covers the refusals and EXPLAIN ANALYZE on real servers.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { mysqlServerTimeRun } from '../../src/drivers/mysqlServerTime';
import { pgServerTimeRun } from '../../src/drivers/pgServerTime';

test('pg_stat_statements: the statement found by its query id, the mean of its delta per call', async () => {
  const asked: string[] = [];
  const counters = [
    { calls: 100, ms: 1_000 },
    { calls: 130, ms: 1_603 },
  ];
  const client = {
    async query(text: string, values?: unknown[]) {
      asked.push(values ? `${text.split('\n')[0]} ${JSON.stringify(values)}` : text);
      if (text.includes('pg_extension')) return { rows: [{ '?column?': 1 }] };
      if (text.startsWith('EXPLAIN (VERBOSE'))
        return { rows: [{ 'QUERY PLAN': [{ Plan: {}, 'Query Identifier': -4242 }] }] };
      if (text.includes('FROM pg_stat_statements')) return { rows: [counters.shift()!] };
      throw new Error(`unexpected ${text}`);
    },
  };
  const run = await pgServerTimeRun(client, 'SELECT pg_sleep(0.02)');
  const figure = await run.finish();
  assert.deepEqual(
    { p50Us: figure.p50Us, source: figure.source, samples: figure.samples, figure: figure.figure },
    { p50Us: 20_100, source: 'pg_stat_statements', samples: 30, figure: 'mean' },
  );
  assert.ok(asked.includes('EXPLAIN (VERBOSE, FORMAT JSON) SELECT pg_sleep(0.02)'), asked.join('\n'));
  assert.equal(
    asked.filter((q) => q.includes('["-4242"]')).length,
    2,
    'the counters read twice, by query id',
  );
  assert.ok(!asked.some((q) => q.includes('ANALYZE')), 'a delta runs nothing of the workload');
});

test('performance_schema: the digest from STATEMENT_DIGEST(), picoseconds per execution as µs', async () => {
  const summaries = [
    { calls: 10, ps: 5e9 },
    { calls: 30, ps: 405e9 },
  ];
  const asked: string[] = [];
  const conn = {
    query(sql: string, values: unknown[], callback: (error: Error | null, rows: unknown) => void) {
      asked.push(sql.split('\n')[0]!);
      if (sql.includes('@@performance_schema')) return callback(null, [{ enabled: 1 }]);
      if (sql.includes('STATEMENT_DIGEST')) return callback(null, [{ digest: `d-${String(values[0])}` }]);
      if (sql.includes('events_statements_summary_by_digest')) {
        assert.deepEqual(values, ['d-SELECT SLEEP(0.02)']);
        return callback(null, [summaries.shift()]);
      }
      return callback(new Error(`unexpected ${sql}`), undefined);
    },
  };
  const figure = await (await mysqlServerTimeRun(conn, 'SELECT SLEEP(0.02)')).finish();
  assert.equal(figure.p50Us, 20_000);
  assert.equal(figure.samples, 20);
  assert.equal(figure.source, 'performance_schema');
});

test('pg without pg_stat_statements: EXPLAIN ANALYZE only of a read-only statement', async () => {
  const asked: string[] = [];
  const client = {
    async query(text: string) {
      asked.push(text);
      if (text.includes('pg_extension')) return { rows: [] };
      return {
        rows: [
          {
            'QUERY PLAN': [
              {
                'Planning Time': 0.05,
                'Execution Time': 20.1,
                Plan: { 'Node Type': 'Seq Scan', 'Relation Name': 'orders', 'Actual Rows': 120000 },
              },
            ],
          },
        ],
      };
    },
  };
  const figure = await (await pgServerTimeRun(client, 'SELECT * FROM orders')).finish();
  assert.equal(figure.p50Us, 20_150);
  assert.match(figure.note ?? '', /top node: Seq Scan on orders, 120000 rows/);
  assert.equal(
    asked.filter((q) => q.startsWith('EXPLAIN (ANALYZE')).length,
    4,
    'one to warm, three measured',
  );
  asked.length = 0;
  const write = await (await pgServerTimeRun(client, 'UPDATE orders SET x = 1')).finish();
  assert.match(write.note ?? '', /only a read-only one may \(UPDATE is not a read-only statement\)/);
  assert.ok(!asked.some((q) => q.includes('ANALYZE')), 'a write is never explained with ANALYZE');
});

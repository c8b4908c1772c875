/**
 * PostgreSQL's own time for a workload, read once per run on a connection of its own (nothing on
 * the wire says it): pg_stat_statements' planning + execution time over the kind's samples where the
 * extension is installed (a delta of its counters, so the mean of every sample), else
 * EXPLAIN (ANALYZE, FORMAT JSON) on a warm connection, which runs the statement a few times more,
 * so only for a statement the read-only check passes. The planning time is in both: a sample's
 * query is planned every time.
 */
import type { ServerTimeRun } from '../core/driver';
import { classifySql } from '../shared/classify';
import type { ServerTime } from '../shared/serverTime';
import { counterDeltaRun, type Counters } from './counterDelta';

/** The part of pg's Client (and Neon's pg-compatible one) this needs. */
export interface PgQueryable {
  query(text: string, values?: unknown[]): Promise<{ rows: Record<string, unknown>[] }>;
}

const STATEMENT_COUNTERS = `SELECT coalesce(sum(calls), 0)::float8 AS calls,
  coalesce(sum(total_plan_time + total_exec_time), 0)::float8 AS ms
  FROM pg_stat_statements
  WHERE queryid = $1 AND dbid = (SELECT oid FROM pg_database WHERE datname = current_database())`;

export async function pgServerTimeRun(client: PgQueryable, workload: string): Promise<ServerTimeRun> {
  const queryId = await statementQueryId(client, workload);
  if (queryId !== undefined)
    return counterDeltaRun(() => counters(client, queryId), {
      source: 'pg_stat_statements',
      unitUs: 1000,
      none: 'pg_stat_statements counted no execution of the workload over the samples (its entry may have been evicted or reset)',
      note: 'over every execution of this statement in the database during the samples, other sessions included',
    });
  const check = classifySql(workload);
  if (!check.readOnly)
    return {
      finish: async () => ({
        note: `pg_stat_statements is not installed, and EXPLAIN ANALYZE would run the statement again, which only a read-only one may (${check.reason})`,
      }),
    };
  return { finish: () => explainAnalyze(client, workload) };
}

/**
 * The workload's query id in pg_stat_statements, when the extension is installed and computes ids;
 * EXPLAIN (VERBOSE) without ANALYZE plans the statement and runs nothing.
 */
async function statementQueryId(client: PgQueryable, workload: string): Promise<string | undefined> {
  const installed = await client.query("SELECT 1 FROM pg_extension WHERE extname = 'pg_stat_statements'");
  if (installed.rows.length === 0) return undefined;
  const plan = await client.query(`EXPLAIN (VERBOSE, FORMAT JSON) ${workload}`);
  const id = (firstPlan(plan.rows) as { 'Query Identifier'?: unknown } | undefined)?.['Query Identifier'];
  return typeof id === 'number' || typeof id === 'string' ? String(id) : undefined;
}

async function counters(client: PgQueryable, queryId: string): Promise<Counters> {
  const row = (await client.query(STATEMENT_COUNTERS, [queryId])).rows[0] ?? {};
  return { count: Number(row.calls ?? 0), total: Number(row.ms ?? 0) };
}

/** EXPLAIN ANALYZE runs after the first, which warms the side connection, each one execution. */
const EXPLAINED_RUNS = 3;

/**
 * The median of EXPLAINED_RUNS EXPLAIN ANALYZE runs after one more: the first on the side
 * connection pays its backend's cold catalog caches in planning (3 ms beside a 20 ms pg_sleep on
 * the testbed), which the samples' warm connections do not, and one execution alone took a host's
 * hiccup whole (22.3 ms for a pg_sleep(0.02) at load average 7, 20.2 ms in the runs around it).
 */
async function explainAnalyze(client: PgQueryable, workload: string): Promise<ServerTime> {
  await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${workload}`);
  const runs: { planning: number; execution: number; node: string }[] = [];
  for (let i = 0; i < EXPLAINED_RUNS; i++) {
    const result = await client.query(`EXPLAIN (ANALYZE, FORMAT JSON) ${workload}`);
    const plan = firstPlan(result.rows) as
      { 'Planning Time'?: unknown; 'Execution Time'?: unknown; Plan?: Record<string, unknown> } | undefined;
    const planning = Number(plan?.['Planning Time']);
    const execution = Number(plan?.['Execution Time']);
    if (!Number.isFinite(planning) || !Number.isFinite(execution))
      return { note: 'EXPLAIN ANALYZE gave no planning and execution time', source: 'explain-analyze' };
    runs.push({ planning, execution, node: topNode(plan?.Plan) });
  }
  runs.sort((a, b) => a.planning + a.execution - (b.planning + b.execution));
  const middle = runs[Math.floor(runs.length / 2)]!;
  return {
    p50Us: Math.round((middle.planning + middle.execution) * 1000),
    source: 'explain-analyze',
    samples: runs.length,
    figure: 'p50',
    note: `planning ${middle.planning.toFixed(3)} ms + execution ${middle.execution.toFixed(3)} ms on a warm connection; top node: ${middle.node}`,
  };
}

/** "Seq Scan on orders, 120000 rows": the plan's top node and the rows it gave. */
function topNode(node: Record<string, unknown> | undefined): string {
  if (!node) return 'none';
  const on = typeof node['Relation Name'] === 'string' ? ` on ${node['Relation Name']}` : '';
  const rows = typeof node['Actual Rows'] === 'number' ? `, ${node['Actual Rows']} rows` : '';
  return `${String(node['Node Type'] ?? 'unknown')}${on}${rows}`;
}

/** EXPLAIN (FORMAT JSON) answers one row whose one column is a list of one plan (pg parses json). */
function firstPlan(rows: Record<string, unknown>[]): unknown {
  const cell = rows[0] ? Object.values(rows[0])[0] : undefined;
  const list = typeof cell === 'string' ? (JSON.parse(cell) as unknown) : cell;
  return Array.isArray(list) ? list[0] : undefined;
}

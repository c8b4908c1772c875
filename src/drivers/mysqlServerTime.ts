/**
 * MySQL's own time for a statement, from performance_schema's digest summary once before and once
 * after a kind's samples: the delta of SUM_TIMER_WAIT (picoseconds) over the delta of COUNT_STAR is
 * the mean time the server spent on the statement, over every session that ran it. The digest comes
 * from STATEMENT_DIGEST() (MySQL 8.0.22+), which only parses the text. performance_schema off,
 * no STATEMENT_DIGEST() (MariaDB) or no grant on its tables: a note.
 */
import type { ServerTimeRun } from '../core/driver';
import { counterDeltaRun, type Counters } from './counterDelta';

/** mysql2's callback query, the one call this needs. */
export interface MysqlQueryable {
  query(sql: string, values: unknown[], callback: (error: Error | null, rows: unknown) => void): unknown;
}

const SUMMARY = `SELECT COALESCE(SUM(COUNT_STAR), 0) AS calls, COALESCE(SUM(SUM_TIMER_WAIT), 0) AS ps
  FROM performance_schema.events_statements_summary_by_digest WHERE DIGEST = ?`;

export async function mysqlServerTimeRun(conn: MysqlQueryable, workload: string): Promise<ServerTimeRun> {
  const [on] = await rows(conn, 'SELECT @@performance_schema AS enabled', []);
  if (Number(on?.enabled) !== 1)
    return noteOnly(
      'performance_schema is off on this server (it is turned on with performance_schema=ON at server start)',
    );
  let digest: string;
  try {
    const [row] = await rows(conn, 'SELECT STATEMENT_DIGEST(?) AS digest', [workload]);
    digest = String(row?.digest ?? '');
  } catch {
    return noteOnly(
      'this server has no STATEMENT_DIGEST() (MySQL 8.0.22+; MariaDB has none) to find the statement',
    );
  }
  return counterDeltaRun(() => summary(conn, digest), {
    source: 'performance_schema',
    unitUs: 1e-6,
    none: 'performance_schema counted no execution of the statement over the samples',
    note: 'over every execution of this statement during the samples, other sessions included',
  });
}

function noteOnly(note: string): ServerTimeRun {
  return { finish: async () => ({ note, source: 'performance_schema' }) };
}

async function summary(conn: MysqlQueryable, digest: string): Promise<Counters> {
  const [row] = await rows(conn, SUMMARY, [digest]);
  return { count: Number(row?.calls ?? 0), total: Number(row?.ps ?? 0) };
}

function rows(conn: MysqlQueryable, sql: string, values: unknown[]): Promise<Record<string, unknown>[]> {
  return new Promise((resolve, reject) =>
    conn.query(sql, values, (error, result) =>
      error ? reject(error) : resolve(Array.isArray(result) ? (result as Record<string, unknown>[]) : []),
    ),
  );
}

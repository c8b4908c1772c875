/**
 * Server-side connection counters, read over a separate admin connection opened before the baseline
 * so it does not count itself: proof that `initial` opened a new connection per sample and that
 * nothing was left open.
 */
import { Client } from 'pg';
import { createConnection, type Connection } from 'mysql2/promise';
import Redis from 'ioredis';

export interface ConnectionCounter {
  /** Connections ever accepted (monotonic). */
  accepted(): Promise<number>;
  /** Connections open now, not counting the counter's own. */
  open(): Promise<number>;
  close(): Promise<void>;
}

/** PostgreSQL: sessions ever opened on `database`, and backends open on it. */
export async function pgCounter(adminUrl: string, database: string): Promise<ConnectionCounter> {
  const admin = new Client({ connectionString: adminUrl.replace(/\/[^/?]*(\?|$)/, '/postgres$1') });
  await admin.connect();
  const read = async (sql: string) => {
    await admin.query('SELECT pg_stat_clear_snapshot()');
    const { rows } = await admin.query<{ n: string }>(sql, [database]);
    return Number(rows[0]?.n ?? 0);
  };
  return {
    // Backends report their session to the statistics when they exit: wait until the count settles.
    accepted: () => settled(() => read('SELECT sessions AS n FROM pg_stat_database WHERE datname = $1')),
    open: () =>
      settled(() =>
        read(
          "SELECT count(*) AS n FROM pg_stat_activity WHERE datname = $1 AND backend_type = 'client backend'",
        ),
      ),
    close: () => admin.end(),
  };
}

export async function mysqlCounter(url: string): Promise<ConnectionCounter> {
  const admin: Connection = await createConnection(url);
  const status = async (name: string) => {
    const [rows] = await admin.query(`SHOW GLOBAL STATUS LIKE '${name}'`);
    return Number((rows as { Value: string }[])[0]?.Value ?? 0);
  };
  // Open connections are counted by id among those that were not there when the counter was made:
  // other clients of the server (ps-http-sim's pool after an earlier test) may close theirs meanwhile,
  // which a plain Threads_connected would read as this run's.
  const ids = async () => {
    const [rows] = await admin.query('SELECT ID FROM information_schema.PROCESSLIST');
    return (rows as { ID: number }[]).map((r) => Number(r.ID));
  };
  const adminId = Number(((await admin.query('SELECT CONNECTION_ID() AS id'))[0] as { id: number }[])[0]?.id);
  const existing = new Set(await ids());
  return {
    accepted: () => settled(() => status('Connections')),
    open: () => settled(async () => (await ids()).filter((id) => id !== adminId && !existing.has(id)).length),
    close: () => admin.end(),
  };
}

export async function redisCounter(url: string): Promise<ConnectionCounter> {
  const admin = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  await admin.connect();
  const info = async (key: string) => {
    const text = await admin.info(key === 'connected_clients' ? 'clients' : 'stats');
    return Number(new RegExp(`^${key}:(\\d+)`, 'm').exec(text)?.[1] ?? NaN);
  };
  return {
    accepted: () => settled(() => info('total_connections_received')),
    open: () => settled(async () => (await info('connected_clients')) - 1),
    close: async () => void (await admin.quit()),
  };
}

/**
 * FerretDB: its Prometheus metrics count accepted connections and, in the lifetime histogram, the
 * ones that ended; open = accepted - ended. Read over HTTP, so the counter opens no wire connection.
 */
export function ferretdbCounter(metricsUrl: string): ConnectionCounter {
  const metric = async (name: string) => {
    const response = await fetch(metricsUrl, { signal: AbortSignal.timeout(3_000) });
    const text = (await response.text()).slice(0, 2_000_000);
    let total = 0;
    for (const line of text.split('\n')) {
      if (line.startsWith(`${name}{`) || line.startsWith(`${name} `)) total += Number(line.split(' ').pop());
    }
    return total;
  };
  return {
    accepted: () => settled(() => metric('ferretdb_client_accepts_total')),
    open: () =>
      settled(
        async () =>
          (await metric('ferretdb_client_accepts_total')) -
          (await metric('ferretdb_client_duration_seconds_count')),
      ),
    close: async () => undefined,
  };
}

/** Reads until two consecutive values agree (bounded: about 3 s), for counters updated asynchronously. */
async function settled(read: () => Promise<number>): Promise<number> {
  let previous = await read();
  for (let i = 0; i < 30; i++) {
    await new Promise((r) => setTimeout(r, 100));
    const next = await read();
    if (next === previous) return next;
    previous = next;
  }
  return previous;
}

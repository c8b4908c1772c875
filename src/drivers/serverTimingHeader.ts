/**
 * The database's own time in an HTTP answer's `Server-Timing` header. PostgREST 12+ sends
 * `jwt, parse, plan, transaction, response`: only `transaction` is spent in the database (the rest
 * is PostgREST's own work), so that is the figure. A server that names a `db` or `database` metric
 * gives that. Any other metric is not the database's, and no figure is read from it.
 */
const DATABASE_METRICS = ['transaction', 'db', 'database'];

/** Milliseconds of the first database metric with a `dur`; undefined when there is none. */
export function serverTimingDatabaseMs(header: string | null | undefined): number | undefined {
  if (!header) return undefined;
  const durations = new Map<string, number>();
  for (const entry of header.split(',')) {
    const [name, ...params] = entry.split(';').map((part) => part.trim());
    const dur = params.find((p) => /^dur=/i.test(p))?.slice(4);
    const ms = dur === undefined ? NaN : Number(dur.replace(/^"|"$/g, ''));
    if (name && Number.isFinite(ms) && ms >= 0 && !durations.has(name.toLowerCase()))
      durations.set(name.toLowerCase(), ms);
  }
  for (const metric of DATABASE_METRICS) {
    const ms = durations.get(metric);
    if (ms !== undefined) return ms;
  }
  return undefined;
}

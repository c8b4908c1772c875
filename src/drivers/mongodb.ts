/**
 * The official `mongodb` driver over TCP (Atlas, FerretDB, any MongoDB wire server).
 *
 * Workload syntax (one line):
 * - `{ping:1}` (default) or any JSON object: run it as a database command (`db.command(...)`);
 *   keys may be left unquoted: `{ping:1}`, `{hello:1}`, `{count:"users"}`;
 * - `findOne COLLECTION [FILTER]`: one document, e.g. `findOne users {"_id":1}`;
 * - `find COLLECTION [FILTER] [limit N]`: the cursor is read to the end, e.g. `find users {} limit 250`;
 * - `insertOne COLLECTION DOCUMENT`: a fresh copy of DOCUMENT is inserted each sample (new _id).
 * The database is the one in the connection string's path (the driver's default `test` when absent).
 *
 * Reuse: a connection is a new MongoClient. `connect()` does the driver's server selection (its
 * monitoring socket: hello); the first operation opens the pooled socket and authenticates, which
 * `initial` pays every sample and `subsequent` pays once (in warm-up). The client's monitor keeps its
 * own socket: Mongo drivers always hold one more connection than the application uses. The anatomy
 * of connect (DNS, TCP, TLS, handshake) is the monitor socket's; the pooled socket's setup and auth
 * are inside firstQuery.
 */
import type * as Mongo from 'mongodb';
import type { MongoClient, Db, Document, FindCursor } from 'mongodb';
import type { Driver, DriverConnection, FirstRowWatch } from '../core/driver';
import type { ErrorClass } from '../shared/errors';
import { catalogInfo } from './catalog';
import { mongoServerTimeRun, type OpCategory } from './mongoServerTime';
import { closeWithin, connectAbortable } from './abort';
import { nodeTlsTrust } from './tlsOptions';
import { withTlsConnectWatch } from './tlsConnectWatch';
import { DriverPackage } from './packageSource';

const mongoPackage = new DriverPackage<typeof Mongo>(
  'mongodb',
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- the bundled copy (the build inlines it)
  () => require('mongodb'),
);

export type MongoWorkload =
  | { op: 'command'; command: Document }
  | { op: 'findOne'; collection: string; filter: Document }
  | { op: 'find'; collection: string; filter: Document; limit?: number }
  | { op: 'insertOne'; collection: string; document: Document };

/** A workload this driver cannot parse: the target's query needs fixing. */
export class MongoWorkloadError extends Error {
  override name = 'MongoWorkloadError';
}

const FORMS = '{ping:1}, findOne COLL {FILTER}, find COLL {FILTER} limit N, insertOne COLL {DOC}';

/** JSON with optionally unquoted keys, as people write Mongo commands. */
function parseObject(text: string, what: string): Document {
  const quoted = text.replace(/([{,]\s*)([A-Za-z_$][\w$]*)\s*:/g, '$1"$2":');
  let value: unknown;
  try {
    value = JSON.parse(quoted);
  } catch {
    throw new MongoWorkloadError(`the Mongo workload's ${what} is not valid JSON: ${text} (forms: ${FORMS})`);
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) {
    throw new MongoWorkloadError(`the Mongo workload's ${what} must be a JSON object (forms: ${FORMS})`);
  }
  return value as Document;
}

export function parseMongoWorkload(workload: string): MongoWorkload {
  const text = workload.trim();
  if (text.startsWith('{')) return { op: 'command', command: parseObject(text, 'command') };
  const match = /^(findOne|find|insertOne)\s+([^\s{]+)\s*(.*)$/s.exec(text);
  if (!match) throw new MongoWorkloadError(`unknown Mongo workload "${text}" (forms: ${FORMS})`);
  const op = match[1] as 'findOne' | 'find' | 'insertOne';
  const collection = match[2]!;
  let rest = match[3]!.trim();
  if (op === 'insertOne') {
    if (!rest)
      throw new MongoWorkloadError(`insertOne needs a document, e.g. insertOne ${collection} {"n":1}`);
    return { op, collection, document: parseObject(rest, 'document') };
  }
  let limit: number | undefined;
  const limitMatch = /(?:^|\s)limit\s+(\d+)$/.exec(rest);
  if (limitMatch) {
    if (op !== 'find') throw new MongoWorkloadError('limit applies to find, not findOne');
    limit = Number(limitMatch[1]);
    rest = rest.slice(0, limitMatch.index).trim();
  }
  const filter = rest ? parseObject(rest, 'filter') : {};
  return op === 'find'
    ? { op, collection, filter, ...(limit !== undefined ? { limit } : {}) }
    : { op, collection, filter };
}

/** The opLatencies category an operation is counted in. */
function opCategory(workload: MongoWorkload): OpCategory {
  if (workload.op === 'command') return 'commands';
  return workload.op === 'insertOne' ? 'writes' : 'reads';
}

/** Runs one operation; resolves with the documents it read (find, findOne), else undefined. */
async function run(db: Db, workload: MongoWorkload): Promise<number | undefined> {
  switch (workload.op) {
    case 'command':
      await db.command(workload.command);
      return undefined;
    case 'findOne':
      return (await db.collection(workload.collection).findOne(workload.filter)) === null ? 0 : 1;
    case 'find':
      return (await findCursor(db, workload).toArray()).length;
    case 'insertOne':
      // The driver writes the new _id into the object it is given: insert a copy.
      await db.collection(workload.collection).insertOne(structuredClone(workload.document));
      return undefined;
  }
}

function findCursor(db: Db, workload: Extract<MongoWorkload, { op: 'find' }>): FindCursor {
  const cursor = db.collection(workload.collection).find(workload.filter);
  if (workload.limit !== undefined) cursor.limit(workload.limit);
  return cursor;
}

/**
 * A find read batch by batch: the first batch arrives with the find command's reply (hasNext()
 * fetches it), the rest with each getMore that toArray() sends. Other operations answer in one reply
 * and take run()'s path.
 */
async function runStreamed(
  db: Db,
  workload: MongoWorkload,
  watch: FirstRowWatch,
): Promise<number | undefined> {
  if (workload.op !== 'find') return run(db, workload);
  const cursor = findCursor(db, workload);
  if (!(await cursor.hasNext())) return 0;
  watch.firstRow();
  return (await cursor.toArray()).length;
}

interface ClientInternals {
  topology?: { close(): void; closeCheckedOutConnections?(): void };
}

/** Closes every socket of the client at once, without the polite endSessions round trip. */
function destroyClient(client: MongoClient): void {
  const topology = (client as unknown as ClientInternals).topology;
  client.close().catch(() => undefined);
  try {
    topology?.closeCheckedOutConnections?.();
    topology?.close();
  } catch {
    // Already closed.
  }
}

/** The parameters that relax the MongoDB driver's TLS checks (matched as it matches names: any case). */
const UNCHECKED_TLS_PARAMETERS = ['tlsInsecure', 'tlsAllowInvalidCertificates', 'tlsAllowInvalidHostnames'];

/**
 * What leaves the MongoDB driver's certificate checks off for `url`, read by its own parser:
 * `tlsInsecure`, `tlsAllowInvalidCertificates` (no certificate check) or `tlsAllowInvalidHostnames`
 * (no host name check), on a connection that uses TLS.
 */
export function mongodbUncheckedTls(url: string): string | undefined {
  let options: { tls?: unknown; rejectUnauthorized?: unknown; checkServerIdentity?: unknown };
  try {
    options = new mongoPackage.module.MongoClient(url).options;
  } catch {
    return undefined;
  }
  if (options.tls !== true) return undefined;
  const unchecked =
    options.rejectUnauthorized === false
      ? 'no certificate check'
      : typeof options.checkServerIdentity === 'function'
        ? 'no host name check'
        : undefined;
  if (!unchecked) return undefined;
  const query = url.split('?')[1] ?? '';
  const named = UNCHECKED_TLS_PARAMETERS.filter((name) =>
    new RegExp(`(^|&)${name}=true(&|#|$)`, 'i').test(query),
  );
  return `the connection string's ${named.map((n) => `${n}=true`).join(' and ') || 'TLS options'} (${unchecked})`;
}

export const mongodbDriver: Driver = {
  info: catalogInfo('mongodb'),
  packages: [mongoPackage],
  uncheckedTls: mongodbUncheckedTls,
  async connect({ url, signal, timeoutMs, tls, phases }): Promise<DriverConnection> {
    const trust = nodeTlsTrust(tls);
    const client = new mongoPackage.module.MongoClient(url, {
      // Used when the URL asks for TLS (tls=true, mongodb+srv:); the CA text, so no sample reads a file.
      ...(trust.ca !== undefined ? { ca: trust.ca } : {}),
      ...(trust.rejectUnauthorized === false ? { tlsInsecure: true } : {}),
      // The driver passes no maxVersion to tls.connect; a TLS 1.2-only method is the same ceiling.
      ...(trust.maxVersion === 'TLSv1.2' ? { secureProtocol: 'TLSv1_2_method' } : {}),
      // Server selection waits out its whole timeout even when the port refused: end it a little
      // before the engine's deadline so the driver's own reason (refused, timed out) is what we see.
      serverSelectionTimeoutMS: Math.max(1, timeoutMs - Math.min(250, timeoutMs / 10)),
      connectTimeoutMS: timeoutMs,
      maxPoolSize: 1,
      // The engine owns retries: a probe must see every failure.
      retryReads: false,
      retryWrites: false,
      appName: 'dbprobe',
    });
    client.on('error', () => undefined);
    // The driver makes its TLS sockets with tls.connect() and offers no hook to hand them over: catch
    // them there (tlsConnectWatch.ts). The sample's socket is the first one, the monitor's: connect()
    // is its DNS, TCP, TLS and hello; the pooled socket and its auth come with the first operation.
    await connectAbortable(
      signal,
      () => withTlsConnectWatch(phases?.socket, () => client.connect()),
      () => destroyClient(client),
    );
    const db = client.db();
    const parsed = new Map<string, MongoWorkload>();
    const planOf = (workload: string): MongoWorkload => {
      let plan = parsed.get(workload);
      if (!plan) parsed.set(workload, (plan = parseMongoWorkload(workload)));
      return plan;
    };
    return {
      query: (workload) => run(db, planOf(workload)),
      close: () =>
        closeWithin(
          () => client.close(),
          () => destroyClient(client),
        ),
      destroy: () => destroyClient(client),
      serverTimeRun: (workload) => mongoServerTimeRun(db, opCategory(parseMongoWorkload(workload))),
      rows: {
        count: (answer) => (typeof answer === 'number' ? answer : undefined),
        query: (workload, watch) => runStreamed(db, planOf(workload), watch),
      },
    };
  },
  serverTime: { per: 'run', sources: ['opLatencies'] },
  firstArrival: 'batch',
  classify(error: unknown): ErrorClass | undefined {
    if (error instanceof MongoWorkloadError) return 'query';
    const e = error as { name?: string; code?: unknown; codeName?: unknown };
    switch (e?.name) {
      case 'MongoParseError':
      case 'MongoInvalidArgumentError':
      case 'MongoAPIError':
        return 'config';
      case 'MongoNetworkTimeoutError':
        return 'timeout';
      case 'MongoServerError':
        // 18 AuthenticationFailed, 13 Unauthorized; FerretDB over PostgreSQL checks a PLAIN login on the
        // first command and answers PostgreSQL's refusal (SQLSTATE 28P01) as an internal error (1).
        if (e.code === 18 || e.code === 13) return 'auth';
        // 10107 NotWritablePrimary, 13435 NotPrimaryNoSecondaryOk: a secondary refused the operation.
        if (e.code === 10107 || e.code === 13435) return 'permission';
        return e.code === 1 && /SQLSTATE 28P01|password authentication failed/.test(boundedMessage(error))
          ? 'auth'
          : 'query';
      default:
        return undefined;
    }
  },
};

/** The start of an error's message, bounded before any pattern reads it. */
function boundedMessage(error: unknown): string {
  const message = (error as { message?: unknown }).message;
  return typeof message === 'string' ? message.slice(0, 4096) : '';
}

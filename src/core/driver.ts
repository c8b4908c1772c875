/**
 * The one small interface every driver implements. The engine knows drivers only through this and a
 * registry handed to it; it never names a driver.
 */
import type { ErrorClass } from '../shared/errors';
import type { PackageLookup } from '../shared/packageLookup';
import type { DriverPackageSource, DriverVersion } from '../shared/result';
import type { PhaseReporter } from './socketPhases';
import type { OrmQueryPath } from '../shared/layerCatalog';
import type { ServerTime, ServerTimeSource } from '../shared/serverTime';
import type { FirstArrival } from '../shared/answerRows';

export type Transport = 'tcp' | 'http' | 'ws' | 'file';
export type WorkloadFamily = 'sql' | 'redis' | 'mongo' | 'http';
export type SqlDialect = 'postgres' | 'mysql' | 'sqlite';

/** Static facts about a driver, available without loading its npm client. */
export interface DriverInfo {
  id: string;
  /** The file under src/drivers/ that implements it (the build makes one lazy bundle per module). */
  module: string;
  /** npm package whose version the result records. */
  packageName: string;
  /**
   * The versions of `packageName` the driver is written for, when an app's older copy is known to
   * break it (pg 7 lacks what its destroy uses): from `from` up to, not including, `below`.
   */
  supported?: { from: string; below: string };
  /** Every npm package the driver's module imports: only src/drivers/ may import them (lint). */
  packages: readonly string[];
  /** Works without TCP sockets (over fetch), so a Cloudflare Worker runner can offer it. */
  runsOnWorkers: boolean;
  /**
   * Options that name a host to send the connection to (an HTTP endpoint, a WebSocket proxy): a
   * runner checks them like the connection string's own host.
   */
  endpointOptions?: readonly string[];
  /** Default transport; a driver whose transport follows the URL reports it per target. */
  transport: Transport;
  family: WorkloadFamily;
  /** SQL drivers: the dialect the workload presets write their statements in. */
  dialect?: SqlDialect;
  defaultQuery: string;
  /** URL schemes accepted, without the colon. */
  schemes: readonly string[];
  /** A connection string example with a placeholder password, for docs and errors. */
  connectionExample: string;
  description: string;
}

export interface ConnectOptions {
  url: string;
  /** Aborted on connect timeout or run cancellation: the driver must drop its socket. */
  signal: AbortSignal;
  timeoutMs: number;
  options: Record<string, unknown>;
  /**
   * The target's TLS trust, when it sets one. It never turns TLS on (the connection string does);
   * it says whom to trust when TLS is on. Each driver applies it its own way (ca / tlsCAFile /
   * rejectUnauthorized: see src/drivers/tlsOptions.ts).
   */
  tls?: ConnectTls;
  /** The HTTP version a fetch-based driver offers (target `http.version`); HTTP/1.1 when absent. */
  http?: ConnectHttp;
  /**
   * Where a driver hands the sample the sockets Node does not publish, its TLS upgrades and the steps
   * it cannot show (see socketPhases.ts). Calls outside a timed connect do nothing.
   */
  phases?: PhaseReporter;
}

/** The HTTP version a fetch-based driver offers: `2` puts h2 in TLS's ALPN, `1.1` only http/1.1. */
export interface ConnectHttp {
  version: '1.1' | '2';
}

/** TLS trust as a driver receives it: the CA file already read. */
export interface ConnectTls {
  /** PEM CA certificates to trust in place of the system store. */
  ca?: string;
  /** Accept any certificate (explicitly asked for by the target's `tls.insecure`). */
  insecure?: boolean;
  /** The highest TLS version to offer (`tls.maxVersion`), in Node's spelling. */
  maxVersion?: 'TLSv1.2' | 'TLSv1.3';
}

export interface DriverConnection {
  /**
   * Runs one workload sample; resolves when the full answer has arrived, with a value nobody reads:
   * a driver may return its client's own promise, so the sample's end is stamped in that promise's
   * first continuation, as a raw `await client.query()` would be. No signal here: on a timeout or
   * cancellation the engine calls destroy(), which keeps the timed path as short as a raw call.
   */
  query(workload: string): Promise<unknown>;
  /** Ends the connection politely; must settle promptly even when the server hangs. */
  close(): Promise<void>;
  /** Drops the socket at once (timeouts, cancellation); never throws. */
  destroy(): void;
  /**
   * The npm client this connection drives (a pg Client, a mysql2 Connection, neon()'s query
   * function...), for an ORM layer to send its queries over the same connection and socket.
   */
  client?: unknown;
  /**
   * Per-sample server time: the database's own time (µs) stated in the answer `query` resolved
   * with, read after the sample's end stamp; undefined when this answer carried none.
   */
  serverTimeOf?(answer: unknown): number | undefined;
  /**
   * Per-run server time, on a connection of its own opened before a kind's samples: starts reading
   * the server's counters for `workload` (a delta needs a start); `finish` after the samples gives
   * the figure, or a note when the server refused (a privilege, an extension). Never a failed run.
   */
  serverTimeRun?(workload: string): Promise<ServerTimeRun>;
  /** A client that streams an answer's rows: their count, and the query that says when the first came. */
  rows?: RowStream;
}

/**
 * The streamed path of a driver's query, taken only for a target whose first answer held many rows,
 * so the ordinary query() of every other target stays a raw client call.
 */
export interface RowStream {
  /** Rows the answer `query` (or `query` here) resolved with held; read after the end stamp. */
  count(answer: unknown): number | undefined;
  /**
   * query() with a call to `watch.firstRow()` as the first row (batch) arrives, in the client's own
   * event for it; same answer, same end, and no work per later row.
   */
  query(workload: string, watch: FirstRowWatch): Promise<unknown>;
}

export interface FirstRowWatch {
  firstRow(): void;
}

export interface ServerTimeRun {
  finish(): Promise<ServerTime>;
}

/**
 * How a driver learns the database's own time: per sample from each answer (its connections have
 * serverTimeOf; `absent` says why when no answer carried one), or per run (serverTimeRun).
 */
export type ServerTimeSupport =
  | { per: 'sample'; source: ServerTimeSource; absent: string }
  | { per: 'run'; sources: readonly ServerTimeSource[] };

/** One npm client a driver loads: from the project when it has one, else the bundled copy. */
export interface DriverClientPackage {
  readonly name: string;
  /** Where the loaded copy came from (after the registry loaded the driver). */
  readonly source: DriverPackageSource | undefined;
  /** Chooses and loads the copy (src/drivers/packageSource.ts). */
  load(lookup: PackageLookup): Promise<DriverPackageSource>;
}

export interface Driver {
  info: DriverInfo;
  /** The npm clients it loads (through src/drivers/packageSource.ts); the registry loads them first. */
  packages?: readonly DriverClientPackage[];
  connect(options: ConnectOptions): Promise<DriverConnection>;
  /**
   * An ORM layer's driver only: the layer started over a connection its raw driver already opened,
   * so the layer and the raw driver take turns on one connection and their difference carries no
   * connection of its own. Closing the result lets the layer go and leaves the connection open;
   * destroying it drops the connection (a timed-out query left it mid-protocol).
   */
  over?(conn: DriverConnection): Promise<DriverConnection>;
  /** A driver-specific class for an error its client threw, when the generic rules cannot tell. */
  classify?(error: unknown): ErrorClass | undefined;
  /** Where the database's own time comes from; absent: the server does not say (NOT_GIVEN). */
  serverTime?: ServerTimeSupport;
  /**
   * Set when its connections stream rows (DriverConnection.rows): what arrives first, a row or a
   * batch of documents (a mongodb cursor's first reply).
   */
  firstArrival?: FirstArrival;
  /** The transport a URL selects (libsql: http, ws or file). */
  transportFor?(url: string): Transport;
  /**
   * The setting that turns this client's certificate checks off for `url`, read as the client reads
   * it, named for the user ("the connection string's sslmode=no-verify (no certificate check)"),
   * when one does: the target is then reported as `tls.insecure`.
   */
  uncheckedTls?(url: string): string | undefined;
}

export interface DriverRegistry {
  ids(): string[];
  info(id: string): DriverInfo | undefined;
  load(id: string): Promise<Driver>;
  /**
   * The driver's npm package as the run uses it: its version and whether it is the project's own
   * copy or the bundled one (what load() chose; before a load, what it would choose).
   */
  packageSource(id: string): DriverVersion | undefined;
  /**
   * The driver `id` with an ORM layer over each of its connections (the target's `orm`): connect
   * opens the driver's connection and starts the layer on it, query runs the workload through it.
   */
  loadLayer?(id: string, layer: string, path?: OrmQueryPath): Promise<Driver>;
  /**
   * The version of the project's copy of a layer's npm package, the one loadLayer loads, and what
   * the run calls the project; read without loading it. Undefined when the project has none.
   */
  layerVersion?(layer: string): { version: string; from: string } | undefined;
}

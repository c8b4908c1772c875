/**
 * How each driver (and each libSQL transport) is reached in the bad-input catalogue: the real testbed
 * server or the test/fixtures stand-in behind it, and the target that points a driver at any
 * host:port, so a fault can put a closed port, an `.invalid` name, `[::1]` or a toxiproxy in between.
 * The stand-ins run in the test process; the CLI and the runner reach them over 127.0.0.1.
 */
import { randomBytes } from 'node:crypto';
import * as path from 'node:path';
import { startHranaStandIn, type HranaStandIn } from '../fixtures/hranaStandIn';
import { startNeonHttpStandIn, type NeonHttpStandIn } from '../fixtures/neonHttpStandIn';
import { startPostgrestStandIn, type PostgrestStandIn } from '../fixtures/postgrestStandIn';
import { startUpstashStandIn, type UpstashStandIn } from '../fixtures/upstashStandIn';
import { tempDir } from '../helpers/tempDir';
import { sentinelPassword, testbedEnv } from '../helpers/testbed';
import type { VariantId } from './badInputs';

/** A token of our own, planted in every token-based target (libsql, upstash, http). */
export const CATALOGUE_TOKEN = `cattok-${randomBytes(12).toString('hex')}`;

export interface Endpoint {
  /** A host as it goes into a URL: `127.0.0.1`, `[::1]`, `db.dbprobe.invalid`. */
  host: string;
  port: number;
}

/** A target as the config holds it, with the connection string its env variable carries. */
export interface VariantTarget {
  driver: string;
  url: string;
  options?: Record<string, unknown>;
  query?: string;
}

export interface Variant {
  id: VariantId;
  /** The real server (or stand-in) this variant talks to. */
  upstream(): Endpoint;
  /** The target reaching the server at `at` (a toxiproxy, a closed port, a name that never resolves). */
  at(at: Endpoint): VariantTarget;
  /** The same target with credentials the server refuses. */
  wrongCredentials(at: Endpoint): VariantTarget;
  /** The same target asking for TLS from a server that speaks plain text. */
  tls(at: Endpoint): VariantTarget;
  /** The secret planted in this variant's connection string, and the user name beside it. */
  secret(): { user: string; secret: string };
}

export interface CatalogueServers {
  neonHttp: NeonHttpStandIn;
  hrana: HranaStandIn;
  upstash: UpstashStandIn;
  postgrest: PostgrestStandIn;
  close(): Promise<void>;
}

export async function startCatalogueServers(): Promise<CatalogueServers> {
  const [neonHttp, hrana, upstash, postgrest] = await Promise.all([
    startNeonHttpStandIn(),
    startHranaStandIn({ file: path.join(tempDir('catalogue'), 'cat.db'), token: CATALOGUE_TOKEN }),
    startUpstashStandIn(testbedEnv('DBPROBE_TEST_REDIS_URL'), CATALOGUE_TOKEN),
    startPostgrestStandIn(testbedEnv('DBPROBE_TEST_PG_URL'), CATALOGUE_TOKEN),
  ]);
  return {
    neonHttp,
    hrana,
    upstash,
    postgrest,
    close: async () => {
      await Promise.all([neonHttp.close(), hrana.close(), upstash.close(), postgrest.close()]);
    },
  };
}

const WRONG = 'wrong-password-cat';
const hostPort = (url: string): Endpoint => {
  const u = new URL(url);
  return { host: u.hostname, port: Number(u.port) };
};
const local = (port: number): Endpoint => ({ host: '127.0.0.1', port });
const pw = () => sentinelPassword();
const token = () => CATALOGUE_TOKEN;

/** `${scheme}://user:password@host:port/db` built by hand, so `[::1]` and `.invalid` stay as written. */
const url = (scheme: string, user: string, password: string, at: Endpoint, rest = '') =>
  `${scheme}://${user}${password ? `:${encodeURIComponent(password)}` : ''}${user || password ? '@' : ''}${at.host}:${at.port}${rest}`;

export function variants(servers: CatalogueServers): Variant[] {
  const pgUrl = (
    password: string,
    host = '127.0.0.1',
    port = hostPort(testbedEnv('DBPROBE_TEST_PG_URL')).port,
  ) => url('postgres', 'dbprobe', password, { host, port }, '/dbprobe');
  return [
    {
      id: 'pg',
      upstream: () => hostPort(testbedEnv('DBPROBE_TEST_PG_URL')),
      at: (at) => ({ driver: 'pg', url: url('postgres', 'dbprobe', pw(), at, '/dbprobe') }),
      wrongCredentials: (at) => ({ driver: 'pg', url: url('postgres', 'dbprobe', WRONG, at, '/dbprobe') }),
      tls: (at) => ({ driver: 'pg', url: url('postgres', 'dbprobe', pw(), at, '/dbprobe?sslmode=require') }),
      secret: () => ({ user: 'dbprobe', secret: pw() }),
    },
    {
      id: 'mysql2',
      upstream: () => hostPort(testbedEnv('DBPROBE_TEST_MYSQL_URL')),
      at: (at) => ({ driver: 'mysql2', url: url('mysql', 'dbprobe', pw(), at, '/dbprobe') }),
      wrongCredentials: (at) => ({ driver: 'mysql2', url: url('mysql', 'dbprobe', WRONG, at, '/dbprobe') }),
      tls: (at) => ({
        driver: 'mysql2',
        url: url('mysql', 'dbprobe', pw(), at, '/dbprobe?ssl={"rejectUnauthorized":true}'),
      }),
      secret: () => ({ user: 'dbprobe', secret: pw() }),
    },
    {
      id: 'ioredis',
      upstream: () => hostPort(testbedEnv('DBPROBE_TEST_REDIS_URL')),
      at: (at) => ({ driver: 'ioredis', url: url('redis', '', pw(), at) }),
      wrongCredentials: (at) => ({ driver: 'ioredis', url: url('redis', '', WRONG, at) }),
      tls: (at) => ({ driver: 'ioredis', url: url('rediss', '', pw(), at) }),
      secret: () => ({ user: 'default', secret: pw() }),
    },
    {
      id: 'libsql-http',
      upstream: () => local(servers.hrana.port),
      at: (at) => ({ driver: 'libsql', url: `http://${at.host}:${at.port}?authToken=${token()}` }),
      wrongCredentials: (at) => ({
        driver: 'libsql',
        url: `http://${at.host}:${at.port}?authToken=${WRONG}`,
      }),
      tls: (at) => ({ driver: 'libsql', url: `https://${at.host}:${at.port}?authToken=${token()}` }),
      secret: () => ({ user: '', secret: token() }),
    },
    {
      id: 'libsql-ws',
      upstream: () => local(servers.hrana.port),
      at: (at) => ({ driver: 'libsql', url: `ws://${at.host}:${at.port}?authToken=${token()}` }),
      wrongCredentials: (at) => ({ driver: 'libsql', url: `ws://${at.host}:${at.port}?authToken=${WRONG}` }),
      tls: (at) => ({ driver: 'libsql', url: `wss://${at.host}:${at.port}?authToken=${token()}` }),
      secret: () => ({ user: '', secret: token() }),
    },
    {
      id: 'neon-http',
      upstream: () => local(servers.neonHttp.port),
      at: (at) => ({
        driver: 'neon-http',
        url: pgUrl(pw()),
        options: { fetchEndpoint: `http://${at.host}:${at.port}/sql` },
      }),
      wrongCredentials: (at) => ({
        driver: 'neon-http',
        url: pgUrl(WRONG),
        options: { fetchEndpoint: `http://${at.host}:${at.port}/sql` },
      }),
      tls: (at) => ({
        driver: 'neon-http',
        url: pgUrl(pw()),
        options: { fetchEndpoint: `https://${at.host}:${at.port}/sql` },
      }),
      secret: () => ({ user: 'dbprobe', secret: pw() }),
    },
    {
      id: 'neon-ws',
      upstream: () => local(Number(testbedEnv('DBPROBE_TEST_WEBSOCKIFY_PORT'))),
      at: (at) => ({
        driver: 'neon-ws',
        url: pgUrl(pw()),
        options: { wsProxy: `${at.host}:${at.port}/v1`, useSecureWebSocket: false, pipelineConnect: false },
      }),
      wrongCredentials: (at) => ({
        driver: 'neon-ws',
        url: pgUrl(WRONG),
        options: { wsProxy: `${at.host}:${at.port}/v1`, useSecureWebSocket: false, pipelineConnect: false },
      }),
      tls: (at) => ({
        driver: 'neon-ws',
        url: pgUrl(pw()),
        options: { wsProxy: `${at.host}:${at.port}/v1`, useSecureWebSocket: true, pipelineConnect: false },
      }),
      secret: () => ({ user: 'dbprobe', secret: pw() }),
    },
    {
      id: 'planetscale',
      upstream: () => hostPort(testbedEnv('DBPROBE_TEST_PS_URL')),
      at: (at) => ({ driver: 'planetscale', url: url('http', 'dbprobe', pw(), at) }),
      wrongCredentials: (at) => ({ driver: 'planetscale', url: url('http', 'dbprobe', WRONG, at) }),
      tls: (at) => ({ driver: 'planetscale', url: url('mysql', 'dbprobe', pw(), at) }),
      secret: () => ({ user: 'dbprobe', secret: pw() }),
    },
    {
      id: 'mongodb',
      upstream: () => hostPort(testbedEnv('DBPROBE_TEST_MONGO_URL')),
      // FerretDB runs without authentication: the sentinel rides in the URL all the same, so a leak
      // of the connection string would show; the server ignores credentials it does not check.
      at: (at) => ({ driver: 'mongodb', url: `mongodb://${at.host}:${at.port}/dbprobe?appName=${pw()}` }),
      // The testbed's second FerretDB (PostgreSQL handler) checks passwords: a wrong one is refused there.
      wrongCredentials: () => ({
        driver: 'mongodb',
        url: url(
          'mongodb',
          'dbprobe',
          WRONG,
          hostPort(testbedEnv('DBPROBE_TEST_MONGO_AUTH_URL')),
          '/dbprobe?authMechanism=PLAIN&authSource=%24external',
        ),
      }),
      tls: (at) => ({ driver: 'mongodb', url: `mongodb://${at.host}:${at.port}/dbprobe?tls=true` }),
      secret: () => ({ user: '', secret: pw() }),
    },
    {
      id: 'upstash',
      upstream: () => local(servers.upstash.port),
      at: (at) => ({ driver: 'upstash', url: url('http', 'default', token(), at) }),
      wrongCredentials: (at) => ({ driver: 'upstash', url: url('http', 'default', WRONG, at) }),
      tls: (at) => ({ driver: 'upstash', url: url('https', 'default', token(), at) }),
      secret: () => ({ user: 'default', secret: token() }),
    },
    {
      id: 'http',
      upstream: () => local(servers.postgrest.port),
      at: (at) => ({
        driver: 'http',
        url: url('http', 'apikey', token(), at, '/rest/v1'),
        query: 'GET /pg_namespace?limit=1',
      }),
      wrongCredentials: (at) => ({
        driver: 'http',
        url: url('http', 'apikey', WRONG, at, '/rest/v1'),
        query: 'GET /pg_namespace?limit=1',
      }),
      tls: (at) => ({
        driver: 'http',
        url: url('https', 'apikey', token(), at, '/rest/v1'),
        query: 'GET /pg_namespace?limit=1',
      }),
      secret: () => ({ user: 'apikey', secret: token() }),
    },
  ];
}

/**
 * Static facts about every driver, readable without loading any npm client (lists, docs, config
 * completion, activation). The single source of driver ids: the registry's loaders, the build's lazy
 * bundles, the Worker runner's driver list and the lint rule that keeps npm clients in src/drivers/
 * are all derived from it (test/unit/driver-catalog.test.ts checks the docs agree). The
 * implementations live one per file (`module`) and load through the registry.
 */
import type { DriverInfo } from '../core/driver';

export const DRIVER_CATALOG = [
  {
    id: 'pg',
    module: 'pg',
    packages: ['pg'],
    runsOnWorkers: false,
    packageName: 'pg',
    supported: { from: '8.0.0', below: '9.0.0' },
    transport: 'tcp',
    family: 'sql',
    dialect: 'postgres',
    defaultQuery: 'SELECT 1',
    schemes: ['postgres', 'postgresql'],
    connectionExample: 'postgres://user:PASSWORD@host:5432/db?sslmode=require',
    description:
      'PostgreSQL wire protocol over TCP (node-postgres): Postgres, Neon, Supabase, CockroachDB, pgbouncer',
  },
  {
    id: 'mysql2',
    module: 'mysql2',
    packages: ['mysql2'],
    runsOnWorkers: false,
    packageName: 'mysql2',
    transport: 'tcp',
    family: 'sql',
    dialect: 'mysql',
    defaultQuery: 'SELECT 1',
    schemes: ['mysql', 'mysqls'],
    connectionExample: 'mysql://user:PASSWORD@host:3306/db',
    description: 'MySQL wire protocol over TCP: MySQL, MariaDB, PlanetScale',
  },
  {
    id: 'ioredis',
    module: 'ioredis',
    packages: ['ioredis'],
    runsOnWorkers: false,
    packageName: 'ioredis',
    transport: 'tcp',
    family: 'redis',
    defaultQuery: 'PING',
    schemes: ['redis', 'rediss'],
    connectionExample: 'rediss://default:PASSWORD@host:6379',
    description: 'Redis protocol over TCP: Redis, Upstash, Valkey',
  },
  {
    id: 'libsql',
    module: 'libsql',
    packages: ['@libsql/client'],
    runsOnWorkers: true,
    packageName: '@libsql/client',
    transport: 'http',
    family: 'sql',
    dialect: 'sqlite',
    defaultQuery: 'SELECT 1',
    schemes: ['libsql', 'https', 'http', 'wss', 'ws', 'file'],
    connectionExample:
      'libsql://db-org.turso.io?authToken=TOKEN (https:/wss: pick the transport; file: is embedded)',
    description: 'libSQL/SQLite: Turso over HTTP or WebSocket (Hrana), or an embedded file',
  },
  {
    id: 'neon-http',
    module: 'neonHttp',
    endpointOptions: ['fetchEndpoint'],
    packages: ['@neondatabase/serverless', 'undici'],
    runsOnWorkers: true,
    packageName: '@neondatabase/serverless',
    transport: 'http',
    family: 'sql',
    dialect: 'postgres',
    defaultQuery: 'SELECT 1',
    schemes: ['postgres', 'postgresql'],
    connectionExample: 'postgresql://user:PASSWORD@ep-name-123456.us-east-2.aws.neon.tech/db?sslmode=require',
    description:
      "Neon's serverless driver over HTTP (neon()): one POST per query; option fetchEndpoint for a self-hosted endpoint",
  },
  {
    id: 'neon-ws',
    module: 'neonWs',
    endpointOptions: ['wsProxy'],
    packages: ['@neondatabase/serverless', 'ws'],
    runsOnWorkers: false,
    packageName: '@neondatabase/serverless',
    transport: 'ws',
    family: 'sql',
    dialect: 'postgres',
    defaultQuery: 'SELECT 1',
    schemes: ['postgres', 'postgresql'],
    connectionExample: 'postgresql://user:PASSWORD@ep-name-123456.us-east-2.aws.neon.tech/db?sslmode=require',
    description:
      "Neon's serverless driver over WebSocket (Client): Postgres protocol tunnelled through a WebSocket proxy; options wsProxy, useSecureWebSocket, pipelineConnect, pipelineTLS",
  },
  {
    id: 'planetscale',
    module: 'planetscale',
    packages: ['@planetscale/database'],
    runsOnWorkers: true,
    packageName: '@planetscale/database',
    transport: 'http',
    family: 'sql',
    dialect: 'mysql',
    defaultQuery: 'SELECT 1',
    schemes: ['mysql', 'https', 'http'],
    connectionExample:
      'mysql://user:PASSWORD@aws.connect.psdb.cloud/db (sent over https:; http: only for a local simulator)',
    description: "PlanetScale's serverless driver over HTTP (@planetscale/database): one POST per query",
  },
  {
    id: 'mongodb',
    module: 'mongodb',
    packages: ['mongodb'],
    runsOnWorkers: false,
    packageName: 'mongodb',
    transport: 'tcp',
    family: 'mongo',
    defaultQuery: '{ping:1}',
    schemes: ['mongodb', 'mongodb+srv'],
    connectionExample: 'mongodb+srv://user:PASSWORD@cluster0.abcde.mongodb.net/db',
    description:
      'MongoDB wire protocol over TCP (official driver): Atlas, FerretDB; workloads {ping:1}, findOne, find ... limit N, insertOne',
  },
  {
    id: 'upstash',
    module: 'upstash',
    packages: ['undici'],
    runsOnWorkers: true,
    packageName: 'undici',
    transport: 'http',
    family: 'redis',
    defaultQuery: 'PING',
    schemes: ['https', 'http'],
    connectionExample: 'https://default:TOKEN@eu1-name-12345.upstash.io (or https://host?token=TOKEN)',
    description:
      'Upstash Redis REST API over fetch (undici): POST of a JSON command array with a Bearer token',
  },
  {
    id: 'http',
    module: 'http',
    packages: ['undici'],
    runsOnWorkers: true,
    packageName: 'undici',
    transport: 'http',
    family: 'http',
    defaultQuery: 'GET /',
    schemes: ['https', 'http'],
    connectionExample:
      'https://apikey:KEY@project.supabase.co/rest/v1 (the user name names the header that carries KEY)',
    description:
      'Any HTTP data API over fetch (undici): Supabase REST (PostgREST), TrailBase, PocketBase; workload "METHOD /path"',
  },
] as const satisfies readonly DriverInfo[];

/** A driver id the catalog knows; a loader missing for one is a type error in the registry. */
export type DriverId = (typeof DRIVER_CATALOG)[number]['id'];

export const DRIVER_IDS: readonly DriverId[] = DRIVER_CATALOG.map((info) => info.id);

/** The catalog entry of a known id (the drivers' own files read their info through this). */
export function catalogInfo(id: DriverId): DriverInfo {
  const info = DRIVER_CATALOG.find((entry) => entry.id === id);
  if (!info) throw new Error(`driver "${id}" is not in the catalog`);
  return info;
}

export function isDriverId(id: string): id is DriverId {
  return (DRIVER_IDS as readonly string[]).includes(id);
}

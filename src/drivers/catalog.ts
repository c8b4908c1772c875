/**
 * Static facts about every driver, readable without loading any npm client (lists, docs, config
 * completion, activation). The implementations live one per file and load through the registry.
 */
import type { DriverInfo } from '../core/driver';

export const DRIVER_CATALOG: readonly DriverInfo[] = [
  {
    id: 'pg',
    packageName: 'pg',
    transport: 'tcp',
    family: 'sql',
    defaultQuery: 'SELECT 1',
    schemes: ['postgres', 'postgresql'],
    connectionExample: 'postgres://user:PASSWORD@host:5432/db?sslmode=require',
    description:
      'PostgreSQL wire protocol over TCP (node-postgres): Postgres, Neon, Supabase, CockroachDB, pgbouncer',
  },
  {
    id: 'mysql2',
    packageName: 'mysql2',
    transport: 'tcp',
    family: 'sql',
    defaultQuery: 'SELECT 1',
    schemes: ['mysql', 'mysqls'],
    connectionExample: 'mysql://user:PASSWORD@host:3306/db',
    description: 'MySQL wire protocol over TCP: MySQL, MariaDB, PlanetScale',
  },
  {
    id: 'ioredis',
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
    packageName: '@libsql/client',
    transport: 'http',
    family: 'sql',
    defaultQuery: 'SELECT 1',
    schemes: ['libsql', 'https', 'http', 'wss', 'ws', 'file'],
    connectionExample:
      'libsql://db-org.turso.io?authToken=TOKEN (https:/wss: pick the transport; file: is embedded)',
    description: 'libSQL/SQLite: Turso over HTTP or WebSocket (Hrana), or an embedded file',
  },
  {
    id: 'neon-http',
    packageName: '@neondatabase/serverless',
    transport: 'http',
    family: 'sql',
    defaultQuery: 'SELECT 1',
    schemes: ['postgres', 'postgresql'],
    connectionExample: 'postgresql://user:PASSWORD@ep-name-123456.us-east-2.aws.neon.tech/db?sslmode=require',
    description:
      "Neon's serverless driver over HTTP (neon()): one POST per query; option fetchEndpoint for a self-hosted endpoint",
  },
  {
    id: 'neon-ws',
    packageName: '@neondatabase/serverless',
    transport: 'ws',
    family: 'sql',
    defaultQuery: 'SELECT 1',
    schemes: ['postgres', 'postgresql'],
    connectionExample: 'postgresql://user:PASSWORD@ep-name-123456.us-east-2.aws.neon.tech/db?sslmode=require',
    description:
      "Neon's serverless driver over WebSocket (Client): Postgres protocol tunnelled through a WebSocket proxy; options wsProxy, useSecureWebSocket, pipelineConnect, pipelineTLS",
  },
  {
    id: 'planetscale',
    packageName: '@planetscale/database',
    transport: 'http',
    family: 'sql',
    defaultQuery: 'SELECT 1',
    schemes: ['mysql', 'https', 'http'],
    connectionExample:
      'mysql://user:PASSWORD@aws.connect.psdb.cloud/db (sent over https:; http: only for a local simulator)',
    description: "PlanetScale's serverless driver over HTTP (@planetscale/database): one POST per query",
  },
  {
    id: 'mongodb',
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
];

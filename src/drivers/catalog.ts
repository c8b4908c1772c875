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
];

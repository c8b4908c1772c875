/**
 * Provider presets: what to offer when a user adds a target. A preset is a provider (Neon, Supabase,
 * Turso...) with one or more ready targets, each a driver + defaults (query, options) + the form of
 * connection string the provider hands out + where to find it. Pure data and small helpers: the
 * extension, the CLI and docs read it; nothing here does I/O or knows a driver's code.
 *
 * Rules every preset keeps (unit-tested): TLS stays on for remote hosts (https:, wss:, rediss:,
 * sslmode=require or stricter, mongodb+srv:), and no preset turns certificate checks off.
 */
import type { TargetSpec } from '../../shared/plan';

export interface PresetTarget {
  /** Unique within the preset: `http`, `ws`, `pg-pooled`... */
  id: string;
  label: string;
  driver: string;
  /** The connection string form, with placeholders in capitals (PASSWORD, TOKEN, PROJECT...). */
  connectionExample: string;
  /** Where the provider shows that connection string. */
  connectionHint: string;
  /** Workload when the driver's default is not the right one. */
  query?: string;
  /** Driver options; never secrets, never anything that weakens TLS. */
  options?: Record<string, unknown>;
  note?: string;
}

export interface ProviderPreset {
  id: string;
  name: string;
  helpUrl: string;
  description: string;
  targets: PresetTarget[];
}

const NEON_URL = 'postgresql://USER:PASSWORD@ep-NAME-123456.REGION.aws.neon.tech/DB?sslmode=require';
const NEON_POOLED_URL =
  'postgresql://USER:PASSWORD@ep-NAME-123456-pooler.REGION.aws.neon.tech/DB?sslmode=require';

export const PROVIDER_PRESETS: readonly ProviderPreset[] = [
  {
    id: 'neon',
    name: 'Neon',
    helpUrl: 'https://neon.com/docs/serverless/serverless-driver',
    description:
      "Serverless Postgres: Neon's serverless driver over HTTP or WebSocket, or node-postgres over TCP",
    targets: [
      {
        id: 'http',
        label: 'Neon over HTTP (neon())',
        driver: 'neon-http',
        connectionExample: NEON_URL,
        connectionHint: 'Neon console > project > Connect > connection string',
        note: 'One HTTPS request per query; no session state between queries.',
      },
      {
        id: 'ws',
        label: 'Neon over WebSocket (Client)',
        driver: 'neon-ws',
        connectionExample: NEON_URL,
        connectionHint: 'Neon console > project > Connect > connection string',
        note: "Postgres protocol through Neon's WebSocket proxy (wss:); sessions and transactions work.",
      },
      {
        id: 'pg',
        label: 'Neon over TCP (pg, direct)',
        driver: 'pg',
        connectionExample: NEON_URL,
        connectionHint: 'Neon console > project > Connect > connection string (pooling off)',
      },
      {
        id: 'pg-pooled',
        label: "Neon over TCP (pg, through Neon's PgBouncer)",
        driver: 'pg',
        connectionExample: NEON_POOLED_URL,
        connectionHint: 'Neon console > project > Connect > connection string (pooling on: "-pooler" host)',
      },
    ],
  },
  {
    id: 'vercel-postgres',
    name: 'Vercel Postgres',
    helpUrl: 'https://vercel.com/docs/storage/vercel-postgres',
    description:
      "Neon-backed Postgres from Vercel's marketplace: the same drivers as Neon (@vercel/postgres wraps Neon's)",
    targets: [
      {
        id: 'http',
        label: 'Vercel Postgres over HTTP (neon())',
        driver: 'neon-http',
        connectionExample:
          'postgres://default:PASSWORD@ep-NAME-123456-pooler.REGION.aws.neon.tech/verceldb?sslmode=require',
        connectionHint: 'Vercel project > Storage > database > .env.local: POSTGRES_URL',
      },
      {
        id: 'ws',
        label: 'Vercel Postgres over WebSocket (Client)',
        driver: 'neon-ws',
        connectionExample:
          'postgres://default:PASSWORD@ep-NAME-123456.REGION.aws.neon.tech/verceldb?sslmode=require',
        connectionHint: 'Vercel project > Storage > database > .env.local: POSTGRES_URL_NON_POOLING',
      },
    ],
  },
  {
    id: 'supabase',
    name: 'Supabase',
    helpUrl: 'https://supabase.com/docs/guides/database/connecting-to-postgres',
    description:
      'Postgres through the Supavisor pooler (pg), or the auto-generated REST API (PostgREST) over HTTP',
    targets: [
      {
        id: 'pg-pooler',
        label: 'Supabase Postgres via the pooler (pg, transaction mode)',
        driver: 'pg',
        connectionExample:
          'postgresql://postgres.PROJECT:PASSWORD@aws-0-REGION.pooler.supabase.com:6543/postgres?sslmode=require',
        connectionHint: 'Supabase dashboard > Connect > Transaction pooler (port 6543; session mode is 5432)',
      },
      {
        id: 'rest',
        label: 'Supabase REST (PostgREST) over HTTP',
        driver: 'http',
        connectionExample: 'https://apikey:ANON_KEY@PROJECT.supabase.co/rest/v1',
        connectionHint:
          'Supabase dashboard > Project Settings > API: project URL and anon (or publishable) key',
        query: 'GET /TABLE?select=*&limit=1',
        options: { headers: { Authorization: 'Bearer {secret}' } },
        note: 'Replace TABLE with a table the key may read; the key travels as apikey and Bearer headers.',
      },
    ],
  },
  {
    id: 'cockroachdb',
    name: 'CockroachDB',
    helpUrl: 'https://www.cockroachlabs.com/docs/cockroachcloud/connect-to-your-cluster',
    description: 'CockroachDB Cloud over the Postgres wire protocol (pg)',
    targets: [
      {
        id: 'pg',
        label: 'CockroachDB over TCP (pg)',
        driver: 'pg',
        connectionExample:
          'postgresql://USER:PASSWORD@CLUSTER-1234.REGION.cockroachlabs.cloud:26257/defaultdb?sslmode=verify-full',
        connectionHint: 'CockroachDB Cloud console > cluster > Connect > General connection string',
      },
    ],
  },
  {
    id: 'planetscale',
    name: 'PlanetScale',
    helpUrl: 'https://planetscale.com/docs/tutorials/planetscale-serverless-driver',
    description: "MySQL-compatible: PlanetScale's serverless driver over HTTP, or mysql2 over TCP with TLS",
    targets: [
      {
        id: 'http',
        label: 'PlanetScale over HTTP (@planetscale/database)',
        driver: 'planetscale',
        connectionExample: 'mysql://USER:PASSWORD@aws.connect.psdb.cloud/DB',
        connectionHint: 'PlanetScale dashboard > database > Connect > "@planetscale/database" (DATABASE_URL)',
        note: 'Sent over https: whatever the scheme says.',
      },
      {
        id: 'mysql2',
        label: 'PlanetScale over TCP (mysql2)',
        driver: 'mysql2',
        connectionExample: 'mysql://USER:PASSWORD@aws.connect.psdb.cloud/DB?ssl={"rejectUnauthorized":true}',
        connectionHint: 'PlanetScale dashboard > database > Connect > "mysql2"',
      },
    ],
  },
  {
    id: 'turso',
    name: 'Turso',
    helpUrl: 'https://docs.turso.tech/sdk/ts/reference',
    description: 'libSQL (SQLite) over HTTP or WebSocket (Hrana) with @libsql/client',
    targets: [
      {
        id: 'http',
        label: 'Turso over HTTP',
        driver: 'libsql',
        connectionExample: 'libsql://DB-ORG.turso.io?authToken=TOKEN',
        connectionHint: 'turso db show --url DB and turso db tokens create DB',
        note: 'libsql: goes over https: in Node.',
      },
      {
        id: 'ws',
        label: 'Turso over WebSocket',
        driver: 'libsql',
        connectionExample: 'wss://DB-ORG.turso.io?authToken=TOKEN',
        connectionHint: 'turso db show --url DB (replace libsql: with wss:) and turso db tokens create DB',
      },
    ],
  },
  {
    id: 'mongodb-atlas',
    name: 'MongoDB Atlas',
    helpUrl: 'https://www.mongodb.com/docs/atlas/driver-connection/',
    description: 'MongoDB Atlas over the official driver (TLS on by default with mongodb+srv:)',
    targets: [
      {
        id: 'mongodb',
        label: 'MongoDB Atlas (mongodb)',
        driver: 'mongodb',
        connectionExample:
          'mongodb+srv://USER:PASSWORD@CLUSTER.abcde.mongodb.net/DB?retryWrites=true&w=majority',
        connectionHint: 'Atlas > Database > Connect > Drivers > Node.js',
      },
    ],
  },
  {
    id: 'upstash-redis',
    name: 'Upstash Redis',
    helpUrl: 'https://upstash.com/docs/redis/features/restapi',
    description: 'Serverless Redis over its REST API (fetch) or the Redis protocol over TLS (ioredis)',
    targets: [
      {
        id: 'rest',
        label: 'Upstash Redis over REST',
        driver: 'upstash',
        connectionExample: 'https://default:TOKEN@NAME-12345.upstash.io',
        connectionHint:
          'Upstash console > database > REST API: UPSTASH_REDIS_REST_URL and UPSTASH_REDIS_REST_TOKEN',
      },
      {
        id: 'tcp',
        label: 'Upstash Redis over TCP (ioredis)',
        driver: 'ioredis',
        connectionExample: 'rediss://default:PASSWORD@NAME-12345.upstash.io:6379',
        connectionHint: 'Upstash console > database > Connect > ioredis',
      },
    ],
  },
  {
    id: 'vercel-kv',
    name: 'Vercel KV',
    helpUrl: 'https://vercel.com/docs/storage/vercel-kv',
    description: 'Upstash Redis from Vercel: the REST API with the KV_REST_API_URL and token',
    targets: [
      {
        id: 'rest',
        label: 'Vercel KV over REST',
        driver: 'upstash',
        connectionExample: 'https://default:KV_REST_API_TOKEN@NAME-12345.kv.vercel-storage.com',
        connectionHint:
          'Vercel project > Storage > KV store > .env.local: KV_REST_API_URL and KV_REST_API_TOKEN',
      },
    ],
  },
  {
    id: 'firestore',
    name: 'Cloud Firestore',
    helpUrl: 'https://firebase.google.com/docs/firestore/use-rest-api',
    description:
      "Firestore's REST API over HTTP (http driver): one document read per sample, with an API key or an OAuth access token",
    targets: [
      {
        id: 'rest-key',
        label: 'Firestore REST, document read with an API key',
        driver: 'http',
        connectionExample:
          'https://x-goog-api-key:API_KEY@firestore.googleapis.com/v1/projects/PROJECT/databases/(default)/documents',
        connectionHint:
          'Firebase console > Project settings > General: project ID and Web API key (the key travels in the X-Goog-Api-Key header)',
        query: 'GET /COLLECTION/DOCUMENT',
        note: 'Replace COLLECTION/DOCUMENT with a document your security rules let anyone read: an API key identifies the project, not a user.',
      },
      {
        id: 'rest-token',
        label: 'Firestore REST, document read with an access token',
        driver: 'http',
        connectionExample:
          'https://bearer:ACCESS_TOKEN@firestore.googleapis.com/v1/projects/PROJECT/databases/(default)/documents',
        connectionHint:
          'gcloud auth print-access-token (or a service account token): sent as Authorization: Bearer; project ID from the Firebase console',
        query: 'GET /COLLECTION/DOCUMENT',
        note: 'Access tokens expire after about an hour: store a fresh one before a long run. IAM, not security rules, decides what it may read.',
      },
    ],
  },
];

export function findPreset(id: string): ProviderPreset | undefined {
  return PROVIDER_PRESETS.find((p) => p.id === id);
}

/** A target spec from a preset target: name and connection reference are the user's. */
export function presetTargetSpec(
  presetId: string,
  targetId: string,
  target: { name: string; connection: string },
): TargetSpec {
  const preset = findPreset(presetId);
  const chosen = preset?.targets.find((t) => t.id === targetId);
  if (!preset || !chosen) throw new Error(`no preset target "${presetId}/${targetId}"`);
  return {
    name: target.name,
    driver: chosen.driver,
    connection: target.connection,
    ...(chosen.query !== undefined ? { query: chosen.query } : {}),
    ...(chosen.options !== undefined ? { options: structuredClone(chosen.options) } : {}),
  };
}

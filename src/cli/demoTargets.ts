/**
 * Local databases the demo adds when their URL is in the environment. Only loopback hosts: the demo
 * must never send traffic to a remote database a developer happens to have configured.
 */
import { checkConnectionString } from '../core/slot';
import type { DriverRegistry } from '../core/driver';
import type { TargetSpec } from '../shared/plan';

const CANDIDATES: { env: string; driver: string; name: string }[] = [
  { env: 'DBPROBE_PG_URL', driver: 'pg', name: 'postgres (pg)' },
  { env: 'DBPROBE_TEST_PG_URL', driver: 'pg', name: 'postgres (pg)' },
  { env: 'DATABASE_URL', driver: 'pg', name: 'postgres (pg)' },
  { env: 'DBPROBE_MYSQL_URL', driver: 'mysql2', name: 'mysql (mysql2)' },
  { env: 'DBPROBE_TEST_MYSQL_URL', driver: 'mysql2', name: 'mysql (mysql2)' },
  { env: 'MYSQL_URL', driver: 'mysql2', name: 'mysql (mysql2)' },
  { env: 'DBPROBE_REDIS_URL', driver: 'ioredis', name: 'redis (ioredis)' },
  { env: 'DBPROBE_TEST_REDIS_URL', driver: 'ioredis', name: 'redis (ioredis)' },
  { env: 'REDIS_URL', driver: 'ioredis', name: 'redis (ioredis)' },
];

const LOOPBACK = new Set(['127.0.0.1', 'localhost', '[::1]', '::1']);

export function localTargetsFromEnv(env: NodeJS.ProcessEnv, registry: DriverRegistry): TargetSpec[] {
  const targets: TargetSpec[] = [];
  for (const candidate of CANDIDATES) {
    const url = env[candidate.env];
    const info = registry.info(candidate.driver);
    if (!url || !info || targets.some((t) => t.name === candidate.name)) continue;
    if (checkConnectionString(url, info) !== undefined || !isLoopback(url)) continue;
    targets.push({ name: candidate.name, driver: candidate.driver, connection: `env:${candidate.env}` });
  }
  return targets;
}

function isLoopback(url: string): boolean {
  try {
    return LOOPBACK.has(new URL(url).hostname);
  } catch {
    return false;
  }
}

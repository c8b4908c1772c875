/**
 * Which environment values a run masks (shared/envSecrets.ts): the variables it names, secret-looking
 * names, URLs with credentials; never paths, flags or short words that would blank ordinary text.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { envNamesOfPlan, secretsInEnvironment } from '../../src/shared/envSecrets';
import type { TargetSpec } from '../../src/shared/plan';

test('named variables, secret-looking names and URLs with credentials are secrets', () => {
  const env = {
    MY_DB: 'plainvalue-not-secret-by-name',
    NEON_API_KEY: 'napi_abcdefghijkl',
    GITHUB_TOKEN: 'ghs_0123456789abcdef',
    AWS_SECRET_ACCESS_KEY: 'wJalrXUtnFEMI/K7MDENG',
    DB_PASSWORD: 'correct-horse',
    STRIPEAPIKEY: 'sk_test_0123456789',
    DATABASE_URL: 'postgres://app:pw-in-url@db.example.com/app',
    CACHE: 'redis://tok3n@cache.example.com',
  };
  const secrets = secretsInEnvironment(env, ['MY_DB']);
  for (const value of Object.values(env)) assert.ok(secrets.includes(value), value);
});

test('paths, flags, numbers, short values and the shell PWD are not', () => {
  const env = {
    PWD: '/home/user/project',
    OLDPWD: '/home/user',
    SSH_KEY_FILE: '/home/user/.ssh/id_ed25519',
    TLS_KEY_PATH: 'certs/key.pem',
    KEY_DIR: 'somewhere-relative',
    GPG_KEY: './keys/mine.asc',
    USE_TOKEN: 'true',
    TOKEN_TTL: '3600',
    API_KEY: 'short',
    HOME: '/home/user',
    PATH: '/usr/bin:/bin',
    LANG: 'en_US.UTF-8',
    HOMEPAGE_URL: 'https://example.com/page',
  };
  assert.deepEqual(secretsInEnvironment(env), []);
});

test('a platform binding that is not a string is skipped', () => {
  const env = { SECRET_STORE: { get: () => 'x' } } as unknown as Record<string, string>;
  assert.deepEqual(secretsInEnvironment(env, ['SECRET_STORE']), []);
});

test('a plan names its connection variables, its Neon key variables and DBPROBE_TOKEN', () => {
  const targets: TargetSpec[] = [
    { name: 'a', driver: 'pg', connection: 'env:A_URL' },
    {
      name: 'b',
      driver: 'pg',
      connection: 'env:B_URL',
      cold: { mode: 'neon-api', neon: { apiKey: 'env:MY_NEON' } },
    },
    { name: 'c', driver: 'pg', connection: 'env:C_URL', cold: { mode: 'neon-api', neon: {} } },
    { name: 'd', driver: 'pg', connection: 'secret:d' },
  ];
  assert.deepEqual(envNamesOfPlan({ targets }).sort(), [
    'A_URL',
    'B_URL',
    'C_URL',
    'DBPROBE_TOKEN',
    'MY_NEON',
    'NEON_API_KEY',
  ]);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { connectionCandidates, parseDotenv, suggestName } from '../../src/extension/config/dotenv';

const DRIVERS = [
  { id: 'pg', schemes: ['postgres', 'postgresql'] },
  { id: 'ioredis', schemes: ['redis', 'rediss'] },
  { id: 'libsql', schemes: ['libsql', 'https', 'http', 'file'] },
];

test('parses the forms dotenv files use', () => {
  const entries = parseDotenv(
    [
      '# comment',
      'DATABASE_URL=postgres://u:p@h:5432/db # the main one',
      'export REDIS_URL="redis://:pw@127.0.0.1:6379"',
      "SINGLE='a # not a comment'",
      'MULTI="line1',
      'line2"',
      'EMPTY=',
      '  SPACED = value  ',
      'not a line',
    ].join('\n'),
  );
  assert.deepEqual(
    entries.map((e) => [e.key, e.value]),
    [
      ['DATABASE_URL', 'postgres://u:p@h:5432/db'],
      ['REDIS_URL', 'redis://:pw@127.0.0.1:6379'],
      ['SINGLE', 'a # not a comment'],
      ['MULTI', 'line1\nline2'],
      ['EMPTY', ''],
      ['SPACED', 'value'],
    ],
  );
});

test('reads a file as dotenv does: CRLF lines, the last of a repeated key, # unquoted is a comment', () => {
  const entries = parseDotenv(
    [
      'DATABASE_URL=postgres://u:old@h/db',
      'DATABASE_URL=postgres://u:new@h/db',
      'HASHED=postgres://u:pa#ss@h/db',
      'QUOTED="postgres://u:pa#ss@h/db"',
      '',
    ].join('\r\n'),
  );
  assert.deepEqual(
    entries.map((e) => [e.key, e.value]),
    [
      ['DATABASE_URL', 'postgres://u:new@h/db'],
      ['HASHED', 'postgres://u:pa'],
      ['QUOTED', 'postgres://u:pa#ss@h/db'],
    ],
  );
});

test('finds *_URL-style connection strings a driver can use', () => {
  const entries = parseDotenv(
    [
      'DATABASE_URL=postgres://u:p@h/db',
      'CACHE_URL=rediss://default:t@x.upstash.io:6379',
      'TURSO_DATABASE_URL=libsql://db-org.turso.io',
      'NEXT_PUBLIC_SITE_URL=ftp://example.com',
      'API_KEY=postgres://not-a-url-key',
      'SENTRY_DSN=',
    ].join('\n'),
  );
  const found = connectionCandidates(entries, DRIVERS);
  assert.deepEqual(
    found.map((c) => [c.key, c.drivers, c.suggestedName]),
    [
      ['DATABASE_URL', ['pg'], 'database'],
      ['CACHE_URL', ['ioredis'], 'cache'],
      ['TURSO_DATABASE_URL', ['libsql'], 'turso_database'],
    ],
  );
});

test('suggested names are valid secret references', () => {
  assert.equal(suggestName('DATABASE_URL'), 'database');
  assert.equal(suggestName('PG-PRIMARY_URI'), 'pg-primary');
  assert.equal(suggestName('1_URL'), 'database');
  assert.equal(suggestName('_URL'), 'database');
});

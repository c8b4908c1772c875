/**
 * "Probe this query" offers a statement only to targets that can run it: its dialect read from its
 * marks, the drivers its file imports ranked and ticked first.
 */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { fileDriverHints, importedModules } from '../../src/extension/queries/fileDrivers';
import { findSqlParameters } from '../../src/extension/queries/parameters';
import { readSqlDialect } from '../../src/extension/queries/sqlDialect';
import { findStatements } from '../../src/extension/queries/statements';
import { chooseTargets, type CandidateTarget } from '../../src/extension/queries/targetChoice';
import { queryRunHeadline } from '../../src/extension/views/queryRunHeadline';

const dialectOf = (text: string) => {
  const reading = readSqlDialect(text, findSqlParameters(text));
  return { dialects: reading.dialects, seen: reading.marks.map((m) => m.seen) };
};

describe('the dialect a statement is written in', () => {
  const cases: [string, string[] | undefined, string[]][] = [
    ['SELECT count(*) FROM pg_class', ['postgres'], ['pg_class']],
    ['SELECT id::text FROM users', ['postgres'], ['::']],
    ['SELECT * FROM users WHERE id = $1', ['postgres'], ['$1']],
    ["SELECT * FROM users WHERE name ILIKE 'a%'", ['postgres'], ['ILIKE']],
    ['SELECT DISTINCT ON (org) id FROM users', ['postgres'], ['DISTINCT ON (']],
    ["INSERT INTO users (name) VALUES ('a') RETURNING id", ['postgres', 'sqlite'], ['RETURNING']],
    ['SELECT `name` FROM `users`', ['mysql', 'sqlite'], ['`name`']],
    ['SELECT name FROM users LIMIT 10, 20', ['mysql', 'sqlite'], ['LIMIT 10, 20']],
    ['SELECT name FROM users WHERE id = ?', ['mysql', 'sqlite'], ['?']],
    ['SELECT @@version', ['mysql'], ['@@v']],
    ['SHOW TABLES', ['mysql'], ['SHOW TABLES']],
    ['SELECT name FROM sqlite_master', ['sqlite'], ['sqlite_master']],
    ['PRAGMA table_info(users)', ['sqlite'], ['PRAGMA']],
    ['SELECT 1', undefined, []],
    ['SELECT name FROM users WHERE id = 1 LIMIT 5', undefined, []],
    // Marks inside strings, quoted identifiers and comments are not code.
    ["SELECT 'pg_class::text ILIKE' AS note -- ::int", undefined, []],
    ['SELECT "pg_class" FROM t /* $1 */', undefined, []],
    // With $1 (PostgreSQL), a ? is the jsonb key-exists operator, not a placeholder.
    ["SELECT * FROM docs WHERE body ? 'k' AND id = $1", ['postgres'], ['$1']],
    // A ? that no other mark contradicts narrows to MySQL and SQLite; one that a mark contradicts does not.
    ["SELECT * FROM docs WHERE body::jsonb ? 'k'", ['postgres'], ['::']],
  ];
  for (const [text, dialects, seen] of cases)
    test(text, () => assert.deepEqual(dialectOf(text), { dialects, seen }));

  test('marks of dialects that exclude each other narrow nothing, and say so', () => {
    const reading = readSqlDialect('SELECT `id`::int FROM t');
    assert.equal(reading.dialects, undefined);
    assert.equal(reading.conflicting, true);
    assert.deepEqual(
      reading.marks.map((m) => m.seen),
      ['::', '`id`'],
    );
  });

  test("a sql`...` template's ${...} parts are the tool's placeholders, not the author's dialect", () => {
    const [s] = findStatements('sql`SELECT name FROM t WHERE id = ${id}`', 'typescript').statements;
    assert.deepEqual(readSqlDialect(s!.text, s!.parameters).dialects, undefined);
  });
});

describe('the drivers a file uses', () => {
  test('import, import type, require, dynamic import and export from; not strings elsewhere', () => {
    const text = [
      "import pg from 'pg';",
      "import type { Pool } from 'pg-pool';",
      "const mysql = require('mysql2/promise');",
      "const { createClient } = await import('@libsql/client');",
      "export { neon } from '@neondatabase/serverless';",
      "import './side-effect';",
      "const note = 'ioredis';",
      "// import x from 'mongodb'",
    ].join('\n');
    assert.deepEqual(importedModules(text), [
      'pg',
      'pg-pool',
      'mysql2/promise',
      '@libsql/client',
      '@neondatabase/serverless',
      './side-effect',
    ]);
    assert.deepEqual(
      fileDriverHints(text, 'typescript').map((h) => [h.from, h.drivers.join('+'), h.dialect ?? '']),
      [
        ['pg', 'pg', 'postgres'],
        ['pg-pool', 'pg', 'postgres'],
        ['mysql2', 'mysql2', 'mysql'],
        ['@libsql/client', 'libsql', 'sqlite'],
        ['@neondatabase/serverless', 'neon-http+neon-ws', 'postgres'],
      ],
    );
  });

  test('app-side clients and ORMs that name their driver', () => {
    const hints = (module: string) =>
      fileDriverHints(`import x from '${module}';`, 'typescript').map((h) => [
        h.family,
        h.drivers.join('+'),
        h.dialect ?? '',
      ]);
    assert.deepEqual(hints('@planetscale/database'), [['sql', 'planetscale', 'mysql']]);
    assert.deepEqual(hints('ioredis'), [['redis', 'ioredis', '']]);
    assert.deepEqual(hints('@upstash/redis'), [['redis', 'upstash', '']]);
    assert.deepEqual(hints('mongodb'), [['mongo', 'mongodb', '']]);
    assert.deepEqual(hints('mongoose'), [['mongo', 'mongodb', '']]);
    assert.deepEqual(hints('postgres'), [['sql', '', 'postgres']]);
    assert.deepEqual(hints('drizzle-orm/neon-http'), [['sql', 'neon-http', 'postgres']]);
    assert.deepEqual(hints('drizzle-orm/planetscale-serverless'), [['sql', 'planetscale', 'mysql']]);
    assert.deepEqual(hints('@prisma/adapter-libsql'), [['sql', 'libsql', 'sqlite']]);
    // The fetch every HTTP driver shares says nothing about a database; an ORM that does not name its
    // driver says nothing either.
    assert.deepEqual(hints('undici'), []);
    assert.deepEqual(hints('drizzle-orm'), []);
    assert.deepEqual(hints('kysely'), []);
  });

  test("a .sql file's language mode names its dialect", () => {
    assert.deepEqual(
      fileDriverHints('SELECT 1', 'pgsql').map((h) => h.dialect),
      ['postgres'],
    );
    assert.deepEqual(fileDriverHints('SELECT 1', 'sql'), []);
  });
});

describe('the targets offered and ticked', () => {
  const targets: CandidateTarget[] = [
    { name: 'local-pg', driver: 'pg', family: 'sql', dialect: 'postgres' },
    { name: 'local-mysql', driver: 'mysql2', family: 'sql', dialect: 'mysql' },
    { name: 'planetscale-http', driver: 'planetscale', family: 'sql', dialect: 'mysql' },
    { name: 'neon-http', driver: 'neon-http', family: 'sql', dialect: 'postgres' },
    { name: 'turso', driver: 'libsql', family: 'sql', dialect: 'sqlite' },
    { name: 'local-redis', driver: 'ioredis', family: 'redis' },
    { name: 'upstash', driver: 'upstash', family: 'redis' },
  ];
  const nothingRemembered = () => undefined;
  const sql = (text: string) => ({ family: 'sql' as const, text, parameters: findSqlParameters(text) });
  const hintsOf = (source: string) => fileDriverHints(source, 'typescript');
  const offered = (choice: ReturnType<typeof chooseTargets>) =>
    choice.offered.map((o) => `${o.ticked ? '[x]' : '[ ]'} ${o.name}`);

  test('SELECT count(*) FROM pg_class in a file that imports pg: PostgreSQL targets only, pg ticked', () => {
    const choice = chooseTargets(
      sql('SELECT count(*) FROM pg_class'),
      hintsOf("import pg from 'pg';"),
      targets,
      nothingRemembered,
    );
    assert.deepEqual(offered(choice), ['[x] local-pg', '[ ] neon-http']);
    assert.deepEqual(choice.left, [
      { name: 'local-mysql', why: 'local-mysql (mysql2) speaks MySQL' },
      { name: 'planetscale-http', why: 'planetscale-http (planetscale) speaks MySQL' },
      { name: 'turso', why: 'turso (libsql) speaks SQLite/libSQL' },
    ]);
    assert.equal(
      choice.basis,
      'PostgreSQL syntax (pg_class): local-mysql, planetscale-http, turso left out; this file uses pg',
    );
    assert.deepEqual(choice.written, { dialects: 'PostgreSQL', seen: ['pg_class'] });
    assert.equal(choice.offered[0]?.fit, 'this file imports pg');
  });

  test('an unmarked statement stays offered everywhere, ranked by the imports: mysql2 first', () => {
    const choice = chooseTargets(
      sql('SELECT name FROM users WHERE id = 1'),
      hintsOf("const mysql = require('mysql2');"),
      targets,
      nothingRemembered,
    );
    assert.deepEqual(offered(choice), [
      '[x] local-mysql',
      '[ ] planetscale-http',
      '[ ] local-pg',
      '[ ] neon-http',
      '[ ] turso',
    ]);
    assert.deepEqual(choice.left, []);
    assert.equal(choice.offered[1]?.fit, "MySQL, as this file's mysql2");
  });

  test('a ? placeholder in a file that imports mysql2: MySQL ticked, libSQL offered, PostgreSQL left out', () => {
    const choice = chooseTargets(
      sql('SELECT name FROM users WHERE id = ?'),
      hintsOf("import mysql from 'mysql2/promise';"),
      targets,
      nothingRemembered,
    );
    assert.deepEqual(offered(choice), ['[x] local-mysql', '[ ] planetscale-http', '[ ] turso']);
    assert.deepEqual(
      choice.left.map((l) => l.name),
      ['local-pg', 'neon-http'],
    );
  });

  test('no imports and no marks: every target of the family, all ticked (as before)', () => {
    const choice = chooseTargets(sql('SELECT 1'), [], targets, nothingRemembered);
    assert.equal(choice.offered.length, 5);
    assert.ok(choice.offered.every((o) => o.ticked));
    assert.equal(choice.basis, '');
  });

  test('a dialect the file imports without a driver of the catalog ticks that dialect', () => {
    const choice = chooseTargets(
      sql('SELECT 1'),
      hintsOf("import postgres from 'postgres';"),
      targets,
      nothingRemembered,
    );
    assert.deepEqual(offered(choice), [
      '[x] local-pg',
      '[x] neon-http',
      '[ ] local-mysql',
      '[ ] planetscale-http',
      '[ ] turso',
    ]);
  });

  test('a file whose driver no target uses ticks nothing, and says so', () => {
    const choice = chooseTargets(
      sql('SELECT 1'),
      hintsOf("import Database from 'better-sqlite3';"),
      targets.filter((t) => t.dialect !== 'sqlite'),
      nothingRemembered,
    );
    assert.ok(choice.offered.every((o) => !o.ticked));
    assert.equal(choice.basis, 'this file uses better-sqlite3, which no target uses');
  });

  test('Redis and MongoDB calls: their family only, the imported client ticked', () => {
    const redis = chooseTargets(
      { family: 'redis', text: 'GET k' },
      hintsOf("import { Redis } from '@upstash/redis';"),
      targets,
      nothingRemembered,
    );
    assert.deepEqual(offered(redis), ['[x] upstash', '[ ] local-redis']);
    const mongo = chooseTargets({ family: 'mongo', text: 'find users {}' }, [], targets, nothingRemembered);
    assert.deepEqual(offered(mongo), []);
  });

  test('a remembered pick for the same kind of statement wins, within what can run it', () => {
    const keys: string[] = [];
    const choice = chooseTargets(
      sql('SELECT count(*) FROM pg_class'),
      hintsOf("import pg from 'pg';"),
      targets,
      (key) => {
        keys.push(key);
        return ['neon-http', 'local-mysql'];
      },
    );
    assert.deepEqual(keys, ['sql:postgres:pg']);
    assert.deepEqual(offered(choice), ['[ ] local-pg', '[x] neon-http']);
    // Another kind of statement in another kind of file is remembered apart.
    assert.equal(chooseTargets(sql('SELECT 1'), [], targets, nothingRemembered).memoryKey, 'sql:*:');
  });

  test('a statement no target can run is offered nowhere', () => {
    const choice = chooseTargets(
      sql('SELECT `id` FROM t'),
      [],
      targets.filter((t) => t.dialect === 'postgres'),
      nothingRemembered,
    );
    assert.deepEqual(choice.offered, []);
    assert.deepEqual(choice.written, { dialects: 'MySQL or SQLite/libSQL', seen: ['`id`'] });
  });
});

describe("a query run's line in the Runs view", () => {
  test('figures where it ran, "the query failed there" where it did not; never "failed" alone', () => {
    const line = queryRunHeadline({
      kinds: ['initial', 'subsequent'],
      targets: [
        {
          name: 'local-pg',
          driver: 'pg',
          transport: 'tcp',
          p50Us: { initial: 4000, subsequent: 410 },
          failed: false,
        },
        { name: 'local-mysql', driver: 'mysql2', transport: 'tcp', p50Us: {}, failed: true },
      ],
    });
    assert.equal(line, 'query · local-pg 0.410 ms · local-mysql: the query failed there');
  });
});

/** "Probe this query": what counts as read-only, and how sample values fill placeholders. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { classify, classifyMongo, classifyRedis, classifySql } from '../../src/shared/classify';
import {
  fillSqlParameters,
  findSqlParameters,
  parameterNames,
  sqlLiteral,
} from '../../src/extension/queries/parameters';
import { gateWrites } from '../../src/extension/queries/writeGate';

describe('read-only or not', () => {
  test('plain reads are read-only', () => {
    for (const sql of [
      'SELECT 1',
      'select * from users where id = 1',
      '(SELECT a FROM t) UNION (SELECT b FROM u)',
      "SELECT replace(name, 'a', 'b') FROM t",
      'WITH x AS (SELECT 1) SELECT * FROM x',
      'EXPLAIN SELECT * FROM t',
      'EXPLAIN UPDATE t SET a = 1',
      'SHOW server_version',
      'VALUES (1), (2)',
      'PRAGMA table_info(users)',
      "SELECT 'DELETE FROM t; INSERT INTO u' AS text",
      'SELECT 1 -- DROP TABLE t',
      'SELECT 1; SELECT 2',
    ])
      assert.equal(classifySql(sql).readOnly, true, sql);
  });

  test('writes, and reads that are not only reads, are not', () => {
    const cases: [string, RegExp][] = [
      ['INSERT INTO t VALUES (1)', /INSERT is not a read-only statement/],
      ['update t set a = 1', /UPDATE/],
      ['DELETE FROM t', /DELETE/],
      ['WITH d AS (DELETE FROM t RETURNING *) SELECT * FROM d', /contains DELETE/],
      ['EXPLAIN ANALYZE DELETE FROM t', /contains DELETE/],
      ['SELECT * INTO backup FROM t', /INTO/],
      ['SELECT * FROM t FOR UPDATE', /FOR UPDATE locks rows/],
      ["SELECT nextval('seq')", /nextval\(\) changes state/],
      ['SELECT pg_terminate_backend(42)', /pg_terminate_backend/],
      ['SELECT 1; DROP TABLE t', /several statements, and DROP/],
      ['PRAGMA journal_mode = WAL', /PRAGMA/],
      ['CREATE TABLE t (a int)', /CREATE/],
      ['', /empty/],
      ['SELECT ' + 'x'.repeat(70 * 1024), /too long to check/],
    ];
    for (const [sql, reason] of cases) {
      const c = classifySql(sql);
      assert.equal(c.readOnly, false, sql.slice(0, 60));
      assert.match(c.reason, reason, sql.slice(0, 60));
    }
  });

  test('Redis: reading commands only', () => {
    assert.equal(classifyRedis('GET user:1').readOnly, true);
    assert.equal(classifyRedis('hgetall h').readOnly, true);
    assert.equal(classifyRedis('PING').readOnly, true);
    const set = classifyRedis('SET a 1');
    assert.equal(set.readOnly, false);
    assert.equal(set.verb, 'SET');
    assert.equal(classifyRedis('FLUSHALL').readOnly, false);
    assert.equal(classifyRedis('EVAL "return 1" 0').readOnly, false);
  });

  test('Mongo: find/findOne and known reading commands only', () => {
    assert.equal(classifyMongo('find users {}').readOnly, true);
    assert.equal(classifyMongo('findOne users {"a":1}').readOnly, true);
    assert.equal(classifyMongo('{ping:1}').readOnly, true);
    assert.equal(classifyMongo('insertOne users {"a":1}').readOnly, false);
    assert.equal(classifyMongo('{"dropDatabase":1}').readOnly, false);
  });

  test('classify() dispatches by family', () => {
    assert.equal(classify('redis', 'DEL k').readOnly, false);
    assert.equal(classify('sql', 'SELECT 1').readOnly, true);
    assert.equal(classify('mongo', 'find t {}').readOnly, true);
  });
});

describe('parameters', () => {
  test('$n, ? and :name in code; not in strings, comments, casts or assignments', () => {
    const names = (sql: string) => findSqlParameters(sql).map((p) => p.name);
    assert.deepEqual(names('SELECT * FROM t WHERE a = $1 AND b = $2 OR c = $1'), ['$1', '$2', '$1']);
    assert.deepEqual(names('SELECT * FROM t WHERE a = ? AND b = ?'), ['?1', '?2']);
    assert.deepEqual(names('SELECT * FROM t WHERE a = :id AND b = :user.name'), [':id', ':user.name']);
    assert.deepEqual(names('SELECT \'$1 ? :x\', a::int, "c?" FROM t -- :y ?'), []);
    assert.deepEqual(names('SELECT data ?| array[$1] FROM t WHERE data ? $2'), ['$1', '$2']);
    assert.deepEqual(names('SELECT $tag$ :in ?$tag$, arr[1:2] FROM t'), []);
    assert.deepEqual(names('SET @a := 1'), []);
    assert.deepEqual(parameterNames(findSqlParameters('SELECT $1, $2, $1')), ['$1', '$2']);
  });

  test('values become SQL literals', () => {
    const sql = 'SELECT * FROM t WHERE id = $1 AND name = $2 AND ok = $3 AND n = $1';
    const filled = fillSqlParameters(sql, findSqlParameters(sql), { $1: '42', $2: "O'Brien", $3: 'true' });
    assert.deepEqual(filled, {
      ok: true,
      text: "SELECT * FROM t WHERE id = 42 AND name = 'O''Brien' AND ok = TRUE AND n = 42",
    });
  });

  test('a value cannot close its quote and add a statement', () => {
    const sql = 'SELECT * FROM t WHERE name = $1';
    const filled = fillSqlParameters(sql, findSqlParameters(sql), { $1: "x'; DROP TABLE t; --" });
    assert.ok(filled.ok);
    assert.equal(filled.text, "SELECT * FROM t WHERE name = 'x''; DROP TABLE t; --'");
    assert.equal(classifySql(filled.text).readOnly, true, 'the whole value stays one string literal');
    assert.deepEqual(sqlLiteral("a\\' OR 1=1"), {
      ok: false,
      problem: 'a sample value cannot hold a backslash or a NUL character',
    });
  });

  test('a missing value is named', () => {
    const sql = 'SELECT $1, $2';
    assert.deepEqual(fillSqlParameters(sql, findSqlParameters(sql), { $1: '1' }), {
      ok: false,
      problem: 'no value for $2',
    });
  });

  test('a placeholder inside a string gets the value without quotes of its own', () => {
    const text = "SELECT * FROM t WHERE name LIKE '%:q%'";
    const at = text.indexOf(':q');
    const filled = fillSqlParameters(text, [{ name: ':q', start: at, end: at + 2, inString: true }], {
      ':q': "it's",
    });
    assert.deepEqual(filled, { ok: true, text: "SELECT * FROM t WHERE name LIKE '%it''s%'" });
  });
});

describe('the write gate', () => {
  const targets = [
    { spec: { name: 'scratch', allowWrites: true } },
    { spec: { name: 'prod' } },
    { spec: { name: 'staging', allowWrites: false } },
  ];

  test('a read runs on every target, unasked', () => {
    const gate = gateWrites(targets, classifySql('SELECT 1'));
    assert.deepEqual(
      gate.allowed.map((t) => t.spec.name),
      ['scratch', 'prod', 'staging'],
    );
    assert.equal(gate.needsConfirmation, false);
  });

  test('a write only where allowWrites is true, and only after confirmation', () => {
    const gate = gateWrites(targets, classifySql('DELETE FROM t'));
    assert.deepEqual(
      gate.allowed.map((t) => t.spec.name),
      ['scratch'],
    );
    assert.equal(gate.needsConfirmation, true);
    assert.deepEqual(
      gate.refused.map((r) => r.target.spec.name),
      ['prod', 'staging'],
    );
    assert.match(
      gate.refused[0]!.why,
      /"prod" does not allow writes \(DELETE is not a read-only statement\)/,
    );
  });

  test('nothing to confirm when no target allows it', () => {
    const gate = gateWrites([{ spec: { name: 'prod' } }], classifyRedis('SET a 1'));
    assert.deepEqual(gate.allowed, []);
    assert.equal(gate.needsConfirmation, false);
  });
});

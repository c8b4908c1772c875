/** "Probe this query": statements found in .sql and TypeScript/JavaScript text, with their ranges. */
import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import {
  MAX_SCAN_CHARS,
  findStatements,
  statementFromSelection,
  type FoundStatement,
} from '../../src/extension/queries/statements';

const ts = (text: string) => findStatements(text, 'typescript').statements;
const at = (text: string, s: FoundStatement) => text.slice(s.start, s.end);

describe('.sql files', () => {
  test('splits on ; outside strings, comments and dollar quotes, with ranges', () => {
    const text = [
      '-- users first',
      "SELECT * FROM users WHERE name = 'a;b';",
      '/* ; */ INSERT INTO log VALUES (1);',
      'CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql;',
      'SELECT 2',
    ].join('\n');
    const found = findStatements(text, 'sql').statements;
    assert.deepEqual(
      found.map((s) => s.text),
      [
        "SELECT * FROM users WHERE name = 'a;b'",
        'INSERT INTO log VALUES (1)',
        'CREATE FUNCTION f() RETURNS int AS $$ SELECT 1; $$ LANGUAGE sql',
        'SELECT 2',
      ],
    );
    for (const s of found) assert.equal(at(text, s), s.text);
    assert.ok(found.every((s) => s.family === 'sql'));
  });

  test('finds the parameters of each statement', () => {
    const [s] = findStatements('SELECT * FROM t WHERE id = $1 AND x = $2', 'sql').statements;
    assert.deepEqual(
      s?.parameters?.map((p) => p.name),
      ['$1', '$2'],
    );
  });

  test('an empty or comment-only file has no statement', () => {
    assert.deepEqual(findStatements('  -- nothing\n/* here */ ;; ', 'sql').statements, []);
  });
});

describe('TypeScript and JavaScript', () => {
  test('a sql`...` tagged template, its ${...} parts as named parameters', () => {
    const text = 'const rows = await sql`SELECT * FROM users WHERE id = ${userId} AND org = ${ctx.org}`;';
    const [s] = ts(text);
    assert.equal(s?.text, 'SELECT * FROM users WHERE id = :userId AND org = :ctx.org');
    assert.equal(at(text, s!), 'sql`SELECT * FROM users WHERE id = ${userId} AND org = ${ctx.org}`');
    assert.deepEqual(
      s?.parameters?.map((p) => [p.name, s.text.slice(p.start, p.end)]),
      [
        [':userId', ':userId'],
        [':ctx.org', ':ctx.org'],
      ],
    );
  });

  test('an expression that is not a plain name becomes p1, p2...', () => {
    const [s] = ts('sql`SELECT * FROM t WHERE a = ${f(x)} LIMIT ${1 + n}`');
    assert.equal(s?.text, 'SELECT * FROM t WHERE a = :p1 LIMIT :p2');
  });

  test('a ${...} inside a SQL string is marked so its value is not quoted twice', () => {
    const [s] = ts("sql`SELECT * FROM t WHERE name LIKE '%${q}%'`");
    assert.equal(s?.parameters?.[0]?.inString, true);
  });

  test('db.query(\'...\'), client.execute("..."), pool.query(`...`)', () => {
    const text = [
      "await db.query('SELECT id FROM users WHERE id = $1', [id]);",
      'await client.execute("select 1");',
      'await pool.query(`\n  UPDATE t SET a = 1\n`);',
    ].join('\n');
    const found = ts(text);
    assert.deepEqual(
      found.map((s) => [s.text, s.origin]),
      [
        ['SELECT id FROM users WHERE id = $1', '.query(...)'],
        ['select 1', '.execute(...)'],
        ['UPDATE t SET a = 1', '.query(...)'],
      ],
    );
    assert.equal(at(text, found[0]!), "'SELECT id FROM users WHERE id = $1'");
  });

  test('a plain string literal only when it is unmistakably SQL', () => {
    const found = ts(
      [
        "const q = 'SELECT name FROM users';",
        "const ui = 'Select a file to open';",
        "const label = 'UPDATE available';",
        'const one = "SELECT 1";',
        "const other = 'select * from t';",
      ].join('\n'),
    );
    assert.deepEqual(
      found.map((s) => s.text),
      ['SELECT name FROM users', 'SELECT 1'],
    );
  });

  test('quotes inside comments and regular expressions do not open strings', () => {
    const text = [
      "// don't stop here",
      "const re = /'/g; const n = a / b; db.query('SELECT 1 FROM t');",
      "/* it's */ db.query('SELECT 2 FROM t');",
    ].join('\n');
    assert.deepEqual(
      ts(text).map((s) => s.text),
      ['SELECT 1 FROM t', 'SELECT 2 FROM t'],
    );
  });

  test('a sql tag over a fragment (no statement verb) is not offered', () => {
    assert.deepEqual(ts('const where = sql`AND id = ${id}`;'), []);
  });

  test('Redis commands on a receiver named after redis', () => {
    const text = [
      "await redis.get('user:1');",
      "await this.redisClient.hgetall('session:abc');",
      "await redis.call('ZRANGE', 'board', 0, 9);",
      'await redis.get(key);', // a variable: cannot be sent as is
      "await cache.get('x');", // not named after redis: could be anything
      "await redis.set('a', 'two words');", // the workload is split on spaces
    ].join('\n');
    const found = ts(text);
    assert.deepEqual(
      found.map((s) => [s.family, s.text]),
      [
        ['redis', 'GET user:1'],
        ['redis', 'HGETALL session:abc'],
        ['redis', 'ZRANGE board 0 9'],
      ],
    );
    assert.equal(at(text, found[0]!), "redis.get('user:1')");
  });

  test('MongoDB find/findOne with literal filters', () => {
    const text = [
      "const u = await db.collection('users').findOne({ email: 'a@b.c', active: true });",
      'const all = await db.collection("orders").find({ total: { $gt: 10 }, tags: [\'x\'], }).limit(5).toArray();',
      'db.events.find()',
      "db.collection('users').find({ id: userId })", // a variable: left alone
    ].join('\n');
    const found = ts(text);
    assert.deepEqual(
      found.map((s) => [s.family, s.text]),
      [
        ['mongo', 'findOne users {"email":"a@b.c","active":true}'],
        ['mongo', 'find orders {"total":{"$gt":10},"tags":["x"]} limit 5'],
        ['mongo', 'find events {}'],
      ],
    );
    assert.equal(at(text, found[2]!), 'db.events.find()');
  });

  test('other languages have no statements', () => {
    assert.deepEqual(findStatements("SELECT 1 FROM t; db.query('SELECT 1')", 'python').statements, []);
  });
});

describe('bounded input', () => {
  test('a 5 MB file is scanned up to MAX_SCAN_CHARS, quickly, and says it was cut', () => {
    const line = "await db.query('SELECT id FROM users WHERE id = $1');\n";
    const text = line.repeat(Math.ceil((5 << 20) / line.length));
    const t0 = performance.now();
    const scan = findStatements(text, 'typescript');
    const elapsed = performance.now() - t0;
    assert.equal(scan.truncated, true);
    assert.equal(scan.scannedChars, MAX_SCAN_CHARS);
    assert.ok(scan.statements.length > 0 && scan.statements.length <= 500);
    assert.ok(scan.statements.every((s) => s.end <= MAX_SCAN_CHARS));
    // Printed, not asserted: timings on a shared machine are noisy.
    console.log(`5 MB TypeScript file: ${elapsed.toFixed(0)} ms for the first ${MAX_SCAN_CHARS / 1024} KB`);
  });

  test('a cut .sql file does not offer its cut last statement', () => {
    const text = 'SELECT 1;\n'.repeat(10) + 'SELECT ' + 'x, '.repeat(MAX_SCAN_CHARS);
    const scan = findStatements(text, 'sql');
    assert.equal(scan.truncated, true);
    assert.ok(scan.statements.every((s) => s.text === 'SELECT 1'));
  });

  test('pathological inputs end in linear time: unterminated strings, templates, comments, regexes', () => {
    // A linear scan of these takes a few ms to tens of ms (the first with the JIT warming up); a
    // scanner that restarts at every position takes minutes. The bound is on this process's CPU
    // time, so other work on a shared machine does not move it.
    for (const text of [
      "'".repeat(100_000),
      '`${'.repeat(30_000),
      '/*'.repeat(50_000),
      '/['.repeat(50_000),
    ]) {
      for (const language of ['typescript', 'sql']) {
        const before = process.cpuUsage();
        findStatements(text, language);
        const used = process.cpuUsage(before);
        const ms = (used.user + used.system) / 1000;
        assert.ok(ms < 1000, `${language}, ${JSON.stringify(text.slice(0, 3))}...: ${ms} ms of CPU`);
      }
    }
  });
});

describe('a selection', () => {
  test('the statement recognised inside it, with document offsets', () => {
    const s = statementFromSelection("db.query('SELECT 1 FROM t')", 'typescript', 100);
    assert.equal(s?.text, 'SELECT 1 FROM t');
    assert.equal(s?.start, 109);
  });

  test('else the selected text: SQL, Redis or Mongo by its first word', () => {
    assert.equal(statementFromSelection('  select now();  ', 'plaintext', 0)?.family, 'sql');
    assert.equal(statementFromSelection('  select now();  ', 'plaintext', 0)?.text, 'select now()');
    assert.equal(statementFromSelection('GET user:1', 'plaintext', 0)?.family, 'redis');
    assert.equal(statementFromSelection('find users {"a":1}', 'plaintext', 0)?.family, 'mongo');
    assert.equal(statementFromSelection('   ', 'plaintext', 0), undefined);
  });
});

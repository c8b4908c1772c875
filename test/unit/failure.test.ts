import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyError, ProbeError, toFailure, withHint } from '../../src/core/failure';
import {
  classifyLibsqlError,
  classifyMysqlError,
  classifyPostgresError,
  classifyRedisReply,
} from '../../src/drivers/databaseErrors';
import { Redactor } from '../../src/shared/redact';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

test('errors are classified by Node code, then by message', () => {
  assert.equal(classifyError(withCode('getaddrinfo ENOTFOUND nope', 'ENOTFOUND')), 'dns');
  assert.equal(classifyError(withCode('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED')), 'refused');
  assert.equal(classifyError(new Error('password authentication failed for user "x"')), 'auth');
  assert.equal(classifyError(new Error('syntax error at or near "SELEC"')), 'query');
  assert.equal(classifyError(withCode('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT')), 'tls');
  assert.equal(classifyError(new Error('Connection terminated unexpectedly')), 'closed');
  assert.equal(classifyError(new ProbeError('timeout', 'connect timed out')), 'timeout');
  assert.equal(classifyError(new Error('something odd')), 'unknown');
});

test('the engine knows no database: its codes are classified by the driver that speaks it', () => {
  // Messages that no generic rule matches, so only the code can classify them.
  const pgAuth = withCode('role "x" is not permitted to log in', '28000');
  const pgQuery = withCode('column "y" is ambiguous', '42702');
  const mysqlAuth = withCode("Unknown database 'nope'", 'ER_BAD_DB_ERROR');
  const libsqlQuery = withCode('near "SELEC"', 'SQLITE_ERROR');
  for (const error of [pgAuth, pgQuery, mysqlAuth, libsqlQuery])
    assert.equal(classifyError(error), 'unknown');
  assert.equal(classifyError(pgAuth, classifyPostgresError), 'auth');
  assert.equal(classifyError(pgQuery, classifyPostgresError), 'query');
  assert.equal(classifyError(mysqlAuth, classifyMysqlError), 'auth');
  assert.equal(classifyError(libsqlQuery, classifyLibsqlError), 'query');
  assert.equal(classifyError(new Error('no such table: t'), classifyLibsqlError), 'query');
  assert.equal(classifyError(new Error('NOAUTH Authentication required.'), classifyRedisReply), 'auth');
  assert.equal(
    classifyError(new Error("ERR wrong number of arguments for 'get'"), classifyRedisReply),
    'query',
  );
  assert.equal(classifyError(new Error("ERR wrong number of arguments for 'get'")), 'unknown');
  // A driver's table does not claim another database's codes.
  assert.equal(classifyPostgresError(mysqlAuth), undefined);
  assert.equal(classifyMysqlError(pgAuth), undefined);
});

test("fetch's own socket errors: a server that closed is 'closed', undici's timeouts 'timeout'", () => {
  const closed = new TypeError('fetch failed', { cause: withCode('other side closed', 'UND_ERR_SOCKET') });
  assert.equal(classifyError(closed), 'closed');
  assert.equal(classifyError(withCode('Headers Timeout Error', 'UND_ERR_HEADERS_TIMEOUT')), 'timeout');
  assert.equal(classifyError(new Error('fetch failed: other side closed')), 'closed');
});

test('a cause chain is followed for codes (fetch wraps socket errors)', () => {
  const error = new TypeError('fetch failed', { cause: withCode('connect ECONNREFUSED', 'ECONNREFUSED') });
  assert.equal(classifyError(error), 'refused');
});

test('failures are redacted, one line, with a hint', () => {
  const redactor = new Redactor().addSecret('postgres://u:topsecret@h/db');
  const failure = toFailure(
    new Error('could not use postgres://u:topsecret@h/db\nbecause topsecret'),
    redactor,
  );
  assert.ok(!failure.message.includes('topsecret'), failure.message);
  assert.ok(!failure.message.includes('\n'));
  assert.ok(failure.hint.length > 10);
});

test('a read-only database or a missing grant is a permission error, by code and by wording', () => {
  const cases: [Error, ((e: unknown) => ReturnType<typeof classifyPostgresError>) | undefined][] = [
    [withCode('cannot execute CREATE TABLE in a read-only transaction', '25006'), classifyPostgresError],
    [withCode('permission denied for table t', '42501'), classifyPostgresError],
    [
      withCode('The MySQL server is running with the --read-only option', 'ER_OPTION_PREVENTS_STATEMENT'),
      classifyMysqlError,
    ],
    [withCode("INSERT command denied to user 'u'@'h'", 'ER_TABLEACCESS_DENIED_ERROR'), classifyMysqlError],
    [withCode('attempt to write a readonly database', 'SQLITE_READONLY'), classifyLibsqlError],
    [new Error("READONLY You can't write against a read only replica."), classifyRedisReply],
    [new Error('NOPERM this user has no permissions to run the set command'), classifyRedisReply],
    // No driver at hand (a stand-in, an HTTP API): the wording alone.
    [new Error('cannot execute INSERT in a read-only transaction'), undefined],
  ];
  for (const [error, classify] of cases)
    assert.equal(classifyError(error, classify), 'permission', error.message);
  // Refused credentials stay auth: "permission denied for database" is pg's CONNECT privilege.
  assert.equal(classifyError(new Error('permission denied for database "db"')), 'auth');
  assert.match(toFailure(cases[0]![0], new Redactor(), classifyPostgresError).hint, /read-only/);
});

test("a step's own hint replaces the class's: cold, workload and dbprobe's own timeouts", () => {
  const cold = toFailure(
    new ProbeError('config', 'could not start the suspend command', 'check the target\'s "cold" settings'),
    new Redactor(),
  );
  assert.equal(cold.class, 'config');
  assert.match(cold.hint, /"cold" settings/);
  assert.doesNotMatch(cold.hint, /connection string/);
  const wrapped = toFailure(
    withHint(withCode('permission denied for table t', '42501'), 'the workload'),
    new Redactor(),
  );
  assert.equal(wrapped.class, 'permission', 'the class survives the hint (classified by wording)');
  assert.equal(wrapped.hint, 'the workload');
  const cancelled = new ProbeError('cancelled', 'cancelled');
  assert.equal(withHint(cancelled, 'x'), cancelled, 'a cancel keeps its own hint');
});

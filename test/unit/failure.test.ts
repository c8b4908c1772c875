import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyError, ProbeError, toFailure } from '../../src/core/failure';
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

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { classifyError, ProbeError, toFailure } from '../../src/core/failure';
import { Redactor } from '../../src/shared/redact';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

test('errors are classified by code, then by message', () => {
  assert.equal(classifyError(withCode('getaddrinfo ENOTFOUND nope', 'ENOTFOUND')), 'dns');
  assert.equal(classifyError(withCode('connect ECONNREFUSED 127.0.0.1:1', 'ECONNREFUSED')), 'refused');
  assert.equal(classifyError(withCode('password authentication failed for user "x"', '28P01')), 'auth');
  assert.equal(classifyError(withCode('syntax error at or near "SELEC"', '42601')), 'query');
  assert.equal(
    classifyError(withCode("Access denied for user 'x'@'localhost'", 'ER_ACCESS_DENIED_ERROR')),
    'auth',
  );
  assert.equal(classifyError(new Error('WRONGPASS invalid username-password pair')), 'auth');
  assert.equal(classifyError(new Error("ERR unknown command 'PIN'")), 'query');
  assert.equal(classifyError(withCode('self-signed certificate', 'DEPTH_ZERO_SELF_SIGNED_CERT')), 'tls');
  assert.equal(classifyError(new Error('Connection terminated unexpectedly')), 'closed');
  assert.equal(classifyError(new ProbeError('timeout', 'connect timed out')), 'timeout');
  assert.equal(classifyError(new Error('something odd')), 'unknown');
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

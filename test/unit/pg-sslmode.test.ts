/**
 * The pg driver names verify-full where pg would read prefer/require/verify-ca as verify-full anyway,
 * so pg-connection-string's multi-line deprecation warning never reaches the user.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { explicitSslMode } from '../../src/drivers/pg';

test('sslmode prefer/require/verify-ca become verify-full; other modes and libpq-compat strings stay', () => {
  assert.equal(
    explicitSslMode('postgres://u:p@h/db?sslmode=require'),
    'postgres://u:p@h/db?sslmode=verify-full',
  );
  assert.equal(
    explicitSslMode('postgres://u:p@h/db?a=1&sslmode=verify-ca&b=2'),
    'postgres://u:p@h/db?a=1&sslmode=verify-full&b=2',
  );
  assert.equal(
    explicitSslMode('postgres://u:p@h/db?sslmode=prefer'),
    'postgres://u:p@h/db?sslmode=verify-full',
  );
  for (const kept of [
    'postgres://u:p@h/db?sslmode=disable',
    'postgres://u:p@h/db?sslmode=no-verify',
    'postgres://u:p@h/db',
    'postgres://u:p@h/db?uselibpqcompat=true&sslmode=require',
  ])
    assert.equal(explicitSslMode(kept), kept);
});

/**
 * What in a connection string turns a driver's certificate checks off, read as each client reads it
 * (the testbed rows in test/cli/edges.test.ts connect with them): each bypass is named, and what
 * still verifies is not.
 */
import assert from 'node:assert/strict';
import { before, test } from 'node:test';
import { mongodbUncheckedTls } from '../../src/drivers/mongodb';
import { mysqlSsl, mysqlUncheckedTls } from '../../src/drivers/mysql2';
import { pgUncheckedTls } from '../../src/drivers/pg';
import { createRegistry } from '../../src/drivers/registry';
import { tlsNotVerifiedSentence } from '../../src/shared/tlsNotVerified';

const PG = 'postgres://u:p@db.example.com:5432/app';
const MYSQL = 'mysql://u:p@db.example.com:3306/app';
const MONGO = 'mongodb://db.example.com:27017/app';

// A driver reads its npm client once the registry has chosen the copy (the project's or the
// bundled one), as every run does before its first connect.
before(async () => {
  const registry = createRegistry();
  await Promise.all(['pg', 'mysql2', 'mongodb'].map((id) => registry.load(id)));
});

test('pg: no-verify and the libpq modes that skip a check are named; verify-full and plain are not', () => {
  const cases: [string, string | undefined][] = [
    ['?sslmode=no-verify', "the connection string's sslmode=no-verify (no certificate check)"],
    [
      '?sslmode=require&uselibpqcompat=true',
      "the connection string's sslmode=require with uselibpqcompat=true (no certificate check)",
    ],
    [
      '?sslmode=prefer&uselibpqcompat=true',
      "the connection string's sslmode=prefer with uselibpqcompat=true (no certificate check)",
    ],
    // The last value wins, as pg reads it.
    [
      '?sslmode=verify-full&sslmode=no-verify',
      "the connection string's sslmode=no-verify (no certificate check)",
    ],
    ['?sslmode=verify-full', undefined],
    // pg's own reading of require (verify-full) and libpq's of no-verify (not a libpq mode: verified).
    ['?sslmode=require', undefined],
    ['?sslmode=no-verify&uselibpqcompat=true', undefined],
    // pg refuses to read verify-ca without sslrootcert; libpq's verify-ca checks no host name all the same.
    [
      '?sslmode=verify-ca&uselibpqcompat=true',
      "the connection string's sslmode=verify-ca with uselibpqcompat=true (no host name check)",
    ],
    ['?ssl=true', undefined],
    ['', undefined],
  ];
  for (const [query, expected] of cases) assert.equal(pgUncheckedTls(`${PG}${query}`), expected, query);
});

test('pg: PGSSLMODE=no-verify, which pg reads when the string sets no sslmode, is named as the environment', () => {
  const before = process.env.PGSSLMODE;
  process.env.PGSSLMODE = 'no-verify';
  try {
    assert.match(pgUncheckedTls(PG) ?? '', /^PGSSLMODE=no-verify in the environment/);
    assert.equal(pgUncheckedTls(`${PG}?sslmode=verify-full`), undefined, 'the string wins');
  } finally {
    if (before === undefined) delete process.env.PGSSLMODE;
    else process.env.PGSSLMODE = before;
  }
});

test('mysql2: host names are checked unless the string turns it off; rejectUnauthorized false is named', () => {
  assert.equal(mysqlSsl('mysqls://u:p@h/app', undefined)?.verifyIdentity, true, 'mysqls: checks the name');
  assert.equal(mysqlSsl(`${MYSQL}?ssl=%7B%7D`, undefined)?.verifyIdentity, true, 'ssl={} checks the name');
  assert.equal(mysqlSsl(MYSQL, undefined), undefined, 'plaintext stays plaintext');
  const ssl = (json: string) => `${MYSQL}?ssl=${encodeURIComponent(json)}`;
  assert.match(
    mysqlUncheckedTls(ssl('{"rejectUnauthorized":false}')) ?? '',
    /rejectUnauthorized":false\} \(no certificate check\)$/,
  );
  assert.match(
    mysqlUncheckedTls(ssl('{"verifyIdentity":false}')) ?? '',
    /verifyIdentity":false\} \(no host name check\)$/,
  );
  assert.equal(mysqlUncheckedTls(ssl('{"rejectUnauthorized":true}')), undefined);
  assert.equal(mysqlUncheckedTls('mysqls://u:p@h/app'), undefined);
  // Never the other fields of ssl={...}: a key or a passphrase stays out of the result.
  assert.doesNotMatch(
    mysqlUncheckedTls(ssl('{"rejectUnauthorized":false,"passphrase":"s3cret"}')) ?? '',
    /s3cret/,
  );
});

test('mongodb: tlsInsecure and tlsAllowInvalid* on a TLS connection are named; plaintext is not', () => {
  assert.match(
    mongodbUncheckedTls(`${MONGO}?tls=true&tlsInsecure=true`) ?? '',
    /tlsInsecure=true \(no certificate check\)$/,
  );
  assert.match(
    mongodbUncheckedTls(`${MONGO}?tls=true&tlsAllowInvalidCertificates=true`) ?? '',
    /tlsAllowInvalidCertificates=true \(no certificate check\)$/,
  );
  assert.match(
    mongodbUncheckedTls(`${MONGO}?ssl=true&TLSALLOWINVALIDHOSTNAMES=true`) ?? '',
    /tlsAllowInvalidHostnames=true \(no host name check\)$/,
  );
  assert.equal(mongodbUncheckedTls(`${MONGO}?tls=true`), undefined);
  assert.equal(mongodbUncheckedTls(`${MONGO}?tlsAllowInvalidCertificates=true`), undefined, 'no TLS at all');
});

test('a host-name-only bypass is not said to leave the certificate unchecked', () => {
  const sentence = tlsNotVerifiedSentence({
    name: 'm',
    tls: {
      insecure: true,
      insecureBy: "the connection string's tlsAllowInvalidHostnames=true (no host name check)",
    },
  });
  assert.match(
    sentence,
    /^TLS not verified for m: .*must still come from a trusted CA, but not one issued for this host/,
  );
  assert.doesNotMatch(sentence, /certificate was not checked|connections were encrypted/);
});

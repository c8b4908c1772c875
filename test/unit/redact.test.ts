import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import {
  CREDENTIAL_PATTERNS,
  Redactor,
  mayHoldCredential,
  redactDeep,
  redactPatterns,
} from '../../src/shared/redact';

const SECRET = 's3cr3t-P@ss/word';
const URL_WITH_SECRET = `postgres://app:${encodeURIComponent(SECRET)}@db.example.com:5432/app`;

test('a registered connection string is masked whole, and its password anywhere', () => {
  const r = new Redactor().addSecret(URL_WITH_SECRET);
  const text = `failed to reach ${URL_WITH_SECRET}; password was ${SECRET} (${encodeURIComponent(SECRET)})`;
  const out = r.redact(text);
  assert.ok(!out.includes(SECRET) && !out.includes(encodeURIComponent(SECRET)), out);
  assert.match(out, /\*\*\*\*/);
});

test('patterns strip credentials nobody registered', () => {
  assert.equal(redactPatterns('mysql://root:hunter22@10.0.0.1/db'), 'mysql://root:****@10.0.0.1/db');
  assert.equal(redactPatterns('https://TOKEN123@api.example.com'), 'https://****@api.example.com');
  assert.equal(
    redactPatterns('libsql://db.turso.io?authToken=abc.def'),
    'libsql://db.turso.io?authToken=****',
  );
  assert.equal(redactPatterns('Authorization: Bearer abc.def-ghi'), 'Authorization: Bearer ****');
  assert.equal(redactPatterns('host=db password=hunter22 user=x'), 'host=db password=**** user=x');
});

test('tokens in URL parameters are registered as secrets too', () => {
  const r = new Redactor().addSecret('https://db.turso.io?authToken=tok-ABCDEFG');
  assert.equal(r.redact('bad token tok-ABCDEFG'), 'bad token ****');
});

test('redactDeep walks objects and arrays', () => {
  const r = new Redactor().addSecret(SECRET);
  const out = redactDeep({ a: [`x ${SECRET}`], b: { c: SECRET, n: 3 } }, r);
  assert.deepEqual(out, { a: ['x ****'], b: { c: '****', n: 3 } });
});

test('redactDeep masks a string each time it repeats, and a secret added later from the next call on', () => {
  const r = new Redactor().addSecret(SECRET);
  const repeated = `x ${SECRET}`;
  const value = { a: [repeated, repeated], b: { c: repeated }, d: [{ e: repeated }] };
  assert.deepEqual(redactDeep(value, r), {
    a: ['x ****', 'x ****'],
    b: { c: 'x ****' },
    d: [{ e: 'x ****' }],
  });
  // Longest first still holds once the list is kept: the whole URL goes before its password inside it.
  assert.equal(r.redact(`at ${URL_WITH_SECRET}`), 'at postgres://app:****@db.example.com:5432/app');
  const later = 'another-secret-added-later';
  assert.equal(redactDeep([`y ${later}`], r)[0], `y ${later}`);
  r.addSecret(later);
  r.addSecret(URL_WITH_SECRET);
  assert.deepEqual(redactDeep([`y ${later}`, `at ${URL_WITH_SECRET}`], r), ['y ****', 'at ****']);
});

test('very short secrets are not used as literal masks', () => {
  const r = new Redactor().addSecret('ab');
  assert.equal(r.redact('abc'), 'abc');
});

test('underscore-prefixed token parameters and Basic credentials are masked by pattern', () => {
  assert.equal(redactPatterns('https://h/?_token=abc123'), 'https://h/?_token=****');
  assert.equal(redactPatterns('Authorization: Basic dXNlcjpwYXNz'), 'Authorization: Basic ****');
});

test('credentials after a run of letters longer than any scheme are still masked', () => {
  // The scheme pattern is bounded (so long inputs cost linear time); the match starts inside the run.
  const text = `see ${'a'.repeat(40)}postgres://u:hunter2@h/db and ${'b'.repeat(40)}x://tok-123@h`;
  assert.equal(
    redactPatterns(text),
    `see ${'a'.repeat(40)}postgres://u:****@h/db and ${'b'.repeat(40)}x://****@h`,
  );
});

test('redactDeep copies only what it masked: untouched parts are shared, the input never changes', () => {
  const r = new Redactor().addSecret(SECRET);
  const samples = [
    { atUs: 1, us: 40, wire: { roundTrips: 1 } },
    { atUs: 2, us: 41 },
  ];
  const input = { name: `db ${SECRET}`, samples, nested: { list: ['a', SECRET, 'c'], n: 1 } };
  const out = redactDeep(input, r);
  assert.deepEqual(out, { name: 'db ****', samples, nested: { list: ['a', '****', 'c'], n: 1 } });
  // Nothing in the samples changed: the same array, not a copy of 10,000 records.
  assert.equal(out.samples, samples);
  assert.notEqual(out, input);
  assert.notEqual(out.nested.list, input.nested.list);
  // The input keeps its secret: the copy took the masked string, not the original.
  assert.equal(input.nested.list[1], SECRET);
  assert.equal(input.name, `db ${SECRET}`);
});

test('redactDeep turns a class instance into a plain object of its own keys, masked', () => {
  class Holder {
    constructor(readonly text: string) {}
  }
  const r = new Redactor().addSecret(SECRET);
  const clean = new Holder('fine');
  const out = redactDeep({ clean, dirty: new Holder(SECRET) }, r);
  assert.deepEqual(out, { clean: { text: 'fine' }, dirty: { text: '****' } });
  assert.ok(!(out.clean instanceof Holder));
});

test('text the quick check passes over cannot match any credential pattern', () => {
  // Pieces of every pattern's shape, and near misses, so random strings often come close.
  const pieces = [
    ...['://', ':/', ':', '/', '@', '=', '"', ' ', '\t', '&', '.', '_', '-', 'x', 'Z', '9'],
    ...['password', 'Token', 'authToken', 'apikey', 'secret', 'authorization', 'pwd'],
    ...['Bearer', 'Basic', 'bearer', 'napi_', 'pscale_pw_', 'pscale_tkn_', 'eyJ', 'eyj', 'abcdefgh12'],
    ...['postgres', 'user', 'pass', 'host'],
  ];
  const matchesAny = (text: string) =>
    CREDENTIAL_PATTERNS.some((pattern) =>
      new RegExp(pattern.source, pattern.flags.replace('g', '')).test(text),
    );
  fc.assert(
    fc.property(fc.array(fc.constantFrom(...pieces), { maxLength: 24 }), (parts) => {
      const text = parts.join('');
      if (matchesAny(text)) assert.ok(mayHoldCredential(text), text);
    }),
    { numRuns: 20_000 },
  );
  // And the shapes the patterns exist for all go through.
  for (const text of [
    'postgres://u:p@h/db',
    'https://tok@h',
    'x password=hunter2',
    'Authorization: Bearer abc',
    '{"token": "abc"}',
    'napi_abcdefghij',
    'eyJab.cd.ef',
  ])
    assert.ok(mayHoldCredential(text) && redactPatterns(text) !== text, text);
});

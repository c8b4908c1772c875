/**
 * Quoting another program's words (shared/redact.ts quoteOutput): token shapes masked unregistered,
 * the registered secrets masked before the cut, the cut at a word boundary so no part of a secret
 * survives it, and the input bounded before any pattern meets it.
 */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { cutAtWord, quoteOutput, Redactor, redactPatterns, QUOTE_CHARS } from '../../src/shared/redact';

const NEON = `napi_${'a1B2c3D4'.repeat(8)}`;
const JWT = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl-_x';

test('known token shapes are masked without being registered', () => {
  for (const token of [NEON, 'pscale_pw_AbCdEf0123456789xyz', 'pscale_tkn_AbCdEf0123456789xyz', JWT]) {
    const out = redactPatterns(`using key ${token} now`);
    assert.equal(out, 'using key **** now', token);
  }
  // Not a token: the prefix inside a longer word, or too short to be one.
  assert.equal(redactPatterns('my_napi_thing and napi_short'), 'my_napi_thing and napi_short');
});

test('a secret echoed as a JSON field is masked, registered or not', () => {
  assert.equal(
    redactPatterns('{"message":"bad","apikey":"k3y-v4lue","authorization":"Token abc"}'),
    '{"message":"bad","apikey":"****","authorization":"****"}',
  );
});

test('quoteOutput puts the text on one line and cuts it at a word boundary, with a mark', () => {
  const text = `first line\nsecond ${'word '.repeat(200)}`;
  const out = quoteOutput(text, { maxChars: 40 });
  assert.ok(out.length <= 40, out);
  assert.ok(!out.includes('\n'));
  assert.match(out, /^first line second (word )*word…$/);
});

test('a cut never leaves part of a secret nobody registered', () => {
  const secret = 'Zq8vN3xLw0pR7tYb2mKc';
  const text = `prefix ${'x '.repeat(10)}${secret} suffix`;
  for (let max = 10; max < text.length; max++) {
    const head = quoteOutput(text, { maxChars: max });
    const tail = quoteOutput(text, { maxChars: max, keep: 'end' });
    for (const out of [head, tail]) {
      assert.ok(out.length <= max, `${max}: ${out}`);
      // Either the whole secret is shown (it was not cut; nobody said it was secret) or none of it.
      if (!out.includes(secret)) assert.ok(!/Zq8v|bKc|N3xL|w0pR|7tYb|2mKc/.test(out), `${max}: ${out}`);
    }
  }
});

test('with a Redactor, registered secrets are masked before the cut', () => {
  const secret = 'hunter-22-correct-horse';
  const redactor = new Redactor().addSecret(secret);
  const text = `${'a '.repeat(20)}${secret}${' b'.repeat(20)}`;
  for (let max = 5; max < text.length; max++) {
    const out = redactor.quote(text, { maxChars: max });
    assert.ok(!/hunter|horse|correct/.test(out), `${max}: ${out}`);
  }
});

test('keep: end keeps the last words (a command says why it failed at the end)', () => {
  const out = quoteOutput(`${'noise '.repeat(100)}error: disk full`, { maxChars: 30, keep: 'end' });
  assert.match(out, /^…(noise )*error: disk full$/);
  assert.ok(out.length <= 30);
});

test('the default bound, and a huge input costs a length check, not a pattern over all of it', () => {
  assert.ok(quoteOutput('word '.repeat(10_000)).length <= QUOTE_CHARS);
  const huge = 'eyJ' + 'a'.repeat(5_000_000) + '.b.c';
  const started = performance.now();
  const out = quoteOutput(huge);
  assert.ok(performance.now() - started < 500, 'bounded before the patterns');
  assert.ok(out.length <= QUOTE_CHARS);
  assert.ok(!out.includes('aaaa'), 'one unbroken word is not shown in part');
});

test('cutAtWord leaves short text alone', () => {
  assert.equal(cutAtWord('short text', 100), 'short text');
  assert.equal(cutAtWord('abc def ghi', 8, false, ''), 'abc def');
});

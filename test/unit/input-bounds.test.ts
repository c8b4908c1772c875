/** Size limits on a plan as it arrives: each problem names the field and the limit, never the value. */
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { checkInputSizes } from '../../src/core/inputBounds';
import { INPUT_LIMITS } from '../../src/shared/limits';

const target = (extra: Record<string, unknown> = {}) => ({
  name: 'a',
  driver: 'pg',
  connection: 'env:A',
  ...extra,
});

test('a plan within every limit has no problems', () => {
  const plan = {
    targets: [target({ query: 'q'.repeat(INPUT_LIMITS.queryChars), options: { note: 'o'.repeat(4096) } })],
    kinds: ['initial'],
  };
  assert.deepEqual(checkInputSizes(plan), []);
});

test('names, connections and queries have their own limits; other strings the general one', () => {
  const issues = checkInputSizes({
    targets: [
      target({ name: 'n'.repeat(65), connection: 'c'.repeat(257), query: 'q'.repeat(65_537) }),
      target({ options: { ssl: 's'.repeat(4097) } }),
    ],
  });
  assert.deepEqual(issues, [
    { path: 'targets[0].name', message: 'is 65 characters long; the limit is 64' },
    { path: 'targets[0].connection', message: 'is 257 characters long; the limit is 256' },
    { path: 'targets[0].query', message: 'is 65537 characters long; the limit is 65536' },
    { path: 'targets[1].options.ssl', message: 'is 4097 characters long; the limit is 4096' },
  ]);
});

test('long field names are reported without being quoted', () => {
  const issues = checkInputSizes({ targets: [target({ options: { ['k'.repeat(65)]: 1 } })] });
  assert.deepEqual(issues, [
    { path: 'targets[0].options', message: 'has a field name of 65 characters; the limit is 64' },
  ]);
});

test('deep nesting and long lists stop the walk at the limit', () => {
  let deep: unknown = 1;
  for (let i = 0; i < 100_000; i++) deep = [deep];
  const issues = checkInputSizes({
    targets: [target({ options: { deep } })],
    kinds: Array(300).fill('initial'),
  });
  assert.equal(issues.length, 2);
  assert.match(issues[0]?.path ?? '', /^targets\[0\]\.options\.deep(\[0\])+$/);
  assert.equal(issues[0]?.message, 'nests deeper than 8 levels, the limit; flatten it');
  assert.deepEqual(issues[1], { path: 'kinds', message: 'has 300 items; the limit is 256' });
  assert.deepEqual(checkInputSizes({ targets: Array(101).fill(target()) }), [
    { path: 'targets', message: 'has 101 items; the limit is 100' },
  ]);
});

test('at most ten problems are listed', () => {
  const targets = Array.from({ length: 50 }, () => target({ name: 'n'.repeat(100) }));
  assert.equal(checkInputSizes({ targets }).length, 10);
});

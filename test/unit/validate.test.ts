import assert from 'node:assert/strict';
import { test } from 'node:test';
import { formatIssues, validatePlan } from '../../src/core/validate/validatePlan';
import { PLAN_DEFAULTS } from '../../src/shared/plan';

const DRIVERS = ['pg', 'ioredis'];
const good = { targets: [{ name: 'local', driver: 'pg', connection: 'env:DATABASE_URL' }] };

test('a minimal plan gets the defaults', () => {
  const v = validatePlan(good, DRIVERS);
  assert.ok(v.ok);
  assert.equal(v.value.iterations, PLAN_DEFAULTS.iterations);
  assert.deepEqual(v.value.kinds, ['initial', 'subsequent']);
  assert.equal(v.value.order, 'interleaved');
});

test('every problem is reported with its field and a fix', () => {
  const v = validatePlan(
    {
      targets: [
        { name: 'a', driver: 'postgres', connection: 'postgres://u:p@h/db' },
        { name: 'a', driver: 'pg', connection: 'DATABASE_URL', query: '' },
      ],
      kinds: ['initial', 'warm'],
      iterations: 0,
      warmup: 1.5,
      order: 'random',
      timeouts: { connectMs: -1 },
    },
    DRIVERS,
  );
  assert.ok(!v.ok);
  const text = formatIssues(v.issues);
  assert.match(text, /targets\[0\] \("a"\)\.driver: unknown driver "postgres"; use one of: pg, ioredis/);
  assert.match(
    text,
    /targets\[0\] \("a"\)\.connection: looks like a literal connection string; put it in an environment variable/,
  );
  assert.match(text, /targets\[1\]\.name: "a" is used by another target/);
  assert.match(text, /targets\[1\] \("a"\)\.connection: must be a reference like "env:DATABASE_URL"/);
  assert.match(text, /targets\[1\] \("a"\)\.query: must be a non-empty string/);
  assert.match(text, /kinds: "warm" is not a kind; must be a non-empty list of: initial, subsequent/);
  assert.match(text, /iterations: must be a whole number from 1 to/);
  assert.match(text, /warmup: must be a whole number from 0 to/);
  assert.match(text, /order: must be one of: interleaved, sequential/);
  assert.match(text, /timeouts\.connectMs: must be a whole number/);
  assert.ok(!text.includes('u:p@'), 'the literal connection string is not echoed');
});

test('no targets says how to add one', () => {
  const v = validatePlan({ targets: [] }, DRIVERS);
  assert.ok(!v.ok);
  assert.match(v.issues[0]!.message, /add at least one target, e\.g\./);
});

test('tls: caFile and an explicit insecure pass through; a bad or contradictory tls is refused', () => {
  const withTls = (tls: unknown) =>
    validatePlan({ targets: [{ name: 't', driver: 'pg', connection: 'env:U', tls }] }, DRIVERS);
  const ca = withTls({ caFile: 'certs/ca.pem' });
  assert.ok(ca.ok);
  assert.deepEqual(ca.value.targets[0]?.tls, { caFile: 'certs/ca.pem' });
  const insecure = withTls({ insecure: true });
  assert.ok(insecure.ok);
  assert.deepEqual(insecure.value.targets[0]?.tls, { insecure: true });
  const ceiling = withTls({ maxVersion: '1.2' });
  assert.ok(ceiling.ok);
  assert.deepEqual(ceiling.value.targets[0]?.tls, { maxVersion: '1.2' });
  const off = withTls({ insecure: false });
  assert.ok(off.ok);
  assert.equal(off.value.targets[0]?.tls, undefined);
  for (const [tls, problem] of [
    ['ca.pem', /tls: must be an object like \{"caFile"/],
    [{ caFile: '' }, /tls\.caFile: must be the path of a PEM file/],
    [{ insecure: 'yes' }, /tls\.insecure: must be true/],
    [{ verify: false }, /tls: unknown field "verify"; allowed: caFile, insecure, maxVersion/],
    [{ maxVersion: 1.2 }, /tls\.maxVersion: must be "1\.2" or "1\.3"/],
    [{ maxVersion: 'TLSv1.2' }, /tls\.maxVersion: must be "1\.2" or "1\.3"/],
    [{ caFile: 'ca.pem', insecure: true }, /tls: caFile and insecure contradict each other/],
  ] as const) {
    const v = withTls(tls);
    assert.ok(!v.ok, JSON.stringify(tls));
    assert.match(formatIssues(v.issues), problem);
  }
});

test('allowWrites is an optional boolean, kept when given', () => {
  const target = { name: 'scratch', driver: 'pg', connection: 'env:DATABASE_URL' };
  const yes = validatePlan({ targets: [{ ...target, allowWrites: true }] }, DRIVERS);
  assert.ok(yes.ok);
  assert.equal(yes.value.targets[0]?.allowWrites, true);
  const absent = validatePlan({ targets: [target] }, DRIVERS);
  assert.ok(absent.ok);
  assert.equal('allowWrites' in (absent.value.targets[0] ?? {}), false);
  const bad = validatePlan({ targets: [{ ...target, allowWrites: 'yes' }] }, DRIVERS);
  assert.ok(!bad.ok);
  assert.match(formatIssues(bad.issues), /targets\[0\] \("scratch"\)\.allowWrites: must be true or false/);
});

import assert from 'node:assert/strict';
import { test } from 'node:test';
import { buildPlan } from '../../src/extension/config/planSettings';
import { checkConnectionName, resolveTargets, secretNameOf } from '../../src/extension/config/targetSources';

const DRIVERS = ['pg', 'ioredis', 'libsql'];

test('merges dbprobe.json, workspace and user targets; the most specific source wins a name', () => {
  const { targets, shadowed } = resolveTargets({
    fileTargets: [{ name: 'db', driver: 'pg', connection: 'secret:db', query: 'SELECT 2' }],
    workspaceTargets: [{ name: 'cache', driver: 'ioredis', connection: 'secret:cache' }],
    userTargets: [
      { name: 'db', driver: 'pg', connection: 'secret:db' },
      { name: 'mine', driver: 'libsql', connection: 'env:TURSO_URL' },
    ],
    knownDrivers: DRIVERS,
  });
  assert.deepEqual(
    targets.map((t) => [t.spec.name, t.source, t.fromWorkspace, t.issues.length]),
    [
      ['db', 'file', true, 0],
      ['cache', 'workspace', true, 0],
      ['mine', 'user', false, 0],
    ],
  );
  assert.equal(targets[0]?.spec.query, 'SELECT 2');
  assert.deepEqual(shadowed, [{ name: 'db', source: 'user', by: 'file' }]);
});

test('a broken target stays in the list with what is wrong, in the engine words', () => {
  const { targets } = resolveTargets({
    userTargets: [
      { name: 'literal', driver: 'pg', connection: 'postgres://u:p@h/db' },
      { name: 'nodriver', driver: 'oracle', connection: 'secret:x' },
      'junk',
    ],
    knownDrivers: DRIVERS,
  });
  assert.equal(targets.length, 3);
  assert.match(targets[0]?.issues[0] ?? '', /^connection: looks like a literal connection string/);
  assert.match(
    targets[1]?.issues[0] ?? '',
    /^driver: unknown driver "oracle"; use one of: pg, ioredis, libsql/,
  );
  assert.equal(targets[2]?.spec.name, '(unnamed target)');
  assert.ok((targets[2]?.issues.length ?? 0) > 0);
});

test('a duplicate within one source is an issue, not a silent drop', () => {
  const { targets } = resolveTargets({
    userTargets: [
      { name: 'a', driver: 'pg', connection: 'secret:a' },
      { name: 'a', driver: 'pg', connection: 'secret:b' },
    ],
    knownDrivers: DRIVERS,
  });
  assert.equal(targets.length, 1);
  assert.match(targets[0]?.issues[0] ?? '', /another target in the same user settings/);
});

test('connection names double as secret references', () => {
  assert.equal(checkConnectionName('testbed-pg', []), undefined);
  assert.match(checkConnectionName('has space', []) ?? '', /letters, digits/);
  assert.match(checkConnectionName('9lives', []) ?? '', /starting with a letter/);
  assert.match(checkConnectionName('db', ['db']) ?? '', /exists already/);
  assert.equal(secretNameOf({ name: 'x', driver: 'pg', connection: 'secret:x' }), 'x');
  assert.equal(secretNameOf({ name: 'x', driver: 'pg', connection: 'env:X' }), undefined);
});

test('plan: settings give the defaults, dbprobe.json overrides them, the engine validates', () => {
  const targets = [{ name: 'db', driver: 'pg', connection: 'secret:db' }];
  const ok = buildPlan(targets, ['initial'], { iterations: 20, warmup: 2 }, { iterations: 7 }, DRIVERS);
  assert.ok(ok.ok);
  assert.equal(ok.plan.iterations, 7);
  assert.equal(ok.plan.warmup, 2);
  assert.deepEqual(ok.plan.kinds, ['initial']);
  const bad = buildPlan(targets, ['initial'], { iterations: 0 }, undefined, DRIVERS);
  assert.equal(bad.ok, false);
  assert.match(bad.ok ? '' : bad.problem, /iterations: must be a whole number from 1/);
});

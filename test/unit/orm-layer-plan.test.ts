/** The `orm` option: which layers a driver takes, and the raw twin the run measures beside each. */
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { withLayerTwins } from '../../src/core/layerTwins';
import { validatePlan } from '../../src/core/validate/validatePlan';
import { DRIVER_IDS } from '../../src/drivers/catalog';
import { LAYER_CATALOG, layersOver } from '../../src/shared/layerCatalog';
import { PLAN_DEFAULTS, type TargetSpec } from '../../src/shared/plan';
import { LAYERED_DEFAULT_ITERATIONS } from '../../src/shared/schema/planValues';

const target = (extra: Record<string, unknown>) => ({
  name: 'db',
  driver: 'pg',
  connection: 'env:DATABASE_URL',
  ...extra,
});
const issues = (targets: unknown[]) => {
  const validated = validatePlan({ targets }, DRIVER_IDS);
  return validated.ok ? [] : validated.issues.map((i) => `${i.path}: ${i.message}`);
};

test('a layer over a driver it runs over is accepted and kept', () => {
  for (const layer of LAYER_CATALOG)
    for (const driver of layer.drivers) {
      const validated = validatePlan({ targets: [target({ driver, orm: layer.id })] }, DRIVER_IDS);
      assert.ok(validated.ok, `${layer.id} over ${driver}: ${JSON.stringify(validated)}`);
      assert.equal(validated.value.targets[0]?.orm, layer.id);
    }
});

test('a layer over a driver it does not run over is refused, naming the ones that do', () => {
  const found = issues([target({ driver: 'libsql', orm: 'kysely' })]);
  assert.equal(found.length, 1, found.join('\n'));
  assert.match(
    found[0]!,
    /\.orm: kysely does not run over driver "libsql".*use one of prisma, drizzle for libsql/,
  );
  assert.match(issues([target({ driver: 'ioredis', orm: 'drizzle' })])[0]!, /no layer runs over ioredis/);
});

test('an unknown layer is refused with the known ones', () => {
  assert.match(issues([target({ orm: 'typeorm' })])[0]!, /\.orm: must be one of: prisma, drizzle, kysely/);
});

test("the layered twin's name may not be another target's", () => {
  const found = issues([target({ name: 'db · drizzle' }), target({ orm: 'drizzle' })]);
  assert.match(found.join('\n'), /"db · drizzle", the name its drizzle twin gets, is used by another target/);
});

test('a layered target runs raw under its name and through the layer under "name · layer"', () => {
  const plan = {
    ...PLAN_DEFAULTS,
    targets: [target({ orm: 'prisma' }) as TargetSpec, target({ name: 'other' })],
  };
  const expanded = withLayerTwins(plan);
  assert.deepEqual(
    expanded.targets.map((t) => [t.name, t.orm, t.rawTwin, t.connection]),
    [
      ['db', undefined, undefined, 'env:DATABASE_URL'],
      ['db · prisma', 'prisma', 'db', 'env:DATABASE_URL'],
      ['other', undefined, undefined, 'env:DATABASE_URL'],
    ],
  );
  assert.deepEqual(withLayerTwins(expanded).targets, expanded.targets, 'an expanded plan stays as it is');
});

test('the README and docs/providers.md name, per driver, the layers the catalog says it takes', () => {
  for (const file of ['README.md', 'docs/providers.md']) {
    const text = readFileSync(path.join(__dirname, '..', '..', file), 'utf8');
    for (const driver of DRIVER_IDS) {
      const row = text.split('\n').find((line) => line.startsWith(`| \`${driver}\` `));
      assert.ok(row, `${file} has no row for ${driver}`);
      const cell = row.split('|').at(-2)?.trim() ?? '';
      const named = cell === '-' ? [] : cell.split(', ');
      assert.deepEqual(named, layersOver(driver), `${file}, ${driver}'s ORM layers`);
    }
  }
});

test('"ormQuery" picks the raw or the typed path, typed only where the layer has one', () => {
  for (const layer of ['drizzle', 'kysely']) {
    const validated = validatePlan({ targets: [target({ orm: layer, ormQuery: 'typed' })] }, DRIVER_IDS);
    assert.ok(validated.ok, `${layer}: ${JSON.stringify(validated)}`);
    assert.equal(validated.value.targets[0]?.ormQuery, 'typed');
    const twin = withLayerTwins(validated.value).targets;
    assert.deepEqual(
      twin.map((t) => [t.name, t.ormQuery]),
      [
        ['db', undefined],
        [`db · ${layer}`, 'typed'],
      ],
      'only the layered twin takes the path',
    );
  }
  const raw = validatePlan({ targets: [target({ orm: 'prisma', ormQuery: 'raw' })] }, DRIVER_IDS);
  assert.ok(raw.ok && raw.value.targets[0]?.ormQuery === 'raw');
  assert.deepEqual(issues([target({ orm: 'prisma', ormQuery: 'typed' })]), [
    `targets[0] ("db").ormQuery: "typed" is not offered for prisma: Prisma's typed queries go through the models of the app's schema, and a probe has no schema; use "raw"`,
  ]);
  assert.match(
    issues([target({ orm: 'kysely', ormQuery: 'typed', query: 'SELECT 2' })])[0] ?? '',
    /takes no "query" or "workload"/,
  );
  assert.match(issues([target({ ormQuery: 'typed' })])[0] ?? '', /applies to a target with "orm"/);
  assert.match(
    issues([target({ orm: 'kysely', ormQuery: 'builder' })])[0] ?? '',
    /must be one of: raw, typed/,
  );
});

test('a plan with a layer takes more pairs by default, and keeps a count it was given', () => {
  const counts = (plan: Record<string, unknown>, selected?: string[]) => {
    const validated = validatePlan(plan, DRIVER_IDS, selected ? { selected } : {});
    assert.ok(validated.ok, JSON.stringify(validated));
    return [validated.value.iterations, validated.value.iterationsFit === true];
  };
  const layered = { targets: [target({ orm: 'kysely' }), target({ name: 'other' })] };
  assert.deepEqual(counts(layered), [LAYERED_DEFAULT_ITERATIONS, true]);
  assert.ok(LAYERED_DEFAULT_ITERATIONS > PLAN_DEFAULTS.iterations);
  assert.deepEqual(counts(layered, ['other']), [PLAN_DEFAULTS.iterations, true], 'the layer does not run');
  assert.deepEqual(counts({ targets: [target({})] }), [PLAN_DEFAULTS.iterations, true]);
  assert.deepEqual(counts({ ...layered, iterations: 50 }), [50, false], 'a count asked for is kept');
});
